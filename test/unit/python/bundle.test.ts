// The parser works when bundled: esbuild with scripts/build.mjs's options (CommonJS build of
// web-tree-sitter), the WASM files beside the bundle, run by a plain `node` with no node_modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const root = join(__dirname, '..', '..', '..');

test('a bundled consumer finds the WASM files beside it and parses', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hs-bundle-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { initParser, parse, buildModel } from ${JSON.stringify(join(root, 'runtime/python'))};
       initParser().then(() => {
         const src = 'import time\\nasync def f(p):\\n    time.sleep(1)\\n';
         const t = parse(src);
         const m = buildModel(t, src, 'x.py');
         t.delete();
         process.stdout.write(JSON.stringify(m.functions[0].body.calls[0].callee));
       });`,
    );
    const out = join(dir, 'dist');
    await esbuild.build({
      entryPoints: { probe: entry },
      outdir: out,
      bundle: true,
      platform: 'node',
      target: 'node18',
      format: 'cjs',
      mainFields: ['main', 'module'],
      conditions: ['require', 'node'],
      logLevel: 'error',
    });
    copyFileSync(join(root, 'node_modules/web-tree-sitter/tree-sitter.wasm'), join(out, 'tree-sitter.wasm'));
    copyFileSync(
      join(root, 'node_modules/tree-sitter-python/tree-sitter-python.wasm'),
      join(out, 'tree-sitter-python.wasm'),
    );
    // Run from the temp dir so no node_modules can be found by require.resolve.
    const r = spawnSync(process.execPath, [join(out, 'probe.js')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      text: 'time.sleep',
      qualified: 'time.sleep',
      range: { start: { line: 2, character: 4 }, end: { line: 2, character: 14 } },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
