// The server's buffer (ParsedText) under incremental edits gives the same text and model as a
// fresh parse of the same text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { buildModel, initParser, parse } from '../../runtime/python';
import type { HookModule, Range } from '../../runtime/python/model';
import { offsetAt } from '../../runtime/python/text';
import { ParsedText } from '../../server/parsed-text';

/** A ParsedText with the model of its current tree, as the server's analyser builds it. */
class Doc {
  private readonly parsed: ParsedText;
  private version = 1;
  constructor(text: string) {
    this.parsed = new ParsedText('file:///hooks.py', this.version, text);
  }
  get text(): string {
    return this.parsed.text;
  }
  get model(): HookModule {
    return buildModel(this.parsed.tree(), this.parsed.text, 'hooks.py');
  }
  applyChanges(changes: TextDocumentContentChangeEvent[]): void {
    this.parsed.update(changes, ++this.version);
  }
  dispose(): void {
    this.parsed.dispose();
  }
}

const BASE = [
  'from rasa.mantle.hooks import modify_tool_call, RetryModel',
  '# café 😀 comment',
  '@modify_tool_call(timeout_ms=2000)',
  'async def guard(payload):',
  '    if payload.name == "é😀":',
  '        raise RetryModel("no")',
  '    return payload',
  '',
].join('\n');

function fresh(text: string) {
  const t = parse(text);
  try {
    return buildModel(t, text, 'hooks.py');
  } finally {
    t.delete();
  }
}

function at(text: string, needle: string, nth = 0): Range['start'] {
  let idx = -1;
  for (let i = 0; i <= nth; i++) idx = text.indexOf(needle, idx + 1);
  const before = text.slice(0, idx).split('\n');
  return { line: before.length - 1, character: (before[before.length - 1] ?? '').length };
}

test('incremental edits give the same text and model as a fresh parse', async () => {
  await initParser();
  const doc = new Doc(BASE);
  try {
    const steps: { range: Range; text: string }[] = [];
    // Rename after non-ASCII on the same line; insert lines; delete a range; type char by char.
    const p1 = at(BASE, 'name ==');
    steps.push({ range: { start: p1, end: { ...p1, character: p1.character + 4 } }, text: 'tool_name' });
    doc.applyChanges([steps[0] as { range: Range; text: string }]);
    let expected = BASE.replace('payload.name ==', 'payload.tool_name ==');
    assert.equal(doc.text, expected);
    assert.deepEqual(doc.model, fresh(expected));

    const p2 = at(expected, '    return payload');
    doc.applyChanges([{ range: { start: p2, end: p2 }, text: '    import time\n    time.sleep(1)  # 😀\n' }]);
    expected = expected.replace(
      '    return payload',
      '    import time\n    time.sleep(1)  # 😀\n    return payload',
    );
    assert.equal(doc.text, expected);
    assert.deepEqual(doc.model, fresh(expected));
    assert.equal(
      doc.model.functions[0]?.body.calls.some((c) => c.callee.qualified === 'time.sleep'),
      true,
    );

    // Type `async def other(p): ...` at the end one character at a time, checking each step.
    const tail = 'async def other(p): ...\n';
    for (const ch of tail) {
      const end = at(doc.text + '\u0000', '\u0000');
      doc.applyChanges([{ range: { start: end, end }, text: ch }]);
      expected += ch;
      assert.deepEqual(doc.model, fresh(expected));
    }
    assert.deepEqual(
      doc.model.functions.map((f) => f.name),
      ['guard', 'other'],
    );

    // Delete a multi-line range spanning the emoji comment.
    const s = at(expected, '# café');
    const e = at(expected, 'async def guard');
    doc.applyChanges([{ range: { start: s, end: e }, text: '' }]);
    expected = expected.slice(0, offsetAt(expected, s)) + expected.slice(offsetAt(expected, e));
    assert.equal(doc.text, expected);
    assert.deepEqual(doc.model, fresh(expected));
    assert.equal(
      doc.model.functions[0]?.decorators.length,
      0,
      'the decorator line went with the deleted range',
    );

    // Several changes in one notification, then a full replacement.
    doc.applyChanges([
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# a\n' },
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# b\n' },
    ]);
    expected = '# b\n# a\n' + expected;
    assert.deepEqual(doc.model, fresh(expected));
    doc.applyChanges([{ text: 'def x(:\n' }]);
    assert.equal(doc.text, 'def x(:\n');
    assert.equal(doc.model.syntaxErrors.length, 1);
  } finally {
    doc.dispose();
  }
});

test('positions past the end of a line or the text clamp, as the editor sends them', async () => {
  await initParser();
  for (const [pos, expected] of [
    [{ line: 0, character: 99 }, 'abX\ncd'],
    [{ line: 9, character: 0 }, 'ab\ncdX'],
    [{ line: 1, character: 1 }, 'ab\ncXd'],
  ] as const) {
    const doc = new Doc('ab\ncd');
    try {
      doc.applyChanges([{ range: { start: pos, end: pos }, text: 'X' }]);
      assert.equal(doc.text, expected);
      assert.deepEqual(doc.model, fresh(expected));
    } finally {
      doc.dispose();
    }
  }
});

test('documents with CR line endings: edits that pair or split a lone \\r stay correct', async () => {
  await initParser();
  let text = 'import time\rasync def f(p):\r    time.sleep(1)\r';
  const doc = new Doc(text);
  try {
    assert.deepEqual(doc.model, fresh(text));
    assert.equal(doc.model.functions[0]?.body.calls[0]?.range.start.line, 2);
    // Replace the first lone \r by \r\n, then the second by \n; then insert a lone \r.
    doc.applyChanges([
      { range: { start: { line: 0, character: 11 }, end: { line: 1, character: 0 } }, text: '\r\n' },
    ]);
    text = 'import time\r\nasync def f(p):\r    time.sleep(1)\r';
    assert.equal(doc.text, text);
    assert.deepEqual(doc.model, fresh(text));
    doc.applyChanges([
      { range: { start: { line: 1, character: 15 }, end: { line: 2, character: 0 } }, text: '\n' },
    ]);
    text = 'import time\r\nasync def f(p):\n    time.sleep(1)\r';
    assert.equal(doc.text, text);
    assert.deepEqual(doc.model, fresh(text));
    assert.equal(doc.model.functions[0]?.body.calls[0]?.callee.qualified, 'time.sleep');
    doc.applyChanges([
      {
        range: { start: { line: 2, character: 17 }, end: { line: 2, character: 17 } },
        text: '\r    time.sleep(2)',
      },
    ]);
    text = 'import time\r\nasync def f(p):\n    time.sleep(1)\r    time.sleep(2)\r';
    assert.equal(doc.text, text);
    assert.deepEqual(doc.model, fresh(text));
    assert.equal(doc.model.functions[0]?.body.calls.length, 2);
  } finally {
    doc.dispose();
  }
});
