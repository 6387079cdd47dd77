// Real python3: CPython's compile() confirms syntax that tree-sitter accepts or misjudges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CpythonSyntaxChecker,
  checkSyntaxMany,
  withVerdict,
  type CpythonOptions,
} from '../../../runtime/cpython/syntax-checker';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modelOf } from '../python/helpers';

const checkSyntax = async (text: string, path: string, opts: CpythonOptions = {}) =>
  (await checkSyntaxMany([{ path, text }], opts))[0];

test('CPython rejects code tree-sitter accepts: non-default argument after default', async () => {
  const src = 'def f(a=1, b): ...\n';
  assert.equal((await modelOf(src)).syntaxErrors.length, 0, 'tree-sitter accepts it');
  const issue = await checkSyntax(src, 'hooks.py');
  assert.ok(issue, 'CPython rejects it');
  assert.equal(issue.source, 'cpython');
  assert.match(issue.message, /default argument/);
  assert.deepEqual(issue.range.start, { line: 0, character: 11 });
});

test('CPython messages and LSP positions (UTF-16, after non-ASCII)', async () => {
  const files = [
    { path: 'ok.py', text: 'import time\nasync def f(p):\n    return p\n' },
    { path: 'colon.py', text: 'def f(x)\n    return 1\n' },
    { path: 'indent.py', text: 'def f():\nreturn 1\n' },
    { path: 'string.py', text: 's = "é😀"; x = "abc\n' },
    { path: 'paren.py', text: 'x = (1,\ny = 2\n' },
    { path: 'nul.py', text: 'x = 1\ny = "\0"\n' },
    // A U+FEFF left in the text is a second byte-order mark (the file's own is not in the text):
    // CPython fails it as it fails `import` of such a file.
    { path: 'bom.py', text: '\ufeffx = 1\n' },
  ];
  const [ok, colon, indent, str, paren, nul, bom] = await checkSyntaxMany(files);
  assert.equal(ok, null);
  assert.equal(colon?.message, "expected ':'");
  assert.deepEqual(colon?.range.start, { line: 0, character: 8 });
  assert.match(indent?.message ?? '', /^expected an indented block after function definition on line 1/);
  assert.deepEqual(indent?.range.start, { line: 1, character: 0 });
  assert.match(str?.message ?? '', /^unterminated string literal \(detected at line 1\)/);
  // `s = "é😀"; x = ` : é is 1 UTF-16 unit, 😀 is 2 → the quote is at 15.
  assert.deepEqual(str?.range.start, { line: 0, character: 15 });
  assert.equal(paren?.message, "'(' was never closed");
  assert.deepEqual(paren?.range.start, { line: 0, character: 4 });
  assert.match(nul?.message ?? '', /null bytes/);
  assert.equal(nul?.range.start.line, 1);
  assert.match(bom?.message ?? '', /U\+FEFF/);
  assert.deepEqual(bom?.range.start, { line: 0, character: 0 });
});

test('one process answers 1,000 sources', async () => {
  const files = Array.from({ length: 1000 }, (_, i) => ({
    path: `m${i}.py`,
    text: i % 100 === 7 ? 'def f(:\n' : `x = ${i}\n`,
  }));
  const t0 = Date.now();
  const r = await checkSyntaxMany(files);
  const ms = Date.now() - t0;
  assert.equal(r.length, 1000);
  assert.equal(r.filter((x) => x).length, 10);
  assert.ok(r[7] && r[8] === null);
  assert.ok(ms < 10_000, `took ${ms} ms`);
});

test('a long-lived checker answers one request per call and survives being killed', async () => {
  const c = new CpythonSyntaxChecker();
  try {
    assert.equal(await c.check('x = 1\n', 'a.py'), null);
    assert.ok(c.version?.startsWith('3.'));
    assert.ok(await c.check('x = = 1\n', 'a.py'));
    c.close();
    assert.equal(await c.check('y = 2\n', 'a.py'), null, 'restarts after close');
  } finally {
    c.close();
  }
});

test('an interpreter that stops answering times out with no verdict', async () => {
  // A stand-in interpreter: says it is ready, then never answers.
  const dir = mkdtempSync(join(tmpdir(), 'hs-fakepy-'));
  const fake = join(dir, 'python3');
  writeFileSync(fake, '#!/bin/sh\necho \'{"ready": true, "version": "3.99.0"}\'\nexec sleep 30\n', {
    mode: 0o755,
  });
  const c = new CpythonSyntaxChecker({ timeoutMs: 300, python: fake, log: () => undefined });
  try {
    const t0 = Date.now();
    assert.deepEqual(
      await Promise.all(
        c.checkEach([
          { path: 'a.py', text: 'x = 1\n' },
          { path: 'b.py', text: 'y\n' },
        ]),
      ),
      [undefined, undefined],
    );
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(c.unavailableReason, undefined, 'a timeout is not unavailability: the next call restarts');
  } finally {
    c.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an interpreter that is not Python is reported unavailable', async () => {
  const logs: string[] = [];
  const c = new CpythonSyntaxChecker({ python: process.execPath, log: (m) => logs.push(m) });
  assert.equal(await c.check('x = 1\n', 'a.py'), undefined);
  assert.ok(c.unavailableReason);
  assert.equal(logs.length, 1);
  c.close();
});

test('no python3: undefined verdicts, the reason logged once, tree-sitter errors kept', async () => {
  const logs: string[] = [];
  const opts = { python: '/nonexistent/python3', log: (m: string) => logs.push(m) };
  assert.deepEqual(await checkSyntaxMany([{ path: 'a.py', text: 'def f(:\n' }], opts), [undefined]);
  assert.equal(await checkSyntax('x', 'a.py', opts), undefined);
  assert.equal(logs.length, 1);
  assert.match(logs[0] ?? '', /nonexistent/);
  const model = await modelOf('def f(:\n');
  assert.equal(withVerdict(model, undefined), model);
  assert.deepEqual(withVerdict(model, null).syntaxErrors, []);
});

test('a checker closed while python3 is still starting says nothing and can start again', async () => {
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

test('end(): python3 answers what it was sent, then exits and is waited for', async () => {
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
