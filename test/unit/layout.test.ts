// The layout promise of docs/development.md: runtime/ stays made of small modules
// a newcomer can read at once. A file that outgrows it is split, not excused.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const REPO = join(__dirname, '..', '..');
const MAX_LINES = 400;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === '__pycache__' ? [] : sources(path);
    return /\.(ts|py)$/.test(d.name) ? [path] : [];
  });
}

for (const [folder, atLeast] of [
  ['runtime', 50],
  ['server', 10],
  ['client', 10],
] as const) {
  test(`no source file in ${folder}/ is over ${MAX_LINES} lines`, () => {
    const root = join(REPO, folder);
    const files = sources(root);
    assert.ok(files.length > atLeast, `${folder}/ sources found: ${files.length}`);
    const long = files
      .map((f) => ({ f: f.slice(root.length + 1), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((x) => x.lines > MAX_LINES);
    assert.deepEqual(long, []);
  });
}
