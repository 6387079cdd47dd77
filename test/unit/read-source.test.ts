// Reading sources for the check: bytes plus the fstat CPython compares against, and discovery's
// first look at a file kept for the check so that it is opened once.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeptReadsFs, readSourceFile } from '../../runtime/analysis/read-source';
import { discover, isCayuCandidate } from '../../runtime/discovery';
import { analyseFiles } from '../../runtime/analysis/files';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'hs-readsrc-'));
  mkdirSync(join(root, 'agent', 'hooks'), { recursive: true });
  mkdirSync(join(root, 'agent', 'lib'));
  writeFileSync(
    join(root, 'agent', 'hooks', 'a.py'),
    'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started()\ndef a(payload):\n    return None\n',
  );
  writeFileSync(join(root, 'agent', 'lib', 'util.py'), 'x = 1\n');
  writeFileSync(
    join(root, 'agent', 'lib', 'cayu.py'),
    'from cayu.observability import RuntimeHook\n\nclass H(RuntimeHook):\n    pass\n',
  );
});
after(() => rmSync(root, { recursive: true, force: true }));

it('readSourceFile: the bytes and the size and mtime they were read at', () => {
  const file = join(root, 'agent', 'lib', 'util.py');
  const r = readSourceFile(file);
  assert.equal(Buffer.from(r.bytes).toString(), 'x = 1\n');
  const st = statSync(file, { bigint: true });
  assert.deepEqual(r.disk, { size: 6, mtimeNs: st.mtimeNs.toString() });
  assert.equal(readSourceFile(file, 5), undefined, 'over the limit: nothing read');
  assert.throws(() => readSourceFile(join(root, 'nope.py')));
});

it('KeptReadsFs: what discovery looked at is handed to the check once; other Python is not kept', () => {
  const disk = new KeptReadsFs();
  const found = discover([join(root, 'agent')], disk);
  assert.deepEqual(found.agents[0]!.cayuModules, [join(root, 'agent', 'lib', 'cayu.py')]);
  const a = disk.take(join(root, 'agent', 'hooks', 'a.py'));
  assert.match(Buffer.from(a!.bytes).toString(), /def a\(payload\)/);
  assert.ok(a!.disk);
  assert.equal(disk.take(join(root, 'agent', 'hooks', 'a.py')), undefined, 'once');
  assert.ok(disk.take(join(root, 'agent', 'lib', 'cayu.py')));
  assert.equal(
    disk.take(join(root, 'agent', 'lib', 'util.py')),
    undefined,
    'neither Mantle nor Cayu: dropped',
  );
});

it('a check from disk gives what a check through readBytes gives', async () => {
  const { readFileSync } = await import('node:fs');
  const disk = await analyseFiles([root], { workers: 0 });
  const bytes = await analyseFiles([root], { workers: 0, readBytes: (f) => readFileSync(f) });
  assert.deepEqual([...disk.diagnostics], [...bytes.diagnostics]);
  assert.ok(
    disk.diagnostics.get(join(root, 'agent', 'hooks', 'a.py'))?.some((d) => d.code === 'sync-handler'),
  );
  assert.ok(disk.diagnostics.has(join(root, 'agent', 'lib', 'cayu.py')));
});

it('KeptReadsFs.cayuCandidate searches the bytes as isCayuCandidate searches head(): whole word, first 256 KiB', () => {
  const dir = join(root, 'marks');
  mkdirSync(dir, { recursive: true });
  const cases: [string, string | Buffer][] = [
    ['plain.py', 'class H(RuntimeHook):\n    pass\n'],
    ['start.py', 'RuntimeHook = object\n'],
    ['end.py', 'x = 1\n# RuntimeHook'],
    ['prefixed.py', 'class MyRuntimeHook:\n    pass\n'],
    ['suffixed.py', 'RuntimeHooks = []\n'],
    ['underscore.py', '_RuntimeHook = 1\n'],
    ['second.py', 'MyRuntimeHook = 1\nfrom cayu.observability import RuntimeHook\n'],
    ['latin1.py', Buffer.concat([Buffer.from([0xe9]), Buffer.from('RuntimeHook\xe9 = 1\n', 'latin1')])],
    ['far.py', 'x = 1\n'.repeat(50_000) + 'RuntimeHook\n'],
    ['none.py', 'x = 1\n'],
  ];
  for (const [name, text] of cases) writeFileSync(join(dir, name), text);
  const disk = new KeptReadsFs();
  for (const [name] of cases) {
    const file = join(dir, name);
    assert.equal(disk.cayuCandidate(file), isCayuCandidate(new KeptReadsFs().head(file)), name);
  }
  assert.deepEqual(
    cases.map(([name]) => name).filter((name) => disk.cayuCandidate(join(dir, name))),
    ['plain.py', 'start.py', 'end.py', 'second.py', 'latin1.py'],
  );
  assert.equal(disk.cayuCandidate(join(dir, 'missing.py')), false);
});
