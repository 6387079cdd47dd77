import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelOf, fn, py } from './helpers';

test('raises: positional and feedback= RetryModel, bare name, re-raise, in except handler', async () => {
  const m = await modelOf(py`
    from rasa.mantle.hooks import RetryModel, HookRejection
    import rasa.mantle.hooks as mh
    async def f(p):
        if p.a:
            raise RetryModel("too long")
        if p.b:
            raise mh.RetryModel(feedback="shorter")
        if p.c:
            raise HookRejection
        try:
            pass
        except ValueError as e:
            raise RetryModel("x") from e
        except Exception:
            raise
  `);
  const r = fn(m, 'f').body.raises;
  assert.deepEqual(
    r.map((x) => [x.exception?.qualified, x.isReraise, x.inExceptHandler]),
    [
      ['rasa.mantle.hooks.RetryModel', false, false],
      ['rasa.mantle.hooks.RetryModel', false, false],
      ['rasa.mantle.hooks.HookRejection', false, false],
      ['rasa.mantle.hooks.RetryModel', false, true],
      [undefined, true, true],
    ],
  );
  assert.deepEqual(r[0]?.call?.positional[0]?.value, { kind: 'string', value: 'too long' });
  assert.deepEqual(r[1]?.call?.keywords[0]?.name, 'feedback');
  assert.deepEqual(r[1]?.call?.keywords[0]?.value, { kind: 'string', value: 'shorter' });
  assert.equal(r[2]?.call, undefined);
  assert.deepEqual(r[0]?.range, { start: { line: 4, character: 8 }, end: { line: 4, character: 36 } });
  assert.equal(r[3]?.exception?.text, 'RetryModel', 'the `from e` cause is not the exception');
});

test('raises: the bare re-raise is recorded', async () => {
  const m = await modelOf(py`
    async def f(p):
        try:
            pass
        except Exception:
            raise
  `);
  assert.deepEqual(
    fn(m, 'f').body.raises.map((x) => [x.isReraise, x.inExceptHandler, x.exception]),
    [[true, true, undefined]],
  );
});

test('returns: bare, None, value with ref and call', async () => {
  const m = await modelOf(py`
    async def f(p):
        if p.a:
            return
        if p.b:
            return None
        if p.c:
            return p
        return await p.model_copy(update={"x": 1})
  `);
  const rs = fn(m, 'f').body.returns;
  assert.deepEqual(
    rs.map((x) => [x.bare, x.returnsNone, x.value?.text]),
    [
      [true, true, undefined],
      [false, true, 'None'],
      [false, false, 'p'],
      [false, false, 'await p.model_copy(update={"x": 1})'],
    ],
  );
  assert.equal(rs[2]?.value?.ref?.text, 'p');
  assert.equal(rs[3]?.value?.call?.callee.text, 'p.model_copy');
  assert.equal(rs[3]?.value?.call?.awaited, true);
});

test('calls: all calls with awaited, nested defs/classes/lambdas excluded', async () => {
  const m = await modelOf(py`
    import asyncio, time
    async def f(p):
        await asyncio.sleep(1)
        time.sleep(g(2))
        def inner():
            time.sleep(5)
        class K:
            x = time.sleep(6)
        cb = lambda: time.sleep(7)
        x = [h(i) for i in range(3)]
  `);
  const calls = fn(m, 'f').body.calls;
  assert.deepEqual(
    calls.map((c) => [c.callee.text, c.awaited]),
    [
      ['asyncio.sleep', true],
      ['time.sleep', false],
      ['g', false],
      ['h', false],
      ['range', false],
    ],
  );
  assert.equal(calls[0]?.callee.qualified, 'asyncio.sleep');
});

test('calls: star arguments are flagged', async () => {
  const m = await modelOf('def f(p):\n    g(*a)\n    h(**k)\n    i(1, x=2)\n');
  assert.deepEqual(
    fn(m, 'f').body.calls.map((c) => c.hasStarArgs),
    [true, true, false],
  );
});

test('model_copy: update keys with ranges and literal values, nested dicts, dynamic updates', async () => {
  const m = await modelOf(py`
    async def f(payload, request):
        a = payload.model_copy(update={"arguments": {"q": "x"}, "model_settings": {"temperature": 0.2}})
        b = request.model_copy(update=changes)
        c = payload.model_copy()
        d = payload.model_copy(update={**base, "x": 1})
        return a
  `);
  const mc = fn(m, 'f').body.modelCopies;
  assert.equal(mc.length, 4);
  assert.equal(mc[0]?.receiver, 'payload');
  assert.deepEqual(
    mc[0]?.updateEntries?.map((e) => e.key),
    ['arguments', 'model_settings'],
  );
  assert.deepEqual(mc[0]?.updateEntries?.[0]?.keyRange, {
    start: { line: 1, character: 35 },
    end: { line: 1, character: 46 },
  });
  assert.deepEqual(mc[0]?.updateEntries?.[1]?.value, {
    kind: 'dict',
    entries: [
      {
        key: 'temperature',
        keyRange: { start: { line: 1, character: 79 }, end: { line: 1, character: 92 } },
        value: { kind: 'number', value: 0.2, isInteger: false },
        valueRange: { start: { line: 1, character: 94 }, end: { line: 1, character: 97 } },
      },
    ],
  });
  assert.equal(mc[0]?.updateIsDynamic, false);
  assert.deepEqual(
    [mc[1]?.receiver, mc[1]?.updateEntries, mc[1]?.updateIsDynamic],
    ['request', undefined, true],
  );
  assert.deepEqual([mc[2]?.updateEntries, mc[2]?.updateIsDynamic], [undefined, false]);
  assert.equal(mc[3]?.updateIsDynamic, true);
});

test('writes: assign, augmented, delete, subscript, mutating calls', async () => {
  const m = await modelOf(py`
    async def f(payload, context):
        payload.text = "x"
        payload.count += 1
        del payload.extra
        payload.arguments["k"] = 1
        del payload.arguments["k"]
        context.arguments["k"] = 2
        context.arguments.update({"a": 1})
        payload.messages.append({"role": "user"})
        payload.messages[0].content = "y"
        a, payload.b = 1, 2
        local = 3
        items.append(1)
  `);
  const w = fn(m, 'f').body.writes;
  assert.deepEqual(
    w.map((x) => [x.root, x.path.join('.'), x.kind, x.method]),
    [
      ['payload', 'text', 'assign', undefined],
      ['payload', 'count', 'augmented-assign', undefined],
      ['payload', 'extra', 'delete', undefined],
      ['payload', 'arguments', 'subscript-assign', undefined],
      ['payload', 'arguments', 'subscript-delete', undefined],
      ['context', 'arguments', 'subscript-assign', undefined],
      ['context', 'arguments', 'mutating-call', 'update'],
      ['payload', 'messages', 'mutating-call', 'append'],
      ['payload', 'messages.content', 'assign', undefined],
      ['payload', 'b', 'assign', undefined],
      ['items', '', 'mutating-call', 'append'],
    ],
  );
  assert.deepEqual(w[0]?.range, { start: { line: 1, character: 4 }, end: { line: 1, character: 22 } });
});

test('isStub: ..., pass, docstring; not a real body', async () => {
  const m = await modelOf(py`
    def a(): ...
    def b():
        pass
    def c():
        """Doc."""
        ...
    def d():
        return 1
    def e():
        """Only a docstring."""
  `);
  assert.deepEqual(
    ['a', 'b', 'c', 'd', 'e'].map((n) => fn(m, n).body.isStub),
    [true, true, true, false, true],
  );
});

test('bindings (#41): plain assignments keep their value; loops, with-as, :=, unpacking bind without one', async () => {
  const m = await modelOf(py`
    async def f(self, context):
        args = context.arguments
        self.args = context . arguments
        built = await Payload.model_construct(text="x")
        a, (b, *c) = 1, (2, 3)
        for item in context.items:
            pass
        with open("x") as fh:
            pass
        if (n := len(args)) > 1:
            pass
        args["k"] = 1
        self.args.x = 2
        first = second = "s"
        def nested():
            hidden = 1
  `);
  const bindings = fn(m, 'f').body.bindings.map((b) => [
    b.target,
    b.value?.text ?? null,
    b.value?.callee ?? null,
  ]);
  assert.deepEqual(bindings, [
    ['args', 'context.arguments', null],
    ['self.args', 'context.arguments', null],
    ['built', 'Payload.model_construct(text="x")', 'Payload.model_construct'],
    ['a', null, null],
    ['b', null, null],
    ['c', null, null],
    ['item', null, null],
    ['fh', null, null],
    ['n', null, null],
    ['first', null, null],
    ['second', '"s"', null],
  ]);
  assert.equal(fn(m, 'f').body.bindings[4]!.value, undefined);
});

test("attribute reads (#41): chains of names with each name's range; calls and subscripts end a chain", async () => {
  const m = await modelOf(py`
    async def f(call):
        x = call.argumentz.get("k")
        y = call.a[0].b
        z = make().c
        w = f"{call.text}"
  `);
  const reads = fn(m, 'f').body.attributeReads;
  assert.deepEqual(
    reads.map((r) => [
      r.root,
      r.path.join('.'),
      r.ranges.map((g) => `${g.start.line}:${g.start.character}`).join(' '),
    ]),
    [
      ['call', 'argumentz.get', '1:13 1:23'],
      ['call', 'a', '2:13'],
      ['call', 'text', '4:16'],
    ],
  );
});
