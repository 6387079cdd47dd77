// Hostile input never throws and stays fast: binary, NUL bytes, huge lines, deep nesting,
// unterminated strings, invalid UTF-8.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSource } from '../../../runtime/python/decode';
import { fn, modelOf } from './helpers';

function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  return f().then((value) => ({ value, ms: performance.now() - t0 }));
}

test('binary bytes: decodeSource refuses them; parsing their lossy text does not throw', async () => {
  let seed = 42;
  const bytes = new Uint8Array(16 * 1024).map(() => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
  const d = decodeSource(bytes);
  assert.equal(d.binary, true);
  assert.equal(d.text, '');
  assert.ok(d.issue);
  const lossy = new TextDecoder().decode(bytes);
  const m = await modelOf(lossy);
  assert.equal(m.syntaxErrors.length, 1);
});

test('NUL bytes in text: a model with a syntax error, no throw', async () => {
  const m = await modelOf('import time\nx = 1\0\nasync def f(p):\n    return p\n');
  assert.equal(m.imports[0]?.localName, 'time');
  assert.ok(m.syntaxErrors.length <= 1);
  const d = decodeSource(Buffer.from('x = 1\ny = "\0"\n'));
  assert.equal(d.binary, true);
  assert.match(d.issue?.message ?? '', /null bytes/);
  assert.deepEqual(d.issue?.range.start, { line: 1, character: 5 });
});

test('a 1 MB line parses in reasonable time', async () => {
  const src =
    'import time\nx = "' +
    'a'.repeat(1 << 20) +
    '"\ny = [' +
    '1, '.repeat(100_000) +
    ']\nasync def f(p):\n    time.sleep(1)\n';
  const { value: m, ms } = await timed(() => modelOf(src));
  assert.equal(m.syntaxErrors.length, 0);
  assert.equal(fn(m, 'f').body.calls[0]?.callee.qualified, 'time.sleep');
  assert.ok(ms < 5000, `${ms} ms`);
});

test('5,000 nested parentheses, calls, lists and ifs: no stack overflow', async () => {
  const n = 5000;
  const parens = 'x = ' + '('.repeat(n) + '1' + ')'.repeat(n) + '\n';
  const calls = 'async def f(p):\n    return ' + 'g('.repeat(n) + '1' + ')'.repeat(n) + '\n';
  const lists = 'async def h(p):\n    p.model_copy(update={"k": ' + '['.repeat(n) + ']'.repeat(n) + '})\n';
  let ifs = 'async def k(p):\n';
  for (let i = 0; i < n; i++) ifs += ' '.repeat(4 * (i + 1)) + 'if p:\n';
  ifs += ' '.repeat(4 * (n + 1)) + 'return 1\n';
  for (const src of [parens, calls, lists, ifs]) {
    const { value: m, ms } = await timed(() => modelOf(src));
    assert.ok(ms < 10_000, `${ms} ms`);
    assert.ok(Array.isArray(m.syntaxErrors));
  }
  const m = await modelOf(calls);
  assert.equal(fn(m, 'f').body.calls.length, n);
  const mk = await modelOf(ifs);
  assert.deepEqual(
    mk.syntaxErrors.map((e) => e.message),
    ['too many levels of indentation'],
  );
  const mh = await modelOf(lists);
  const v = fn(mh, 'h').body.modelCopies[0]?.updateEntries?.[0]?.value;
  assert.ok(v && (v.kind === 'list' || v.kind === 'other'), 'deep literals are cut off, not recursed into');
});

test('indentation: 98 nested ifs are modelled, 99 are refused like CPython does', async () => {
  const mk = (n: number) => {
    let s = 'async def k(p):\n';
    for (let i = 0; i < n; i++) s += ' '.repeat(i + 1) + 'if p:\n';
    return s + ' '.repeat(n + 1) + 'return 1\n';
  };
  const ok = await modelOf(mk(98));
  assert.deepEqual(ok.syntaxErrors, []);
  assert.equal(fn(ok, 'k').body.returns.length, 1);
  const deep = await modelOf(mk(99));
  assert.deepEqual(
    deep.syntaxErrors.map((e) => [e.message, e.range.start.line]),
    [['too many levels of indentation', 100]],
  );
  assert.deepEqual(deep.functions, []);
});

test('unterminated strings: the first error says so, at the opening quote', async () => {
  const a = await modelOf('import time\nx = "abc\ny = 2\n');
  assert.equal(a.syntaxErrors.length, 1);
  assert.equal(a.syntaxErrors[0]?.message, 'unterminated string literal (detected at line 2)');
  assert.deepEqual(a.syntaxErrors[0]?.range.start, { line: 1, character: 4 });
  assert.equal(a.imports[0]?.localName, 'time', 'the rest of the module is still modelled');
  const b = await modelOf('x = """abc\n\ndef f(): pass\n');
  assert.match(b.syntaxErrors[0]?.message ?? '', /^unterminated triple-quoted string literal/);
  assert.deepEqual(b.syntaxErrors[0]?.range.start, { line: 0, character: 4 });
});

test('invalid UTF-8: a clear issue at the first bad byte; declared encodings are honoured', () => {
  const bad = decodeSource(
    Buffer.concat([Buffer.from('x = 1\ny = "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]),
  );
  assert.equal(bad.binary, false);
  assert.match(bad.issue?.message ?? '', /^Non-UTF-8 code starting with '\\xe9' on line 2/);
  assert.deepEqual(bad.issue?.range.start, { line: 1, character: 8 });
  assert.ok(bad.text.includes('\ufffd'));
  const latin = decodeSource(
    Buffer.concat([
      Buffer.from('# -*- coding: latin-1 -*-\ny = "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\n'),
    ]),
  );
  assert.equal(latin.issue, undefined);
  assert.ok(latin.text.includes('café'));
  const bom = decodeSource(Buffer.from('\ufeffx = "é"\n'));
  assert.deepEqual([bom.text, bom.issue, bom.binary], ['x = "é"\n', undefined, false]);
  const utf16 = decodeSource(Buffer.from('\ufeffx = 1\n', 'utf16le'));
  assert.equal(utf16.binary, true);
  assert.match(utf16.issue?.message ?? '', /UTF-16/);
  const truncated = decodeSource(Buffer.from([0x78, 0x3d, 0xe2, 0x82]));
  assert.deepEqual(truncated.issue?.range.start, { line: 0, character: 2 });
  assert.deepEqual(decodeSource(new Uint8Array(0)), { text: '', binary: false });
});

test('syntax errors: the first real error with CPython-like wording', async () => {
  const cases: [string, string, { line: number; character: number }][] = [
    ['def f(x)\n    return 1\n', "expected ':'", { line: 0, character: 8 }],
    ['if x\n  pass\n', "expected ':'", { line: 0, character: 4 }],
    ['x = (1,\ny = 2\n', "'(' was never closed", { line: 0, character: 4 }],
    ['import time\nclass A(:\n  pass\ndef g(:\n', 'invalid syntax', { line: 1, character: 7 }],
  ];
  for (const [src, message, start] of cases) {
    const m = await modelOf(src);
    assert.equal(m.syntaxErrors.length, 1, src);
    assert.equal(m.syntaxErrors[0]?.message, message, src);
    assert.deepEqual(m.syntaxErrors[0]?.range.start, start, src);
    assert.equal(m.syntaxErrors[0]?.source, 'tree-sitter');
  }
});

// Found by fuzz-rules: `\x`, `\u`, `\U` with no hex digits after them (half-typed) and an
// out-of-range `\U` made String.fromCodePoint throw while reading string literals.
test('half-typed and out-of-range escapes in string literals do not throw and stay as written', async () => {
  const m = await modelOf(
    'from x import y\n\n@y(a="\\x", b="\\u12", c="\\UFFFFFFFF", d="\\x41\\u00e9\\101")\nasync def h(p):\n    pass\n',
  );
  const kw = m.functions[0]!.decorators[0]!.call!.keywords;
  const values = kw.map((k) => (k.value.kind === 'string' ? k.value.value : undefined));
  assert.deepEqual(values, ['\\x', '\\u12', '\\UFFFFFFFF', 'Aé\x41']);
});

test('a parse over its time budget gives the empty stand-in tree and says why', async () => {
  const { initParser, parse, substituteReason, buildModel } = await import('../../../runtime/python');
  await initParser();
  const { hookModuleSource } = await import('../../../bench/generate');
  const text = hookModuleSource(3000);
  const tree = parse(text, null, { timeoutMs: 0.01 });
  try {
    assert.match(substituteReason(tree)?.message ?? '', /too complex to analyse: parsing took over/);
    const m = buildModel(tree, text, 'hooks.py');
    assert.equal(m.functions.length, 0);
    assert.match(m.syntaxErrors[0]?.message ?? '', /too complex/);
  } finally {
    tree.delete();
  }
  // The parser is usable afterwards.
  const again = parse(text);
  assert.equal(substituteReason(again), undefined);
  assert.ok(again.rootNode.namedChildCount > 100);
  again.delete();
});
