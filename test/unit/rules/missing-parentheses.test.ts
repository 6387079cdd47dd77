import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';

test('missing-parentheses: a bare hook decorator is an error on the decorator; the fix adds ()', async () => {
  const src = py`
    from rasa.mantle.hooks import TurnStartedPayload, on_turn_started as started
    import rasa.mantle.hooks as mh

    @started
    async def mark(payload: TurnStartedPayload) -> None:
        return None

    @mh.on_turn_finished
    async def done(payload: mh.TurnFinishedPayload) -> None:
        return None
  `;
  const diags = await diagnose('missing-parentheses', src);
  expectAt(diags, ['4:1', '8:1']);
  assert.equal(rangeText(src, diags[0]), '@started');
  assert.match(diags[0].message, /`@started` needs parentheses: write `@started\(\)`/);
  assert.match(diags[1].message, /`@mh\.on_turn_finished\(\)`/);
  assert.equal(applyFix(src, diags[1]), src.replace('@mh.on_turn_finished\n', '@mh.on_turn_finished()\n'));
});

test('missing-parentheses: quiet with parentheses and on unrelated bare decorators', async () => {
  const src = py`
    import functools
    from rasa.mantle.hooks import TurnStartedPayload, on_turn_started

    @on_turn_started()
    async def mark(payload: TurnStartedPayload) -> None:
        return None

    @functools.cache
    def other():
        return 1
  `;
  assert.deepEqual(await diagnose('missing-parentheses', src), []);
});
