import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelOf, fn, py } from './helpers';

test('every import form binds the right local and qualified names', async () => {
  const m = await modelOf(py`
    from rasa.mantle.hooks import modify_tool_call as guard
    import rasa.mantle.hooks as mh
    from rasa.mantle import hooks
    import rasa.mantle.hooks
    from rasa.mantle.hooks import (
        on_turn_started,
        RetryModel as RM,
    )
    import time, requests as rq
    from . import sibling
  `);
  const by = (l: string) => m.imports.find((i) => i.localName === l);
  assert.deepEqual(
    m.imports.map((i) => [i.localName, i.module, i.importedName, i.qualified]),
    [
      ['guard', 'rasa.mantle.hooks', 'modify_tool_call', 'rasa.mantle.hooks.modify_tool_call'],
      ['mh', 'rasa.mantle.hooks', undefined, 'rasa.mantle.hooks'],
      ['hooks', 'rasa.mantle', 'hooks', 'rasa.mantle.hooks'],
      ['rasa', 'rasa.mantle.hooks', undefined, 'rasa'],
      ['on_turn_started', 'rasa.mantle.hooks', 'on_turn_started', 'rasa.mantle.hooks.on_turn_started'],
      ['RM', 'rasa.mantle.hooks', 'RetryModel', 'rasa.mantle.hooks.RetryModel'],
      ['time', 'time', undefined, 'time'],
      ['rq', 'requests', undefined, 'requests'],
      ['sibling', '.', 'sibling', '.sibling'],
    ],
  );
  assert.equal(by('RM')?.parenthesized, true);
  assert.equal(by('guard')?.parenthesized, false);
  assert.deepEqual(by('guard')?.nameRange, {
    start: { line: 0, character: 30 },
    end: { line: 0, character: 46 },
  });
  assert.deepEqual(by('RM')?.statementRange.start, { line: 4, character: 0 });
  assert.deepEqual(by('RM')?.statementRange.end, { line: 7, character: 1 });
  assert.ok(m.imports.every((i) => i.moduleLevel && !i.isWildcard));
});

test('names resolve through aliases in decorators, calls, raises and annotations', async () => {
  const m = await modelOf(py`
    import time
    import requests
    import rasa.mantle.hooks as mh
    from rasa.mantle import hooks
    import rasa.mantle.hooks
    from rasa.mantle.hooks import modify_tool_call as guard

    @guard
    @hooks.on_turn_started()
    @rasa.mantle.hooks.on_turn_ended
    async def f(p: mh.ToolCallPayload) -> hooks.ToolCallPayload:
        time.sleep(1)
        requests.get("u")
        print("x")
        raise mh.RetryModel("no")
  `);
  const f = fn(m, 'f');
  assert.deepEqual(
    f.decorators.map((d) => d.ref.qualified),
    [
      'rasa.mantle.hooks.modify_tool_call',
      'rasa.mantle.hooks.on_turn_started',
      'rasa.mantle.hooks.on_turn_ended',
    ],
  );
  assert.deepEqual(
    f.body.calls.map((c) => [c.callee.text, c.callee.qualified]),
    [
      ['time.sleep', 'time.sleep'],
      ['requests.get', 'requests.get'],
      ['print', undefined],
      ['mh.RetryModel', 'rasa.mantle.hooks.RetryModel'],
    ],
  );
  assert.equal(f.parameters[0]?.annotation?.ref?.qualified, 'rasa.mantle.hooks.ToolCallPayload');
  assert.equal(f.returnAnnotation?.ref?.qualified, 'rasa.mantle.hooks.ToolCallPayload');
  assert.equal(f.body.raises[0]?.exception?.qualified, 'rasa.mantle.hooks.RetryModel');
});

test('wildcard imports resolve catalogue names of the API modules only', async () => {
  const m = await modelOf(py`
    from rasa.mantle.hooks import *
    from somewhere import *

    @on_turn_started
    async def f(p): not_exported()
  `);
  assert.equal(m.imports[0]?.isWildcard, true);
  assert.equal(m.imports[0]?.localName, '*');
  const f = fn(m, 'f');
  assert.equal(f.decorators[0]?.ref.qualified, 'rasa.mantle.hooks.on_turn_started');
  assert.equal(f.body.calls[0]?.callee.qualified, undefined);
});

test('imports inside functions are listed with moduleLevel false and resolve there', async () => {
  const m = await modelOf(py`
    try:
        import ujson as json
    except ImportError:
        import json
    async def f(p):
        import time as t
        t.sleep(1)
        json.dumps(p)
  `);
  assert.deepEqual(
    m.imports.map((i) => [i.localName, i.moduleLevel]),
    [
      ['json', true],
      ['json', true],
      ['t', false],
    ],
  );
  const calls = fn(m, 'f').body.calls.map((c) => c.callee.qualified);
  assert.deepEqual(calls, ['time.sleep', 'json.dumps']);
});

test('from __future__ import annotations sets the flag', async () => {
  assert.equal((await modelOf('from __future__ import annotations\n')).futureAnnotations, true);
  assert.equal((await modelOf('import annotations\n')).futureAnnotations, false);
});
