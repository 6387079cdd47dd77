// Runs the real CLI in a child process: runtime/cli/main.ts bundled once per test process
// with esbuild (as scripts/build.mjs does, into a temp dir with the WASM files beside it),
// so each run costs a node start rather than a TypeScript compile.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';

export const ROOT = join(__dirname, '..', '..');

// CLI runs in tests see python3's own verdicts, never ones remembered in ~/.cache by an earlier
// run, also when a test file is run alone rather than through scripts/run-tests.mjs.
process.env.HOOKSMITH_NO_CACHE ??= '1';

const CHECK_ONLY_ENTRY = `
import { runCheckCommand } from './check';
const [command, ...rest] = process.argv.slice(2);
if (command !== 'check') {
  process.stderr.write('hooksmith (test build): only check is available\\n');
  process.exitCode = 2;
} else {
  runCheckCommand(rest).then(
    (code) => { process.exitCode = code; },
    (err) => { process.stderr.write('hooksmith: internal error: ' + String(err && err.stack || err) + '\\n'); process.exitCode = 2; },
  );
}
`;

/**
 * Bundles the CLI like scripts/build.mjs into `dir`: cli.js with both tree-sitter WASM files and
 * CPython's syntax checker beside it.
 */
export function bundleCli(dir: string): void {
  const common: BuildOptions = {
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    mainFields: ['main', 'module'],
    conditions: ['require', 'node'],
    // The CommonJS build of web-tree-sitter (its ESM build needs import.meta.url, empty in a CJS bundle).
    alias: { 'web-tree-sitter': require.resolve('web-tree-sitter') },
    logLevel: 'silent',
  };
  try {
    buildSync({ ...common, entryPoints: { cli: join(ROOT, 'runtime', 'cli', 'main.ts') } });
  } catch {
    // Another subcommand may be mid-edit and not compile: test `check` through a check-only
    // entry that behaves like main.ts for it (same exit-code handling).
    buildSync({
      ...common,
      outdir: undefined,
      outfile: join(dir, 'cli.js'),
      stdin: {
        contents: CHECK_ONLY_ENTRY,
        resolveDir: join(ROOT, 'runtime', 'cli'),
        sourcefile: 'check-entry.ts',
        loader: 'ts',
      },
    });
  }
  copyFileSync(join(ROOT, 'runtime/cpython/syntax_checker.py'), join(dir, 'syntax_checker.py'));
  copyFileSync(join(ROOT, 'runtime/cpython/environment_probe.py'), join(dir, 'environment_probe.py'));
  copyFileSync(join(ROOT, 'node_modules/web-tree-sitter/tree-sitter.wasm'), join(dir, 'tree-sitter.wasm'));
  copyFileSync(
    join(ROOT, 'node_modules/tree-sitter-python/tree-sitter-python.wasm'),
    join(dir, 'tree-sitter-python.wasm'),
  );
}

let bundle: string | undefined;
export function cliBundle(): string {
  if (bundle) return bundle;
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-cli-'));
  bundleCli(dir);
  bundle = join(dir, 'cli.js');
  return bundle;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function hooksmith(args: string[], cwd = ROOT): CliRun {
  const r = spawnSync(process.execPath, [cliBundle(), ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
