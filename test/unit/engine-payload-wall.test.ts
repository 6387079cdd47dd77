import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getPayloadType } from '../../runtime/catalogue';
import { applyPayloadWall, filterModelSettings } from '../../runtime/engine/payload-wall';
import { validatePayload } from '../../runtime/engine/payload-input';

const sample = (name: Parameters<typeof getPayloadType>[0]) => structuredClone(getPayloadType(name).sample);

test('identity fields are restored from the input and the change is noted', () => {
  const input = sample('ToolCallPayload');
  const returned = {
    ...input,
    sender_id: 'attacker',
    channel: { name: 'web', metadata: {} },
    arguments: { size: 'small' },
  };
  const r = applyPayloadWall('ToolCallPayload', input, returned);
  assert.ok(r.ok);
  assert.equal(r.payload.sender_id, 'demo-user');
  assert.deepEqual(r.payload.channel, input.channel);
  assert.deepEqual(r.payload.arguments, { size: 'small' });
  assert.ok(r.notes.some((n) => n.includes("identity field 'sender_id' restored")));
  assert.ok(r.notes.some((n) => n.includes("identity field 'channel' restored")));
  assert.ok(!r.notes.some((n) => n.includes("'call'")), 'unchanged identity is not noted');
});

test('read-only fields are engine-owned: tool_names and iteration come back from the input', () => {
  const input = sample('ModelRequestPayload');
  const r = applyPayloadWall('ModelRequestPayload', input, { ...input, tool_names: ['rm_rf'], iteration: 9 });
  assert.ok(r.ok);
  assert.deepEqual(r.payload.tool_names, input.tool_names);
  assert.equal(r.payload.iteration, 0);
  assert.equal(r.notes.filter((n) => n.startsWith('read-only field')).length, 2);
});

test('model_settings keeps allow-listed keys of the right type and notes every dropped key', () => {
  const { kept, notes } = filterModelSettings({
    temperature: 0.2,
    api_key: 'sk-1',
    max_tokens: 1.5,
    stop: ['a', 'b'],
    seed: 7,
    model: 'gpt',
  });
  assert.deepEqual(kept, { temperature: 0.2, stop: ['a', 'b'], seed: 7 });
  assert.equal(notes.length, 3);
  assert.ok(notes.some((n) => n.includes("'api_key'") && n.includes('allow-list')));
  assert.ok(notes.some((n) => n.includes("'max_tokens'") && n.includes('1.5')));
});

test('knowledge results: the query is read-only (change-only passages)', () => {
  const input = sample('KnowledgeResultsPayload');
  const r = applyPayloadWall('KnowledgeResultsPayload', input, { ...input, query: 'other', passages: [] });
  assert.ok(r.ok);
  assert.equal(r.payload.query, input.query);
  assert.deepEqual(r.payload.passages, []);
});

test('unknown fields are dropped; a mutable field of the wrong type makes the return invalid', () => {
  const input = sample('ToolResultPayload');
  const r = applyPayloadWall('ToolResultPayload', input, { ...input, extra: 1, value: { not: 'text' } });
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.errors.some((e) => e.startsWith('value:')));
  assert.ok(r.notes.some((n) => n.includes("field 'extra' dropped")));
});

test('tool calls added without an id get one (noted)', () => {
  const input = sample('ModelResponsePayload');
  const r = applyPayloadWall('ModelResponsePayload', input, {
    ...input,
    tool_calls: [{ tool_name: 'x', tool_args: {} }],
  });
  assert.ok(r.ok);
  assert.equal((r.payload.tool_calls as { id: string }[])[0]!.id, 'call_hooked_0');
});

test('payload files: errors name the JSON path; $schema is accepted', () => {
  const bad = validatePayload('ModelResponsePayload', {
    text: 3,
    tool_calls: [{ id: 'a', tool_name: 1, tool_args: {} }],
  });
  assert.equal(bad.ok, false);
  assert.ok(!bad.ok && bad.errors.includes('tool_calls[0].tool_name: expected string, received number'));
  assert.ok(!bad.ok && bad.errors.some((e) => e.startsWith('sender_id:')));
  const good = validatePayload('ToolResultPayload', { $schema: 'x.json', ...sample('ToolResultPayload') });
  assert.ok(good.ok);
  assert.ok(good.ok && !('$schema' in good.payload));
  assert.equal(validatePayload('ToolResultPayload', [1]).ok, false);
});
