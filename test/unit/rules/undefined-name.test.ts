import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

const CODE = 'undefined-name';

describe(CODE, () => {
  it('flags names evaluated at import time: decorator, default, annotations, base, class body, module code', async () => {
    const src = py`
      from rasa.mantle.hooks import ToolCallPayload

      LIMIT = undefined_limit

      @guard_decorator()
      async def a(call: ToolCallPayload, retries=DEFAULT_RETRIES) -> Result:
          return not_checked_in_a_body

      class Hook(BaseHook):
          size = SIZE_UNDEFINED
    `;
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['undefined_limit', 'guard_decorator', 'DEFAULT_RETRIES', 'Result', 'BaseHook', 'SIZE_UNDEFINED'],
    );
    assert.ok(ds.every((d) => d.severity === 'error'));
    assert.match(ds[1]!.message, /decorator.*NameError/);
  });

  it('reports nothing in function bodies, for builtins, imports, bound names and string annotations', async () => {
    const src = py`
      import os.path
      import json as j
      from typing import Optional
      from lib.x import helper as h

      try:
          import ujson as fast
      except ImportError:
          fast = None

      if os.environ.get("X"):
          MODE = "a"
      else:
          MODE = "b"

      TABLE = {k: v for k, v in os.environ.items()}
      TOTAL = sum(x for x in range(3))
      (WALRUS := 3)
      for i, (a, b) in enumerate([(1, 2)]):
          PAIR = a + b
      with open(__file__) as fh, open(__file__) as (g):
          pass

      def later(x: "NotYetDefined" = None, *args: int, **kw: Optional[str]) -> "Other":
          return also_not_checked + h + j + fast + MODE

      class Base:
          X = 1
          Y = X + len(__name__)

          @property
          def p(self) -> int:
              return 1

          @p.setter
          def p(self, v: int = X) -> None:
              pass

      def set_global():
          global LATE
          LATE = 1

      print(LATE, TABLE, TOTAL, WALRUS, PAIR, i, fh, g, print, __doc__)
    `;
    assert.deepEqual(await diagnose(CODE, src), []);
  });

  it('defers annotations under `from __future__ import annotations`, not decorators or defaults', async () => {
    const src = py`
      from __future__ import annotations

      @missing
      def f(x: Deferred = MissingDefault) -> AlsoDeferred:
          pass
    `;
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['missing', 'MissingDefault'],
    );
  });

  it('says nothing where a name may come from elsewhere: star imports, globals(), guarded blocks', async () => {
    for (const src of [
      'from lib.names import *\n\n@anything\ndef f(): pass\n',
      'globals()["made"] = 1\n\n@made\ndef f(): pass\n',
      'from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    use(unknown)\ntry:\n    unknown2\nexcept NameError:\n    pass\n',
      'def f(:\n    pass\n@broken\ndef g(): pass\n',
    ])
      assert.deepEqual(await diagnose(CODE, src), [], src);
  });

  it('offers the import for a hook-API type, merged into the module imports', async () => {
    const src = py`
      from rasa.mantle.hooks import modify_tool_call


      @modify_tool_call()
      async def a(call: ToolCallPayload) -> ToolCallPayload:
          return call
    `;
    const ds = await diagnose(CODE, src);
    expectAt(ds, ['5:19', '5:39']);
    assert.equal(ds[0]!.fixes![0]!.title, 'Import ToolCallPayload from rasa.mantle.hooks');
    const fixed = applyFix(src, ds[0]!);
    assert.match(fixed, /^from rasa\.mantle\.hooks import ToolCallPayload, modify_tool_call$/m);
    assert.deepEqual(await diagnose(CODE, fixed), []);
  });

  it('offers the Cayu import through the module own Cayu path', async () => {
    const src = py`
      from cayu.runtime.hooks import RuntimeHook


      class Guard(RuntimeHook):
          async def before_tool_call(self, context: BeforeToolCallHookContext):
              return None
    `;
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 1);
    const fixed = applyFix(src, ds[0]!);
    assert.match(fixed, /^from cayu\.runtime\.hooks import BeforeToolCallHookContext, RuntimeHook$/m);
    assert.deepEqual(await diagnose(CODE, fixed), []);
  });
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
ruleTester('undefined-name', {
  docsExample: {
    errors: [
      { messageId: 'notDefined', line: 5, column: 23 },
      { messageId: 'notDefined', line: 5, column: 43 },
    ],
  },
  invalid: [
    {
      name: 'module-level code and a base class',
      code: 'x = json.dumps({})\n\n\nclass A(Base):\n    pass\n',
      errors: [
        { messageId: 'notDefined', line: 1, column: 5 },
        { messageId: 'notDefined', line: 4, column: 9 },
      ],
    },
  ],
});
