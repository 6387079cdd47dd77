import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

const bare = py`
  from rasa.mantle.hooks import TurnStartedPayload, on_turn_started as started
  import rasa.mantle.hooks as mh

  @started
  async def mark(payload: TurnStartedPayload) -> None:
      return None

  @mh.on_turn_finished
  async def done(payload: mh.TurnFinishedPayload) -> None:
      return None
`;

ruleTester('missing-parentheses', {
  valid: [
    {
      name: 'with parentheses, and unrelated bare decorators',
      code: py`
        import functools
        from rasa.mantle.hooks import TurnStartedPayload, on_turn_started

        @on_turn_started()
        async def mark(payload: TurnStartedPayload) -> None:
            return None

        @functools.cache
        def other():
            return 1
      `,
    },
  ],
  invalid: [
    {
      name: 'a bare hook decorator, by alias and through the module; the fix adds ()',
      code: bare,
      errors: [
        { messageId: 'needsParentheses', line: 4, column: 1 },
        { messageId: 'needsParentheses', line: 8, column: 1 },
      ],
      output: bare.replace('@started\n', '@started()\n'),
    },
  ],
});

test('missing-parentheses: the wording users see, on the decorator', async () => {
  const diags = await diagnose('missing-parentheses', bare);
  assert.equal(rangeText(bare, diags[0]!), '@started');
  assert.equal(
    diags[0]!.message,
    '`@started` needs parentheses: write `@started()`. Hook decorators are factories; parentheses are mandatory even with default options.',
  );
  assert.match(diags[1]!.message, /`@mh\.on_turn_finished\(\)`/);
});
