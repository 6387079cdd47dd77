import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_TIMEOUT_MS } from '../../../runtime/catalogue';
import { cayuHookClasses, mantleHooks, unresolvedMantleDecorators } from '../../../runtime/python/hooks';
import { modelOf, py } from './helpers';

test('mantleHooks: catalogue decorators through any alias, with timeouts', async () => {
  const m = await modelOf(py`
    import rasa.mantle.hooks as mh
    from rasa.mantle import hooks
    from rasa.mantle.hooks import modify_tool_call as guard, on_turn_started
    @guard(timeout_ms=2000)
    async def a(p): ...
    @on_turn_started
    async def b(p): ...
    @mh.modify_model_request(timeout_ms="soon")
    async def c(p): ...
    @hooks.on_turn_finished()
    async def d(p): ...
    @mh.modify_everything()
    async def e(p): ...
    @other.on_turn_started
    async def f(p): ...
  `);
  const hs = mantleHooks(m);
  assert.deepEqual(
    hs.map((h) => [h.fn.name, h.hook.name, h.point.id, h.lane, h.timeoutMs]),
    [
      ['a', 'modify_tool_call', 'tool_call', 'modify', 2000],
      ['b', 'on_turn_started', 'turn_started', 'observe', DEFAULT_TIMEOUT_MS.observe],
      ['c', 'modify_model_request', 'model_request', 'modify', DEFAULT_TIMEOUT_MS.modify],
      ['d', 'on_turn_finished', 'turn_finished', 'observe', DEFAULT_TIMEOUT_MS.observe],
    ],
  );
  assert.deepEqual(hs[2]?.timeoutArg?.value, { kind: 'string', value: 'soon' });
  assert.equal(hs[0]?.timeoutArg?.name, 'timeout_ms');
  assert.equal(hs[1]?.timeoutArg, undefined);
  assert.deepEqual(
    unresolvedMantleDecorators(m).map((u) => [u.fn.name, u.member]),
    [['e', 'modify_everything']],
  );
});

test('cayuHookClasses: RuntimeHook from each namespace, phases, typos, name', async () => {
  const m = await modelOf(py`
    from cayu import RuntimeHook
    import cayu.runtime.hooks as crh
    from cayu.observability import RuntimeHook as RH
    from somewhere import RuntimeHook as Fake
    class Audit(RuntimeHook):
        name = "audit"
        async def before_tool_call(self, context): ...
        async def after_session_completed(self, context): ...
        async def before_tool_cal(self, context): ...
        def helper(self): ...
    class Guard(crh.RuntimeHook):
        async def after_tool_call(self, context): ...
    class Obs(RH):
        name = make_name()
    class NotCayu(Fake):
        async def before_tool_call(self, context): ...
  `);
  const cs = cayuHookClasses(m);
  assert.deepEqual(
    cs.map((c) => [
      c.cls.name,
      c.name,
      c.base.qualified,
      c.phases.map((p) => p.phase.id),
      c.unknownPhaseMethods.map((x) => x.name),
    ]),
    [
      [
        'Audit',
        'audit',
        'cayu.RuntimeHook',
        ['before_tool_call', 'after_session_completed'],
        ['before_tool_cal'],
      ],
      ['Guard', 'Guard', 'cayu.runtime.hooks.RuntimeHook', ['after_tool_call'], []],
      ['Obs', 'Obs', 'cayu.observability.RuntimeHook', [], []],
    ],
  );
});
