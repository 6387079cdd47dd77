// Positions are LSP positions: 0-based line, UTF-16 code units. A non-ASCII character
// before a token on the same line must shift it by its UTF-16 length (é: 1, 😀: 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelOf, fn } from './helpers';

test('é before a token shifts it by one UTF-16 unit', async () => {
  const m = await modelOf('s = "é"; import time\nasync def f(p):\n    x = "é"; time.sleep(1)\n');
  assert.deepEqual(m.imports[0]?.nameRange, {
    start: { line: 0, character: 16 },
    end: { line: 0, character: 20 },
  });
  const call = fn(m, 'f').body.calls[0];
  assert.deepEqual(call?.callee.range, {
    start: { line: 2, character: 13 },
    end: { line: 2, character: 23 },
  });
});

test('an emoji (surrogate pair) before a token shifts it by two', async () => {
  const src = 'async def f(p):\n    x = "😀😀"; raise RetryModel("é😀")\n';
  const m = await modelOf(src);
  const r = fn(m, 'f').body.raises[0];
  // "    x = \"😀😀\"; " is 4 + 5 + 4 (two surrogate pairs) + 3 = 16 UTF-16 units.
  assert.deepEqual(r?.range.start, { line: 1, character: 16 });
  const line = src.split('\n')[1] ?? '';
  assert.equal(line.slice(r?.range.start.character, r?.range.end.character), 'raise RetryModel("é😀")');
  assert.deepEqual(r?.call?.positional[0]?.value, { kind: 'string', value: 'é😀' });
});

test('non-ASCII identifiers and CRLF line endings', async () => {
  const m = await modelOf('import time\r\ndef café(naïve: int):\r\n    time.sleep(1)\r\n');
  const f = fn(m, 'café');
  assert.deepEqual(f.nameRange, { start: { line: 1, character: 4 }, end: { line: 1, character: 8 } });
  assert.deepEqual(f.parameters[0]?.nameRange, {
    start: { line: 1, character: 9 },
    end: { line: 1, character: 14 },
  });
  assert.deepEqual(f.body.calls[0]?.range, {
    start: { line: 2, character: 4 },
    end: { line: 2, character: 17 },
  });
  assert.equal(m.lineCount, 3);
});

test('CRLF: a range ending in a comment stops before the \\r', async () => {
  const text =
    'from rasa.mantle.hooks import on_turn_started\r\n@on_turn_started  #\r\nasync def f(p) -> None:\r\n    return None  # done\r\n';
  const m = await modelOf(text);
  const f = fn(m, 'f');
  assert.deepEqual(f.decorators[0]?.range, {
    start: { line: 1, character: 0 },
    end: { line: 1, character: 16 },
  });
  assert.deepEqual(f.range.end, { line: 3, character: 23 }, 'the function ends before the \\r');
});

test('lone CR ends a line, as for LSP and CPython', async () => {
  const text =
    '\rfrom rasa.mantle.hooks import on_turn_started\r\r@on_turn_started()\rdef f(p) -> None:\r    return None\r';
  const m = await modelOf(text);
  const f = fn(m, 'f');
  assert.equal(m.syntaxErrors.length, 0);
  assert.deepEqual(m.imports[0]?.nameRange, {
    start: { line: 1, character: 30 },
    end: { line: 1, character: 45 },
  });
  assert.deepEqual(f.nameRange, { start: { line: 4, character: 4 }, end: { line: 4, character: 5 } });
  assert.deepEqual(f.body.returns[0]?.range, {
    start: { line: 5, character: 4 },
    end: { line: 5, character: 15 },
  });
  const broken = await modelOf('x = 1\rdef g(:\r');
  assert.equal(broken.syntaxErrors[0]?.range.start.line, 1);
});
