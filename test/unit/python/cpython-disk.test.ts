// Real python3: a request that lets CPython read the file itself (SyntaxRequest.disk) gives the
// verdict and the LSP positions a request carrying the text gives, for every way a file can be
// encoded; and when the file is not the text we hold (changed, gone, not UTF-8) CPython asks for
// the text and judges that.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CpythonSyntaxChecker, type SyntaxRequest } from '../../../runtime/python/cpython-syntax';
import { decodeSource } from '../../../runtime/python/decode';
import { readSourceFile } from '../../../runtime/analysis/read-source';

const BOM = [0xef, 0xbb, 0xbf];
const enc = (s: string) => [...Buffer.from(s, 'utf8')];

/** name → bytes on disk. Errors sit after non-ASCII text so UTF-16 columns are exercised. */
const FILES: Record<string, number[]> = {
  'ok.py': enc('import time\nasync def f(p):\n    return "é😀"\n'),
  'colon.py': enc('s = "é😀"\ndef f(x)\n    return 1\n'),
  'string.py': enc('s = "é😀"; x = "abc\n'),
  'crlf.py': enc('x = "é"\r\ndef f(:\r\n    pass\r\n'),
  'lone-cr.py': enc('x = 1\rdef f(:\r'),
  'bom.py': [...BOM, ...enc('é = 1\ndef f(:\n')],
  'bom-ok.py': [...BOM, ...enc('x = "😀"\n')],
  'two-boms.py': [...BOM, ...BOM, ...enc('def f(:\n')],
  'bom-first-line-error.py': [...BOM, ...enc('x = (é\n')],
  'cookie-utf8.py': enc('# -*- coding: utf-8 -*-\nx = "é"\ndef f(:\n'),
  // Valid UTF-8 under a latin-1 declaration: we decode it as UTF-8 (decodeSource), so must CPython.
  'cookie-latin1-valid-utf8.py': enc('# -*- coding: latin-1 -*-\nx = "é"\nnäme = 1\n'),
  // Not UTF-8: CPython cannot take it from disk as we decoded it; it asks for the text.
  'cookie-latin1.py': [...enc('# -*- coding: latin-1 -*-\ns = "'), 0xe9, ...enc('"\ndef f(:\n')],
  'default-after-arg.py': enc('def f(a=1, b): ...\n'),
  'await-outside.py': enc('x = "é"\nawait y\n'),
  'empty.py': [],
};

describe('CPython reading the files itself', () => {
  let dir: string;
  let checker: CpythonSyntaxChecker;
  const requests: SyntaxRequest[] = [];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hs-cpydisk-'));
    for (const [name, bytes] of Object.entries(FILES)) {
      const path = join(dir, name);
      writeFileSync(path, Buffer.from(bytes));
      const read = readSourceFile(path);
      const decoded = decodeSource(read.bytes);
      assert.equal(decoded.issue, undefined, name);
      assert.ok(read.disk, name);
      requests.push({ path, text: decoded.text, disk: read.disk });
    }
    checker = new CpythonSyntaxChecker();
  });
  after(() => {
    checker.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the same verdicts and positions as the texts', async () => {
    const byText = await checker.checkMany(requests.map(({ path, text }) => ({ path, text })));
    const before = { ...checker.stats };
    const byDisk = await checker.checkMany(requests);
    assert.deepEqual(byDisk, byText);
    // Every file but the latin-1 one was compiled from disk.
    assert.equal(checker.stats.fromDisk - before.fromDisk, requests.length - 1);
    assert.equal(checker.stats.resent - before.resent, 1);
    const at = (name: string) => byDisk[Object.keys(FILES).indexOf(name)];
    assert.equal(at('ok.py'), null);
    assert.equal(at('bom-ok.py'), null);
    assert.equal(at('empty.py'), null);
    assert.equal(at('cookie-latin1-valid-utf8.py'), null);
    assert.deepEqual(at('colon.py')?.range.start, { line: 1, character: 8 });
    assert.deepEqual(at('string.py')?.range.start, { line: 0, character: 15 });
    assert.deepEqual(at('crlf.py')?.range.start, { line: 1, character: 6 });
    assert.deepEqual(at('lone-cr.py')?.range.start, { line: 1, character: 6 });
    // The BOM is not part of the text we analyse: columns as without it.
    assert.deepEqual(at('bom.py')?.range.start, { line: 1, character: 6 });
    assert.deepEqual(at('bom-first-line-error.py')?.range.start.line, 0);
    assert.deepEqual(at('cookie-latin1.py')?.range.start, { line: 2, character: 6 });
    assert.match(at('default-after-arg.py')?.message ?? '', /default argument/);
    assert.match(at('await-outside.py')?.message ?? '', /outside function/);
  });

  it('a file that changed since we read it: CPython judges the text we hold', async () => {
    const path = join(dir, 'changed.py');
    writeFileSync(path, 'x = 1\n');
    const read = readSourceFile(path);
    const text = decodeSource(read.bytes).text;
    writeFileSync(path, 'def f(:\n'); // another size
    const grown = join(dir, 'touched.py');
    writeFileSync(grown, 'y = 2\n');
    const touchedRead = readSourceFile(grown);
    writeFileSync(grown, 'z = (\n'); // same size, later mtime
    utimesSync(grown, new Date(), new Date(Date.now() + 5000));
    const gone = join(dir, 'gone.py');
    writeFileSync(gone, 'w = 3\n');
    const goneRead = readSourceFile(gone);
    unlinkSync(gone);
    const before = checker.stats.resent;
    const r = await checker.checkMany([
      { path, text, disk: read.disk },
      { path: grown, text: 'y = 2\n', disk: touchedRead.disk },
      { path: gone, text: 'w = 3\n', disk: goneRead.disk },
    ]);
    assert.deepEqual(r, [null, null, null]);
    assert.equal(checker.stats.resent - before, 3);
  });

  it('verdicts stream: checkEach settles each file on its own', async () => {
    const ps = checker.checkEach(requests.slice(0, 3));
    assert.equal(ps.length, 3);
    assert.equal(await ps[0], null);
    assert.ok(await ps[1]);
  });
});

it('a checker closed while python3 is still starting says nothing and can start again', async () => {
  const logs: string[] = [];
  const c = new CpythonSyntaxChecker({ log: (m) => logs.push(m) });
  c.warm();
  const pending = c.checkEach([{ path: 'a.py', text: 'x = 1\n' }]);
  c.close();
  assert.deepEqual(await Promise.all(pending), [undefined]);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(logs, []);
  assert.equal(c.unavailableReason, undefined);
  assert.equal(await c.check('def f(:\n', 'a.py').then((v) => v?.source), 'cpython');
  c.close();
});

it('end(): python3 answers what it was sent, then exits and is waited for', async () => {
  const c = new CpythonSyntaxChecker();
  const pending = c.checkEach([
    { path: 'a.py', text: 'x = 1\n' },
    { path: 'b.py', text: 'def f(:\n' },
  ]);
  const pid = c.pid;
  assert.ok(pid);
  const [a, b] = await Promise.all(pending);
  assert.equal(a, null);
  assert.ok(b);
  await c.end();
  assert.equal(c.pid, undefined);
  assert.throws(() => process.kill(pid!, 0), 'the process is gone');
  assert.equal(await c.check('y = 2\n', 'c.py'), null, 'starts again when asked');
  await c.end();
});
