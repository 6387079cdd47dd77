import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { parseModule } from '../../runtime/analysis';
import { initParser } from '../../runtime/python/parser';
import { returnedValue, toHostFact, toInvokeRequest } from '../../runtime/engine/host-adapter';
import { hooksOf, locateHook } from '../../runtime/engine/hook-locator';

before(() => initParser());

const SOURCE = `from rasa.mantle.hooks import modify_tool_call, on_turn_started, ToolCallPayload
from cayu.observability import RuntimeHook

@modify_tool_call(timeout_ms=250)
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    return call

@on_turn_started()
async def hello(payload) -> None:
    return None

def helper():
    pass

class Audit(RuntimeHook):
    async def after_tool_call(self, context):
        return None
    async def helper(self):
        pass

class Plain:
    async def before_tool_call(self, context):
        return None
`;

test('hooks of a module: Mantle functions with point, lane and timeout; Cayu overridden phases', () => {
  const module = parseModule(SOURCE, '/a/hooks.py');
  const hooks = hooksOf(module).map((h) =>
    h.engine === 'mantle' ? `${h.handler}:${h.point.id}:${h.lane}:${h.timeoutMs}` : `${h.handler}:${h.phase}`,
  );
  assert.deepEqual(hooks, [
    'guard:tool_call:modify:250',
    'hello:turn_started:observe:100',
    'Audit.after_tool_call:after_tool_call',
  ]);
});

test('handler errors say what is wrong and list the hooks', () => {
  const module = parseModule(SOURCE, '/a/hooks.py');
  const miss = (h: string) => {
    const r = locateHook(module, h);
    assert.ok(!r.ok);
    return r.message;
  };
  assert.match(miss('helper'), /not a hook: it has no decorator/);
  assert.match(miss('Plain.before_tool_call'), /Plain is not a RuntimeHook subclass/);
  assert.match(miss('Audit.helper'), /not a phase method: phases are before_tool_call/);
  assert.match(miss('Audit.before_tool_call'), /not a phase of the class/);
  assert.match(miss('nope'), /no handler 'nope'.*guard, hello, Audit\.after_tool_call/);
  assert.ok(locateHook(module, 'Audit.after_tool_call').ok);
});

test('host results map to facts: payload models, decisions, None, other values, signals', () => {
  const t = (name: string, module = 'rasa.mantle.hooks') => ({ name, module, qualname: `${module}.${name}` });
  assert.deepEqual(returnedValue(null, t('NoneType', 'builtins')), { kind: 'none' });
  assert.equal(returnedValue({ query: 'x' }, t('KnowledgeQueryPayload')).kind, 'payload');
  assert.equal(
    returnedValue({ action: 'proceed' }, t('BeforeToolCallDecision', 'cayu.observability')).kind,
    'decision',
  );
  assert.deepEqual(returnedValue({ a: 1 }, t('dict', 'builtins')), {
    kind: 'other',
    pythonType: 'dict',
    repr: '{"a":1}',
  });
  const base = { durationMs: 1, output: { text: 'hi', droppedChars: 0 } };
  const exc = {
    type: t('RetryModel'),
    message: 'm',
    feedback: 'fb',
    signal: 'RetryModel' as const,
    baseException: false,
    traceback: [],
    formatted: 'x',
  };
  const raised = toHostFact({ ...base, status: 'raised', exception: exc, payloadMutated: true });
  assert.equal(raised.kind, 'raised');
  assert.ok(raised.kind === 'raised' && raised.signal?.feedback === 'fb');
  assert.ok(raised.hostNotes?.some((n) => n.includes('mutated')));
  const killed = toHostFact({ ...base, status: 'timed-out', killed: true, timeoutMs: 100 });
  assert.ok(killed.kind === 'timed-out' && killed.hard);
  assert.throws(
    () => toHostFact({ ...base, status: 'invalid-request', message: 'bad payload' }),
    /bad payload/,
  );
  assert.equal(
    toInvokeRequest({
      agentRoot: '/a',
      file: '/a/x.py',
      engine: 'cayu',
      function: 'after_tool_call',
      className: 'Audit',
      phase: 'after_tool_call',
      payload: {},
      timeoutMs: 5,
    }).handler,
    'Audit.after_tool_call',
  );
});
