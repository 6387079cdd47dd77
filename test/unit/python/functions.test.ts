import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelOf, fn, py } from './helpers';

test('decorators: bare, called, with literal keyword arguments', async () => {
  const m = await modelOf(py`
    from rasa.mantle.hooks import modify_model_request, on_turn_started
    @on_turn_started
    async def a(p): ...
    @modify_model_request(timeout_ms=2000, name="x", flag=True, ratio=-0.5, opts={"k": [1, None]})
    async def b(p): ...
    @modify_model_request()
    def c(p): ...
  `);
  const a = fn(m, 'a');
  assert.equal(a.decorators[0]?.called, false);
  assert.equal(a.decorators[0]?.call, undefined);
  assert.deepEqual(a.decorators[0]?.range, {
    start: { line: 1, character: 0 },
    end: { line: 1, character: 16 },
  });
  const b = fn(m, 'b');
  const kw = Object.fromEntries((b.decorators[0]?.call?.keywords ?? []).map((k) => [k.name, k.value]));
  assert.deepEqual(kw.timeout_ms, { kind: 'number', value: 2000, isInteger: true });
  assert.deepEqual(kw.name, { kind: 'string', value: 'x' });
  assert.deepEqual(kw.flag, { kind: 'bool', value: true });
  assert.deepEqual(kw.ratio, { kind: 'number', value: -0.5, isInteger: false });
  assert.equal(kw.opts?.kind, 'dict');
  if (kw.opts?.kind === 'dict')
    assert.deepEqual(kw.opts.entries[0]?.value, {
      kind: 'list',
      items: [{ kind: 'number', value: 1, isInteger: true }, { kind: 'none' }],
    });
  const t = b.decorators[0]?.call?.keywords[0];
  assert.deepEqual(t?.valueRange, { start: { line: 3, character: 33 }, end: { line: 3, character: 37 } });
  const c = fn(m, 'c');
  assert.equal(c.decorators[0]?.called, true);
  assert.equal(c.decorators[0]?.call?.keywords.length, 0);
  assert.equal(c.isAsync, false);
  assert.equal(b.isAsync, true);
  assert.deepEqual(b.defKeywordRange, { start: { line: 4, character: 6 }, end: { line: 4, character: 9 } });
  assert.deepEqual(c.defKeywordRange, { start: { line: 6, character: 0 }, end: { line: 6, character: 3 } });
  assert.deepEqual(b.range.start, { line: 3, character: 0 }, 'range starts at the first decorator');
  assert.deepEqual(b.nameRange, { start: { line: 4, character: 10 }, end: { line: 4, character: 11 } });
});

test('parameters: every kind, defaults and annotations', async () => {
  const m = await modelOf(py`
    def f(a, b: int, /, c=1, d: str = "x", *args: int, e, f: bool = False, **kw: dict) -> None: ...
    def g(a, *, b): ...
  `);
  const f = fn(m, 'f');
  assert.deepEqual(
    f.parameters.map((p) => [p.name, p.kind, p.hasDefault, p.annotation?.text]),
    [
      ['a', 'positional-only', false, undefined],
      ['b', 'positional-only', false, 'int'],
      ['c', 'positional', true, undefined],
      ['d', 'positional', true, 'str'],
      ['args', 'var-positional', false, 'int'],
      ['e', 'keyword-only', false, undefined],
      ['f', 'keyword-only', true, 'bool'],
      ['kw', 'var-keyword', false, 'dict'],
    ],
  );
  assert.equal(f.returnAnnotation?.isNone, true);
  assert.deepEqual(f.parametersRange.start, { line: 0, character: 5 });
  const g = fn(m, 'g');
  assert.deepEqual(
    g.parameters.map((p) => p.kind),
    ['positional', 'keyword-only'],
  );
});

test('annotations: string, Optional, X | None, Union, qualified', async () => {
  const m = await modelOf(py`
    from __future__ import annotations
    import typing
    from typing import Optional, Union
    from rasa.mantle.hooks import ToolCallPayload as TCP
    import rasa.mantle.hooks as mh
    def f(a: "TCP", b: 'mh.ModelRequestPayload', c: Optional[TCP], d: TCP | None, e: "Optional[TCP]",
          g: Union[TCP, None], h: typing.Optional[mh.X], i: None | TCP, j: list[TCP], k: "TCP | None", l: TCP | int) -> "TCP": ...
  `);
  const f = fn(m, 'f');
  const ann = (n: string) => f.parameters.find((p) => p.name === n)?.annotation;
  assert.equal(m.futureAnnotations, true);
  assert.deepEqual(ann('a'), {
    text: 'TCP',
    range: { start: { line: 5, character: 9 }, end: { line: 5, character: 14 } },
    isString: true,
    isNone: false,
    ref: {
      text: 'TCP',
      qualified: 'rasa.mantle.hooks.ToolCallPayload',
      range: { start: { line: 5, character: 10 }, end: { line: 5, character: 13 } },
    },
  });
  assert.equal(ann('b')?.ref?.qualified, 'rasa.mantle.hooks.ModelRequestPayload');
  for (const n of ['c', 'd', 'e', 'g', 'i', 'k']) {
    assert.equal(ann(n)?.optionalOf?.qualified, 'rasa.mantle.hooks.ToolCallPayload', `optional ${n}`);
    assert.equal(ann(n)?.ref, undefined, `no plain ref for ${n}`);
  }
  assert.equal(ann('e')?.isString, true);
  assert.deepEqual(ann('e')?.optionalOf?.range, {
    start: { line: 5, character: 91 },
    end: { line: 5, character: 94 },
  });
  assert.equal(ann('h')?.optionalOf?.qualified, 'rasa.mantle.hooks.X');
  assert.equal(ann('j')?.ref?.text, 'list');
  assert.equal(ann('l')?.optionalOf, undefined);
  assert.equal(f.returnAnnotation?.ref?.qualified, 'rasa.mantle.hooks.ToolCallPayload');
  assert.equal(f.returnAnnotation?.isString, true);
});

test('annotations: a broken string annotation is kept as text without a ref', async () => {
  const m = await modelOf('def f(a: "Foo[", b: "") -> "": ...\n');
  const f = fn(m, 'f');
  assert.equal(f.parameters[0]?.annotation?.text, 'Foo[');
  assert.equal(f.parameters[0]?.annotation?.ref, undefined);
  assert.equal(f.parameters[1]?.annotation?.isString, true);
});

test('classes: bases resolved from each Cayu namespace, methods, attributes', async () => {
  const m = await modelOf(py`
    from cayu import RuntimeHook
    import cayu.runtime.hooks as crh
    from cayu.observability import RuntimeHook as RH, BeforeToolCallDecision
    class A(RuntimeHook):
        name = "audit"
        retries: int = 3
        async def before_tool_call(self, context) -> BeforeToolCallDecision | None:
            return None
        @staticmethod
        def helper(): pass
    class B(crh.RuntimeHook, metaclass=Meta): pass
    class C(RH): pass
    class D: pass
  `);
  assert.deepEqual(
    m.classes.map((c) => [c.name, c.bases.map((b) => b.qualified)]),
    [
      ['A', ['cayu.RuntimeHook']],
      ['B', ['cayu.runtime.hooks.RuntimeHook']],
      ['C', ['cayu.observability.RuntimeHook']],
      ['D', []],
    ],
  );
  const a = m.classes[0];
  assert.ok(a);
  assert.deepEqual(
    a.methods.map((x) => [x.name, x.className, x.isAsync, x.decorators.length]),
    [
      ['before_tool_call', 'A', true, 0],
      ['helper', 'A', false, 1],
    ],
  );
  assert.deepEqual(
    a.attributes.map((x) => [x.name, x.value]),
    [
      ['name', { kind: 'string', value: 'audit' }],
      ['retries', { kind: 'number', value: 3, isInteger: true }],
    ],
  );
  assert.equal(
    a.methods[0]?.returnAnnotation?.optionalOf?.qualified,
    'cayu.observability.BeforeToolCallDecision',
  );
  assert.equal(m.functions.length, 0, 'methods are not module-level functions');
});
