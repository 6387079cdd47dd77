// runtime/python/text.ts: offsets ↔ LSP positions, with the last text's lines kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  lineStarts,
  lineText,
  offsetAt,
  positionAt,
  sliceRange,
  splitLines,
} from '../../../runtime/python/text';

test('positions: \\n, \\r\\n and lone \\r each end a line; positionAt inverts offsetAt', () => {
  const text = 'ab\r\ncd\ref\n\ngh';
  assert.deepEqual(lineStarts(text), [0, 4, 7, 10, 11]);
  assert.deepEqual(splitLines(text), ['ab', 'cd', 'ef', '', 'gh']);
  for (let offset = 0; offset <= text.length; offset++) {
    const p = positionAt(text, offset);
    const starts = lineStarts(text);
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
    assert.deepEqual(p, { line, character: offset - starts[line]! }, `offset ${offset}`);
    assert.equal(offsetAt(text, p), offset);
  }
  assert.deepEqual(positionAt(text, 99), { line: 4, character: 88 });
  assert.equal(offsetAt(text, { line: 9, character: 0 }), text.length);
  assert.equal(
    sliceRange(text, { start: { line: 1, character: 0 }, end: { line: 2, character: 2 } }),
    'cd\ref',
  );
  assert.equal(lineText(text, 2), 'ef');
  assert.equal(lineText(text, 7), '');
});

test('positions: answers follow the text asked about, not the last one kept', () => {
  const a = 'x\ny\nz';
  const b = 'one line';
  assert.equal(lineText(a, 1), 'y');
  assert.equal(lineText(b, 0), 'one line');
  assert.equal(lineText(a, 2), 'z');
  assert.deepEqual(positionAt(b, 4), { line: 0, character: 4 });
  assert.deepEqual(positionAt(a, 4), { line: 2, character: 0 });
  // Equal content in another string object: the same answers.
  const c = ['x', 'y', 'z'].join('\n');
  assert.deepEqual(lineStarts(c), [0, 2, 4]);
  assert.deepEqual(positionAt('', 0), { line: 0, character: 0 });
});
