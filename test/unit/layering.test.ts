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
    'engine/model-step.ts',
    'engine/scenario-schema.ts',
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

// The players (runtime/engine/player.ts): each subfolder of runtime/engine/ is one player's room
// (emulation/, cayu-real/, …). The walls come from the folders, not from a list: a player never
// reaches into another, and outside its room only players.ts (the one choice) imports it, through
// its face (index.ts). Every room is registered there.
const ENGINE = join(ROOT, 'engine');

function playerRooms(): string[] {
  return readdirSync(ENGINE, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The engine-relative module each relative import of `file` names, e.g. "cayu-real/play". */
function engineImports(file: string): string[] {
  return relativeImports(readFileSync(file, 'utf8')).map((s) => relative(ENGINE, resolve(dirname(file), s)));
}

const roomOf = (engineRelative: string): string | undefined =>
  engineRelative.includes('/') && !engineRelative.startsWith('..') ? engineRelative.split('/')[0] : undefined;

test('the player rooms are the folders of runtime/engine/, each with a face, all registered in players.ts', () => {
  const rooms = playerRooms();
  assert.ok(rooms.includes('emulation') && rooms.includes('cayu-real'), `rooms: ${rooms.join(', ')}`);
  const registered = engineImports(join(ENGINE, 'players.ts'))
    .map((t) => t.replace(/\/index$/, ''))
    .filter((t) => rooms.includes(t));
  assert.deepEqual([...new Set(registered)].sort(), rooms);
  for (const room of rooms)
    assert.ok(
      tsFiles(join(ENGINE, room)).some((f) => f.endsWith('/index.ts')),
      room,
    );
});

test('no player imports another, and outside the rooms only players.ts imports one (through its face)', () => {
  const rooms = playerRooms();
  assert.ok(
    tsFiles(join(ENGINE, 'cayu-real')).length >= 4 && tsFiles(join(ENGINE, 'emulation')).length >= 10,
  );
  const repo = resolve(ROOT, '..');
  const crossing: string[] = [];
  for (const dir of ['runtime', 'server', 'client', 'bench', 'scripts'])
    for (const file of tsFiles(join(repo, dir))) {
      const from = roomOf(relative(ENGINE, file));
      for (const target of engineImports(file)) {
        const to = roomOf(target);
        if (!to || !rooms.includes(to) || to === from) continue;
        const face = target === to || target === `${to}/index`;
        const chooser = relative(ENGINE, file) === 'players.ts';
        if (from !== undefined || !chooser || !face)
          crossing.push(`${relative(repo, file)} → engine/${target}`);
      }
    }
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

test('roomOf names the player folder of an engine-relative path, none for engine/ files and outside', () => {
  assert.equal(roomOf('cayu-real/play'), 'cayu-real');
  assert.equal(roomOf('players'), undefined);
  assert.equal(roomOf('../catalogue/wiring'), undefined);
});
