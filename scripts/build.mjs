// Bundles the extension, the language server and the CLI into dist/ with esbuild,
// and ships beside them what they load at run time: the tree-sitter WASM files, the Python
// host and CPython's syntax checker. `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const watch = process.argv.includes('--watch');
// `--bench`: also bundle bench/run.ts (dist/bench/run.js), so `npm run bench` times the code as
// it ships. Run from source through tsx, every cross-module call goes through esbuild's per-file
// CommonJS export getters: the model build runs much slower than in the bundles.
const bench = process.argv.includes('--bench');

const entries = [
  { in: 'client/extension.ts', out: 'extension', external: ['vscode'] },
  // dist/server.js answers `initialize`, then loads the main bundle (server/boot.ts).
  { in: 'server/boot.ts', out: 'server', external: [] },
  { in: 'server/server.ts', out: 'server-main', external: [] },
  // hooksmith.extraAgentRoots are walked on a worker thread (server/extra-roots.ts).
  { in: 'server/discover-worker.ts', out: 'discover-worker', external: [] },
  { in: 'runtime/cli/main.ts', out: 'cli', external: [] },
  // ruff's WebAssembly build (the bench's anchor row) reads its .wasm beside its own file.
  ...(bench ? [{ in: 'bench/run.ts', out: 'bench/run', external: ['@astral-sh/ruff-wasm-nodejs'] }] : []),
].filter((e) => existsSync(join(root, e.in)));

function copyAssets() {
  mkdirSync(dist, { recursive: true });
  // Grammar ABI 15: tree-sitter-python@0.25.0 needs web-tree-sitter >= 0.25 (pinned in package.json).
  cpSync(join(root, 'node_modules/web-tree-sitter/tree-sitter.wasm'), join(dist, 'tree-sitter.wasm'));
  cpSync(
    join(root, 'node_modules/tree-sitter-python/tree-sitter-python.wasm'),
    join(dist, 'tree-sitter-python.wasm'),
  );
  const host = join(root, 'runtime/host/python');
  if (existsSync(host)) {
    rmSync(join(dist, 'python'), { recursive: true, force: true });
    cpSync(host, join(dist, 'python'), { recursive: true, filter: (p) => !p.includes('__pycache__') });
  }
  // Run by python3 from beside the bundles (runtime/cpython/syntax-checker.ts).
  cpSync(join(root, 'runtime/cpython/syntax_checker.py'), join(dist, 'syntax_checker.py'));
  cpSync(join(root, 'runtime/cpython/environment_probe.py'), join(dist, 'environment_probe.py'));
  const schemas = join(root, 'schemas');
  if (existsSync(schemas)) cpSync(schemas, join(dist, 'schemas'), { recursive: true });
}

const contexts = await Promise.all(
  entries.map((e) =>
    esbuild.context({
      entryPoints: { [e.out]: join(root, e.in) },
      outdir: dist,
      bundle: true,
      platform: 'node',
      target: 'node18',
      format: 'cjs',
      sourcemap: true,
      // Whitespace and syntax minified: smaller bundles start faster and keep the .vsix small.
      // Identifiers are not, so stack traces and `fn.name` read as in the source without
      // esbuild's keepNames, which wraps each function it creates in a defineProperty call on a
      // hot path (the model build).
      minifyWhitespace: !watch,
      minifySyntax: !watch,
      external: e.external,
      // web-tree-sitter: take its CommonJS build, whose locateFile uses __dirname, not import.meta.url.
      mainFields: ['main', 'module'],
      conditions: ['require', 'node'],
      // esbuild still picks the package's "import" export for `import` statements; its ESM
      // build needs import.meta.url (empty in a CJS bundle), so point at the CJS file directly.
      alias: { 'web-tree-sitter': createRequire(import.meta.url).resolve('web-tree-sitter') },
      logLevel: 'warning',
    }),
  ),
);
copyAssets();
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[build] watching');
} else {
  const t0 = Date.now();
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  console.log(`[build] ${entries.map((e) => e.out).join(', ')} → dist/ in ${Date.now() - t0} ms`);
}
