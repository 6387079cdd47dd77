// The layer order of runtime/README.md: a lower folder never imports a higher one, and every
// source file lives in a folder that says what it is (no loose .ts file in runtime/).
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '..', '..', 'runtime');

/** The one statement of the order: the `layers:` line of runtime/README.md. */
function layerOrder(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = /^layers: (.+)$/m.exec(readme);
  assert.ok(line, 'runtime/README.md has a "layers: a, b, …" line');
  return line[1]!.split(',').map((s) => s.trim());
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return tsFiles(path);
    return d.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative specifier a TypeScript file imports, re-exports or requires. */
function relativeImports(source: string): string[] {
  const found = source.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g,
  );
  return [...found].map((m) => m[1]!);
}

test('relativeImports sees import, export-from, side-effect, dynamic import and require', () => {
  const src = [
    "import type { A } from '../a';",
    "export { B } from './b';",
    "import '../c';",
    "const d = await import('../d');",
    "const e = require('../e');",
    'import {\n  F,\n} from "../f";',
  ].join('\n');
  assert.deepEqual(relativeImports(src), ['../a', './b', '../c', '../d', '../e', '../f']);
});

test('every runtime/ folder is in the layer order, and the order names only folders', () => {
  const order = layerOrder();
  const folders = readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  assert.deepEqual([...folders].sort(), [...order].sort());
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const f of folders) assert.match(readme, new RegExp(`^- \`${f}/\` — `, 'm'), `index line for ${f}/`);
});

test('no loose .ts file directly in runtime/', () => {
  const loose = readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts'))
    .map((d) => d.name);
  assert.deepEqual(loose, []);
});

test('no runtime/ folder imports a higher one', () => {
  const order = layerOrder();
  const files = tsFiles(ROOT);
  assert.ok(files.length > 50, `runtime/ sources found: ${files.length}`);
  const upward: string[] = [];
  for (const file of files) {
    const from = relative(ROOT, file).split('/')[0]!;
    for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
      const target = relative(ROOT, resolve(dirname(file), spec));
      if (target.startsWith('..')) continue; // package.json and the like: outside the layers
      const to = target.split('/')[0]!;
      if (order.indexOf(to) > order.indexOf(from)) upward.push(`${relative(ROOT, file)} → ${spec}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('models/ imports only json/; in engine/ only the model step and the scenario schema import models/, and the editor settings its config', () => {
  const importsOf = (file: string) =>
    relativeImports(readFileSync(file, 'utf8')).map((s) => relative(ROOT, resolve(dirname(file), s)));
  for (const file of tsFiles(join(ROOT, 'models')))
    assert.deepEqual(
      importsOf(file).filter((t) => !/^(json|models)\//.test(t) && !/^(json|models)$/.test(t)),
      [],
      `${relative(ROOT, file)} imports only json/ and models/`,
    );
  const callers = tsFiles(ROOT)
    .filter((f) => importsOf(f).some((t) => t === 'models' || t.startsWith('models/')))
    .map((f) => relative(ROOT, f))
    .filter((f) => !f.startsWith('models/'))
    .sort();
  assert.deepEqual(callers, [
    'cli/model-options.ts',
    'engine/scenario-schema.ts',
    'engine/sim-model.ts',
    'lsp/shared.ts', // hooksmith.model: the scenario's model: schema
  ]);
});

test('coverage has one room: runtime/testing/coverage/, imported only from testing/, cli/ and the client; one Python module imports coverage.py', () => {
  const repo = resolve(ROOT, '..');
  const outside: string[] = [];
  for (const dir of ['runtime', 'server', 'client']) {
    for (const file of tsFiles(join(repo, dir))) {
      const at = relative(repo, file);
      if (at.startsWith('runtime/testing/') || at.startsWith('runtime/cli/') || at.startsWith('client/'))
        continue;
      for (const spec of relativeImports(readFileSync(file, 'utf8')))
        if (relative(repo, resolve(dirname(file), spec)).startsWith('runtime/testing/coverage'))
          outside.push(`${at} → ${spec}`);
    }
  }
  assert.deepEqual(outside, []);
  const python = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? python(join(dir, d.name)) : d.name.endsWith('.py') ? [join(dir, d.name)] : [],
    );
  const importers = python(join(repo, 'runtime'))
    .filter((f) => /^\s*(?:import coverage\b|from coverage[\s.])/m.test(readFileSync(f, 'utf8')))
    .map((f) => relative(repo, f));
  assert.deepEqual(importers, ['runtime/host/python/_hooksmith_host/coverage.py']);
});

// Real-engine mode has a room of its own (runtime/engine/cayu-real/, host cayu_real.py): the
// installed Cayu runtime and Hooksmith's emulation never reach into each other; only the runner's
// dispatch (cayu-real/dispatch.ts, called by runner.ts) chooses which plays.
const ENGINE = join(ROOT, 'engine');
const EMULATION = ['sim-cayu', 'sim-session', 'sim-dispatch', 'simulator', 'cayu-outcome', 'cayu-context'];

function engineImports(file: string): string[] {
  return relativeImports(readFileSync(file, 'utf8')).map((s) => relative(ENGINE, resolve(dirname(file), s)));
}

test('the real Cayu driver does not import the emulation, and the emulation does not import it', () => {
  const real = tsFiles(join(ENGINE, 'cayu-real'));
  assert.ok(real.length >= 4, `cayu-real sources: ${real.length}`);
  const crossing: string[] = [];
  for (const file of real)
    for (const target of engineImports(file))
      if (EMULATION.includes(target)) crossing.push(`${relative(ENGINE, file)} → ${target}`);
  for (const file of tsFiles(ENGINE).filter((f) => !f.includes(`${join('engine', 'cayu-real')}`)))
    for (const target of engineImports(file))
      if (target.startsWith('cayu-real/') && relative(ENGINE, file) !== 'runner.ts')
        crossing.push(`${relative(ENGINE, file)} → ${target}`);
  assert.deepEqual(crossing, []);
  const py = join(ROOT, 'host', 'python', '_hooksmith_host');
  assert.doesNotMatch(
    readFileSync(join(py, 'cayu_real.py'), 'utf8'),
    /^\s*(from|import)\b[^\n]*\bcayu_call\b/m,
  );
  assert.doesNotMatch(
    readFileSync(join(py, 'cayu_call.py'), 'utf8'),
    /^\s*(from|import)\b[^\n]*\bcayu_real\b/m,
  );
});
