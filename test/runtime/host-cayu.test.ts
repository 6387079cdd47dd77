// Cayu RuntimeHook classes through the real host: decisions for each phase, the shim's
// validator rules, the arguments copy, and recorded context actions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cayu, expectStatus, makeHost } from './fixtures/host/helpers';

const { host } = makeHost();
before(async () => {
  await host.start();
});
after(async () => {
  await host.dispose();
});

const call = (tool_name: string, args: Record<string, unknown> = {}): Record<string, unknown> => ({
  tool_name,
  tool_call_id: 'call-7',
  arguments: args,
});

describe('before_tool_call', () => {
  test('block with a reason, and the emitted event is recorded', async () => {
    const r = expectStatus(
      await host.invoke(
        cayu('Guard.before_tool_call', 'before_tool_call', call('delete_everything', { all: true })),
      ),
      'returned',
    );
    assert.equal(r.valueType.name, 'BeforeToolCallDecision');
    assert.deepEqual(r.value, {
      action: 'block',
      modified_arguments: null,
      synthetic_result: null,
      block_reason: 'not allowed',
    });
    assert.deepEqual(r.actions, [
      {
        method: 'emit_custom_event',
        args: ['guard.seen'],
        kwargs: { session_id: null, payload: { tool: 'delete_everything' } },
      },
    ]);
    assert.equal(r.hookName, 'Guard');
    assert.equal(r.overridesPhase, true);
    assert.equal(r.argumentsMutated, false);
  });

  test('short_circuit with a synthetic result given as a dict becomes a ToolResult', async () => {
    const r = expectStatus(
      await host.invoke(cayu('Guard.before_tool_call', 'before_tool_call', call('cached'))),
      'returned',
    );
    assert.deepEqual(r.value, {
      action: 'short_circuit',
      modified_arguments: null,
      synthetic_result: { content: 'from cache', structured: null, artifacts: [], is_error: false },
      block_reason: null,
    });
  });

  test('proceed_modified returns new arguments without touching the context copy', async () => {
    const r = expectStatus(
      await host.invoke(cayu('Guard.before_tool_call', 'before_tool_call', call('fix_args', { a: 1 }))),
      'returned',
    );
    assert.deepEqual((r.value as { modified_arguments: unknown }).modified_arguments, { a: 1, fixed: true });
    assert.equal(r.argumentsMutated, false);
  });

  test('returning None is reported as None', async () => {
    const r = expectStatus(
      await host.invoke(cayu('Guard.before_tool_call', 'before_tool_call', call('other'))),
      'returned',
    );
    assert.equal(r.value, null);
    assert.equal(r.valueType.name, 'NoneType');
  });

  test('mutating context.arguments is flagged (it is a no-op)', async () => {
    const r = expectStatus(
      await host.invoke(cayu('Mutator.before_tool_call', 'before_tool_call', call('t', { a: 1 }))),
      'returned',
    );
    assert.equal(r.argumentsMutated, true);
  });

  const invalid: [string, RegExp][] = [
    ['block_blank', /requires a non-blank block_reason/],
    ['proceed_modified_missing', /'proceed_modified' requires modified_arguments/],
    ['short_circuit_missing', /'short_circuit' requires synthetic_result/],
    ['field_with_wrong_action', /block_reason is only valid with action 'block'/],
    ['extra', /colour\n\s+Extra inputs are not permitted/],
    [
      'unknown_action',
      /action\n\s+Input should be 'proceed', 'proceed_modified', 'short_circuit' or 'block'/,
    ],
  ];
  for (const [kase, message] of invalid) {
    test(`the shim's validator rejects ${kase}`, async () => {
      const r = expectStatus(
        await host.invoke(
          cayu('BadDecisions.before_tool_call', 'before_tool_call', call('t', { case: kase })),
        ),
        'raised',
      );
      assert.equal(r.exception.type.name, 'ValidationError');
      assert.ok(
        r.exception.message.startsWith('1 validation error for BeforeToolCallDecision'),
        r.exception.message,
      );
      assert.match(r.exception.message, message);
      assert.match(r.exception.message, /\[type=\w+, input_value=.*, input_type=\w+\]$/);
      assert.equal(r.exception.signal, null);
    });
  }
});

describe('after_tool_call', () => {
  test('modify replaces an error result; the context carries the ToolResult', async () => {
    const payload = { ...call('lookup'), result: { content: 'HTTP 500', is_error: true } };
    const r = expectStatus(
      await host.invoke(cayu('Guard.after_tool_call', 'after_tool_call', payload)),
      'returned',
    );
    assert.deepEqual(r.value, {
      action: 'modify',
      modified_result: { content: 'softened: HTTP 500', structured: null, artifacts: [], is_error: false },
    });
  });

  test('pass_through', async () => {
    const r = expectStatus(
      await host.invoke(
        cayu('Guard.after_tool_call', 'after_tool_call', { ...call('lookup'), result: { content: 'ok' } }),
      ),
      'returned',
    );
    assert.deepEqual(r.value, { action: 'pass_through', modified_result: null });
  });

  test('modify without modified_result is rejected', async () => {
    const r = expectStatus(
      await host.invoke(
        cayu('BadDecisions.after_tool_call', 'after_tool_call', { ...call('lookup'), result: {} }),
      ),
      'raised',
    );
    assert.match(
      r.exception.message,
      /1 validation error for AfterToolCallDecision[\s\S]*'modify' requires modified_result/,
    );
  });
});

describe('after_session_*', () => {
  test('completed: actions recorded in order, session and phase available, output captured', async () => {
    const r = expectStatus(
      await host.invoke(
        cayu('Guard.after_session_completed', 'after_session_completed', { session: { id: 's-42' } }),
      ),
      'returned',
    );
    assert.deepEqual(
      r.actions?.map((a) => a.method),
      ['dispatch', 'create_task', 'dispatch_inline', 'fork_session'],
    );
    assert.deepEqual(r.actions?.[3].args, [{ from: 's-42' }]);
    assert.equal(r.output.text, 'session s-42 True after_session_completed\n');
  });

  test('failed: a custom name property, the terminal event', async () => {
    const r = expectStatus(
      await host.invoke(cayu('Named.after_session_failed', 'after_session_failed', {})),
      'returned',
    );
    assert.equal(r.hookName, 'custom-name');
    assert.equal(r.value, 'session.failed');
  });

  test('interrupted: a phase the class does not override runs the base method (None)', async () => {
    const r = expectStatus(
      await host.invoke(cayu('Guard.after_session_interrupted', 'after_session_interrupted', {})),
      'returned',
    );
    assert.equal(r.value, null);
    assert.equal(r.overridesPhase, false);
  });
});

describe('errors', () => {
  test('a class that cannot be built with no args is a load-error at instantiate', async () => {
    const r = expectStatus(
      await host.invoke(cayu('NeedsArgs.after_session_completed', 'after_session_completed', {})),
      'load-error',
    );
    assert.equal(r.stage, 'instantiate');
    assert.equal(r.exception.type.name, 'TypeError');
  });

  test('an unknown phase or class is rejected clearly', async () => {
    const p = expectStatus(
      await host.invoke(cayu('Guard.before_tool_call', 'before_tool_cal' as never, {})),
      'invalid-request',
    );
    assert.match(p.message, /unknown Cayu phase/);
    const c = expectStatus(
      await host.invoke(cayu('Nope.before_tool_call', 'before_tool_call', {})),
      'load-error',
    );
    assert.equal(c.stage, 'handler');
  });
});
