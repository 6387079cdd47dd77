// Runs every unit, language-server and runtime test file with node's test runner
// (TypeScript through tsx). Node 20's --test takes no globs, so we list files here.
// Usage: node scripts/run-tests.mjs [unit|lsp|runtime ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const suites = process.argv.slice(2).length ? process.argv.slice(2) : ['unit', 'lsp', 'runtime'];

function testFiles(dir) {
  let out = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(testFiles(p));
    else if (/\.test\.ts$/.test(name)) out.push(relative(root, p));
  }
  return out;
}

const files = suites.flatMap((s) => testFiles(join(root, 'test', s))).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
  // Tests see python3's own verdicts, never ones remembered from an earlier run (the verdict
  // cache's own tests turn it on with a directory of their own).
  env: { ...process.env, HOOKSMITH_NO_CACHE: '1' },
});
process.exit(r.status ?? 1);
