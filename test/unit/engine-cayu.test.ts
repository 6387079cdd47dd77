import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cayuVerdict, validateDecision } from '../../runtime/engine/cayu-outcome';
import { validateCayuContext } from '../../runtime/engine/cayu-context';
import type { HostFact } from '../../runtime/engine/host-port';

const decision = (
  type: string,
  data: Record<string, unknown>,
): Exclude<HostFact, { kind: 'load-error' }> => ({
  kind: 'returned',
  value: { kind: 'decision', type, data },
  durationMs: 1,
  output: '',
});

test('the decision validator: companions required and exclusive, block_reason not blank, extra fields forbidden', () => {
  assert.deepEqual(validateDecision('before_tool_call', { action: 'proceed' }), []);
  assert.deepEqual(
    validateDecision('before_tool_call', { action: 'block', block_reason: 'no', modified_arguments: null }),
    [],
  );
  assert.ok(
    validateDecision('before_tool_call', { action: 'proceed_modified' }).some((p) =>
      p.includes('requires modified_arguments'),
    ),
  );
  assert.ok(
    validateDecision('before_tool_call', { action: 'short_circuit' }).some((p) =>
      p.includes('requires synthetic_result'),
    ),
  );
  assert.ok(
    validateDecision('before_tool_call', { action: 'block', block_reason: '  ' }).some((p) =>
      p.includes('must not be blank'),
    ),
  );
  assert.ok(
    validateDecision('before_tool_call', { action: 'proceed', block_reason: 'x' }).some((p) =>
      p.includes("only valid with action 'block'"),
    ),
  );
  assert.ok(
    validateDecision('after_tool_call', { action: 'modify' }).some((p) =>
      p.includes('requires modified_result'),
    ),
  );
  assert.ok(validateDecision('after_tool_call', { action: 'drop' }).some((p) => p.includes('is not one of')));
  assert.ok(
    validateDecision('after_tool_call', { action: 'pass_through', colour: 1 }).some((p) =>
      p.includes("unknown field 'colour'"),
    ),
  );
});

test('None means proceed / pass_through', () => {
  const none = { kind: 'returned', value: { kind: 'none' }, durationMs: 1, output: '' } as const;
  assert.deepEqual(cayuVerdict('before_tool_call', {}, none).payload, { action: 'proceed' });
  assert.deepEqual(cayuVerdict('after_tool_call', {}, none).payload, { action: 'pass_through' });
  assert.equal(cayuVerdict('after_session_failed', {}, none).payload, null);
});

test('block carries its reason into the effect; an invalid decision is invalid-return', () => {
  const v = cayuVerdict(
    'before_tool_call',
    {},
    decision('BeforeToolCallDecision', { action: 'block', block_reason: 'needs a human' }),
  );
  assert.equal(v.outcome, 'returned');
  assert.equal(v.policy, 'cayu');
  assert.match(v.effect, /error result carrying the reason: needs a human/);
  const bad = cayuVerdict(
    'before_tool_call',
    {},
    decision('BeforeToolCallDecision', { action: 'short_circuit' }),
  );
  assert.equal(bad.outcome, 'invalid-return');
  const wrongKind = cayuVerdict(
    'before_tool_call',
    {},
    decision('AfterToolCallDecision', { action: 'pass_through' }),
  );
  assert.equal(wrongKind.outcome, 'invalid-return');
  assert.ok(wrongKind.notes.some((n) => n.includes('BeforeToolCallDecision')));
});

test('a validator error raised inside the hook is a crash that names the validator', () => {
  const v = cayuVerdict(
    'before_tool_call',
    {},
    {
      kind: 'raised',
      error: { type: 'ValidationError', message: 'block_reason required', traceback: [], formatted: '' },
      durationMs: 1,
      output: '',
    },
  );
  assert.equal(v.outcome, 'crashed');
  assert.ok(v.notes.some((n) => n.includes("Cayu's decision validator")));
});

test('Cayu context payload files are validated with paths', () => {
  const r = validateCayuContext('after_tool_call', { tool_name: 'x', result: { content: 1 } });
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.errors.includes('result.content: expected string, received number'));
  assert.ok(validateCayuContext('after_session_completed', {}).ok);
});
