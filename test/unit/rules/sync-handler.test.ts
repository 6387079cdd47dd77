import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';

test('sync-handler: a plain def hook is an error on its name, fixed by inserting async', async () => {
  const src = py`
    from rasa.mantle.hooks import ToolCallPayload, modify_tool_call

    @modify_tool_call()
    def guard(call: ToolCallPayload) -> ToolCallPayload:
        return call
  `;
  const diags = await diagnose('sync-handler', src);
  expectAt(diags, ['4:5']);
  assert.equal(diags[0].severity, 'error');
  assert.equal(rangeText(src, diags[0]), 'guard');
  assert.match(diags[0].message, /`guard` is registered with `@modify_tool_call\(\)` but is not `async def`/);
  assert.equal(applyFix(src, diags[0]), src.replace('def guard', 'async def guard'));
});

test('sync-handler: module alias and `from rasa.mantle import hooks` resolve too', async () => {
  const src = py`
    import rasa.mantle.hooks as mh
    from rasa.mantle import hooks

    @mh.on_turn_started()
    def a(p: mh.TurnStartedPayload) -> None: ...

    @hooks.on_turn_finished()
    def b(p: hooks.TurnFinishedPayload) -> None: ...
  `;
  expectAt(await diagnose('sync-handler', src), ['5:5', '8:5']);
});

test('sync-handler: quiet on async hooks and on undecorated sync helpers', async () => {
  const src = py`
    from rasa.mantle.hooks import TurnStartedPayload, on_turn_started

    def helper(x):
        return x

    @on_turn_started()
    async def mark(payload: TurnStartedPayload) -> None:
        return None
  `;
  assert.deepEqual(await diagnose('sync-handler', src), []);
});

test('sync-handler: hooks reached through `from rasa.mantle.hooks import *` count', async () => {
  const src = py`
    from rasa.mantle.hooks import *

    @on_tool_call()
    def audit(call: ToolCallPayload) -> None: ...
  `;
  expectAt(await diagnose('sync-handler', src), ['4:5']);
  assert.deepEqual(await diagnose('unknown-hook-point', src), []);
  assert.deepEqual(await diagnose('payload-annotation', src), []);
});
