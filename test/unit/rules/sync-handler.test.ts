import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

const guard = py`
  from rasa.mantle.hooks import ToolCallPayload, modify_tool_call

  @modify_tool_call()
  def guard(call: ToolCallPayload) -> ToolCallPayload:
      return call
`;

ruleTester('sync-handler', {
  valid: [
    {
      name: 'async hooks and undecorated sync helpers',
      code: py`
        from rasa.mantle.hooks import TurnStartedPayload, on_turn_started

        def helper(x):
            return x

        @on_turn_started()
        async def mark(payload: TurnStartedPayload) -> None:
            return None
      `,
    },
  ],
  invalid: [
    {
      name: 'a plain def hook, on its name; the fix inserts async',
      code: guard,
      errors: [{ messageId: 'notAsync', line: 4, column: 5 }],
      output: guard.replace('def guard', 'async def guard'),
    },
    {
      name: 'module alias and `from rasa.mantle import hooks` resolve too',
      code: py`
        import rasa.mantle.hooks as mh
        from rasa.mantle import hooks

        @mh.on_turn_started()
        def a(p: mh.TurnStartedPayload) -> None: ...

        @hooks.on_turn_finished()
        def b(p: hooks.TurnFinishedPayload) -> None: ...
      `,
      errors: [
        { messageId: 'notAsync', line: 5, column: 5 },
        { messageId: 'notAsync', line: 8, column: 5 },
      ],
    },
    {
      name: 'hooks reached through `from rasa.mantle.hooks import *` count',
      code: py`
        from rasa.mantle.hooks import *

        @on_tool_call()
        def audit(call: ToolCallPayload) -> None: ...
      `,
      errors: [{ messageId: 'notAsync', line: 4, column: 5 }],
    },
  ],
});

test('sync-handler: the wording users see, an error on the name', async () => {
  const [d] = await diagnose('sync-handler', guard);
  assert.equal(d!.severity, 'error');
  assert.equal(rangeText(guard, d!), 'guard');
  assert.equal(
    d!.message,
    '`guard` is registered with `@modify_tool_call()` but is not `async def`: the engine rejects synchronous hook handlers at validation (rasa train and model load).',
  );
});

test('sync-handler: a star import leaves the names to this rule (no unknown-hook-point, payload-annotation)', async () => {
  const src = py`
    from rasa.mantle.hooks import *

    @on_tool_call()
    def audit(call: ToolCallPayload) -> None: ...
  `;
  assert.deepEqual(await diagnose('unknown-hook-point', src), []);
  assert.deepEqual(await diagnose('payload-annotation', src), []);
});
