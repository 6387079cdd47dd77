// Reading sources for the check: bytes plus the fstat CPython compares against, and discovery's
// first look at a file kept for the check so that it is opened once.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeptReadsFs, readSourceFile } from '../../runtime/analysis/read-source';
import { discover } from '../../runtime/discovery';
import { analyseFiles } from '../../runtime/analysis/files';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'hs-readsrc-'));
  mkdirSync(join(root, 'agent', 'hooks'), { recursive: true });
  mkdirSync(join(root, 'agent', 'lib'));
  writeFileSync(join(root, 'agent', 'hooks', 'a.py'), 'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started()\ndef a(payload):\n    return None\n');
  writeFileSync(join(root, 'agent', 'lib', 'util.py'), 'x = 1\n');
  writeFileSync(join(root, 'agent', 'lib', 'cayu.py'), 'from cayu.observability import RuntimeHook\n\nclass H(RuntimeHook):\n    pass\n');
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
  assert.equal(disk.take(join(root, 'agent', 'lib', 'util.py')), undefined, 'neither Mantle nor Cayu: dropped');
});

it('a check from disk gives what a check through readBytes gives', async () => {
  const { readFileSync } = await import('node:fs');
  const disk = await analyseFiles([root], { workers: 0 });
  const bytes = await analyseFiles([root], { workers: 0, readBytes: (f) => readFileSync(f) });
  assert.deepEqual([...disk.diagnostics], [...bytes.diagnostics]);
  assert.ok(disk.diagnostics.get(join(root, 'agent', 'hooks', 'a.py'))?.some((d) => d.code === 'sync-handler'));
  assert.ok(disk.diagnostics.has(join(root, 'agent', 'lib', 'cayu.py')));
});
