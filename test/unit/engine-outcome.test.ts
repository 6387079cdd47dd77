import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FALLBACK_RESPONSES, getPayloadType, getPoint } from '../../runtime/catalogue';
import type { HookError } from '../../runtime/engine/api';
import type { HostFact } from '../../runtime/engine/host-port';
import { mantleVerdict } from '../../runtime/engine/mantle-outcome';

type Fact = Exclude<HostFact, { kind: 'load-error' }>;
const err: HookError = {
  type: 'ValueError',
  message: 'boom',
  traceback: [],
  formatted: 'Traceback…\nValueError: boom',
};
const returned = (type: string, data: Record<string, unknown>): Fact => ({
  kind: 'returned',
  value: { kind: 'payload', type, data },
  durationMs: 1,
  output: '',
});
const none: Fact = { kind: 'returned', value: { kind: 'none' }, durationMs: 1, output: '' };
const crash: Fact = { kind: 'raised', error: err, durationMs: 1, output: '' };
const timeout = (hard: boolean): Fact => ({ kind: 'timed-out', durationMs: 500, hard, output: '' });
const signal = (type: 'RetryModel' | 'HookRejection', text: string): Fact => ({
  kind: 'raised',
  error: { ...err, type },
  signal: type === 'RetryModel' ? { type, feedback: text } : { type, reason: text },
  durationMs: 1,
  output: '',
});
const input = (name: Parameters<typeof getPayloadType>[0]) => structuredClone(getPayloadType(name).sample);

test('model_request crash is fail-closed: the LLM call is skipped and the user hears the fallback', () => {
  const v = mantleVerdict(getPoint('model_request'), 'modify', input('ModelRequestPayload'), crash);
  assert.equal(v.outcome, 'crashed');
  assert.equal(v.policy, 'fail-closed');
  assert.equal(v.payload, null);
  assert.equal(
    v.effect,
    'fail-closed: the LLM call is skipped and the user hears utter_model_request_hook_error',
  );
  assert.ok(v.effect.includes(FALLBACK_RESPONSES.model_request));
  assert.equal(v.error?.message, 'boom');
});

test('tool_result timeout is fail-open and keeps the original result; a hard kill is noted', () => {
  const i = input('ToolResultPayload');
  const v = mantleVerdict(getPoint('tool_result'), 'modify', i, timeout(true));
  assert.equal(v.outcome, 'timed-out');
  assert.equal(v.policy, 'fail-open');
  assert.deepEqual(v.payload, i);
  assert.match(v.effect, /keeps the original tool result/);
  assert.ok(v.notes.some((n) => n.includes('killed and restarted')));
});

test('RetryModel where allowed has its meaning; feedback is carried', () => {
  const v = mantleVerdict(
    getPoint('model_response'),
    'modify',
    input('ModelResponsePayload'),
    signal('RetryModel', 'cite sources'),
  );
  assert.equal(v.outcome, 'retry-model');
  assert.deepEqual(v.signal, { type: 'RetryModel', feedback: 'cite sources', honoured: true });
  assert.equal(v.payload, null);
  assert.match(v.effect, /next request only/);
});

test('HookRejection at incoming_message is a rejection (not wired by the setting: noted)', () => {
  const v = mantleVerdict(
    getPoint('incoming_message'),
    'modify',
    input('IncomingMessagePayload'),
    signal('HookRejection', 'spam'),
    { wired: false, by: 'the hooksmith.mantle.wiredPoints setting' },
  );
  assert.equal(v.outcome, 'hook-rejection');
  assert.equal(v.signal?.reason, 'spam');
  assert.ok(v.notes.some((n) => n.startsWith('not invoked by the hooksmith.mantle.wiredPoints setting: ')));
  // rasa-pro 3.21 invokes it (processor.py:200): no note.
  const wired = mantleVerdict(
    getPoint('incoming_message'),
    'modify',
    input('IncomingMessagePayload'),
    signal('HookRejection', 'spam'),
  );
  assert.ok(!wired.notes.some((n) => n.startsWith('not invoked')));
});

test('a signal where it is not allowed is ignored and the original payload kept', () => {
  for (const [point, sig] of [
    ['model_request', 'RetryModel'],
    ['model_response', 'HookRejection'],
    ['tool_call', 'HookRejection'],
    ['knowledge_query', 'RetryModel'],
    ['tool_result', 'RetryModel'],
  ] as const) {
    const p = getPoint(point);
    const i = input(p.payloadType);
    const v = mantleVerdict(p, 'modify', i, signal(sig, 'x'));
    assert.equal(v.outcome, 'ignored-signal', point);
    assert.deepEqual(v.payload, i, point);
    assert.equal(v.signal?.honoured, false);
    assert.equal(v.effect, p.unsupportedSignalEffect);
  }
});

test('None, a dict or another payload type from a modify hook is an invalid return under the point policy', () => {
  const open = mantleVerdict(getPoint('model_response'), 'modify', input('ModelResponsePayload'), none);
  assert.equal(open.outcome, 'invalid-return');
  assert.equal(open.policy, 'fail-open');
  assert.ok(open.payload);
  assert.ok(open.notes.some((n) => n.includes('returned None')));
  const dict: Fact = {
    kind: 'returned',
    value: { kind: 'other', pythonType: 'dict', repr: '{"query": "x"}' },
    durationMs: 1,
    output: '',
  };
  const closed = mantleVerdict(getPoint('knowledge_query'), 'modify', input('KnowledgeQueryPayload'), dict);
  assert.equal(closed.outcome, 'invalid-return');
  assert.equal(closed.payload, null);
  assert.match(closed.effect, /search is skipped/);
  assert.ok(closed.notes.some((n) => n.includes('a dict') && n.includes('KnowledgeQueryPayload')));
  const wrong = mantleVerdict(
    getPoint('tool_call'),
    'modify',
    input('ToolCallPayload'),
    returned('ToolResultPayload', {}),
  );
  assert.equal(wrong.outcome, 'invalid-return');
  assert.match(wrong.effect, /utter_tool_call_hook_error/);
});

test('a returned payload goes through the payload wall', () => {
  const i = input('ModelRequestPayload');
  const v = mantleVerdict(
    getPoint('model_request'),
    'modify',
    i,
    returned('ModelRequestPayload', {
      ...i,
      sender_id: 'x',
      model_settings: { temperature: 0.1, api_key: 'k' },
    }),
  );
  assert.equal(v.outcome, 'returned');
  assert.deepEqual((v.payload as Record<string, unknown>).model_settings, { temperature: 0.1 });
  assert.equal((v.payload as Record<string, unknown>).sender_id, 'demo-user');
  assert.equal(v.notes.length, 2);
});

test('observers: whatever happens, no effect on the turn; the outcome still says what happened', () => {
  const p = getPoint('turn_started');
  const i = input('TurnStartedPayload');
  const cases: [Fact, string][] = [
    [none, 'returned'],
    [crash, 'crashed'],
    [timeout(false), 'timed-out'],
    [signal('RetryModel', 'x'), 'ignored-signal'],
    [returned('TurnStartedPayload', i), 'returned'],
  ];
  for (const [fact, outcome] of cases) {
    const v = mantleVerdict(p, 'observe', i, fact);
    assert.equal(v.outcome, outcome);
    assert.equal(v.policy, 'observe');
    assert.match(v.effect, /^no effect on the turn/);
    assert.deepEqual(v.payload, i);
  }
});
