import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffPayload, diffSummary, renderDiffTable, restoredFields } from '../../runtime/ui/payload-diff';

test('field-level diff: changed, added, removed, nested paths and array indexes', () => {
  const before = {
    text: ' hi ',
    arguments: { size: 'large', card: ' c ' },
    tool_calls: [{ id: 'a' }, { id: 'b' }],
    gone: 1,
  };
  const after = {
    text: 'hi',
    arguments: { size: 'large', card: 'c', extra: true },
    tool_calls: [{ id: 'a' }],
    new: [1],
  };
  const d = diffPayload(before, after);
  const by = (p: string) => d.rows.find((r) => r.path === p);
  assert.equal(by('text')?.kind, 'changed');
  assert.equal(by('arguments.size')?.kind, 'same');
  assert.equal(by('arguments.card')?.kind, 'changed');
  assert.equal(by('arguments.extra')?.kind, 'added');
  assert.equal(by('tool_calls[1]')?.kind, 'removed');
  assert.equal(by('gone')?.kind, 'removed');
  assert.deepEqual(by('new'), { path: 'new', kind: 'added', after: [1] });
  assert.equal(diffSummary(d), '2 changed, 2 added, 2 removed');
});

test('identical payloads: no change rows, "unchanged" summary and table text', () => {
  const p = { a: 1, b: { c: [1, 2] } };
  const d = diffPayload(p, structuredClone(p));
  assert.equal(diffSummary(d), 'unchanged');
  assert.match(renderDiffTable(d), /Unchanged/);
});

test('identity restored by the payload wall is its own row kind, read from the notes', () => {
  const notes = [
    "identity field 'sender_id' restored from the input (the hook changed it; identity is engine-owned)",
    'other note',
  ];
  assert.deepEqual([...restoredFields(notes)], ['sender_id']);
  const d = diffPayload({ sender_id: 'u1', text: 'a' }, { sender_id: 'u1', text: 'b' }, notes);
  assert.equal(d.rows.find((r) => r.path === 'sender_id')?.kind, 'restored');
  assert.equal(d.restored, 1);
  assert.match(renderDiffTable(d), /class="d-restored".*identity restored by the payload wall/);
});

test('a whole-value change (payload → null) and a type change are "changed" at the root', () => {
  assert.equal(diffPayload({ a: 1 }, null).rows[0]?.kind, 'changed');
  assert.equal(diffPayload([1], { 0: 1 }).rows[0]?.kind, 'changed');
});

test('the diff table escapes hostile values', () => {
  const html = renderDiffTable(diffPayload({ v: 'x' }, { v: '<script>alert(1)</script>' }));
  assert.ok(!html.includes('<script>'));
  assert.match(html, /&#60;script&#62;/);
});

test('deep and cyclic-free huge nesting stays bounded', () => {
  let deep: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < 50; i++) deep = { n: deep };
  const d = diffPayload(deep, { n: 1 });
  assert.ok(d.rows.length >= 1 && d.rows.length < 5);
});

test('JSON text (a tool result value) is diffed by what it encodes', () => {
  const d = diffPayload(
    { value: '{"email":"a@b.c","name":"Ada"}' },
    { value: '{"email": "[email]", "name": "Ada"}' },
  );
  assert.deepEqual(
    d.rows.map((r) => [r.path, r.kind]),
    [
      ['value⟨json⟩.email', 'changed'],
      ['value⟨json⟩.name', 'same'],
    ],
  );
  // Plain strings that are not JSON stay one changed row.
  assert.deepEqual(
    diffPayload({ t: 'a' }, { t: '{' }).rows.map((r) => r.kind),
    ['changed'],
  );
});
