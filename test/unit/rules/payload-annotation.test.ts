import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOOK_DECORATORS, MANTLE_POINTS } from '../../../runtime/catalogue';
import { fromImportStatement } from '../../../runtime/python/import-edits';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('payload-annotation: the right payload type on every decorator of every point is quiet', async () => {
  const names = HOOK_DECORATORS.map((d) => [d.name, d.point.payloadType, d.lane] as const);
  const imports = [...new Set(names.flatMap(([n, p]) => [n, p]))].sort().join(',\n    ');
  const hooks = names
    .map(
      ([n, p, lane], i) =>
        `@${n}()\nasync def h${i}(payload: ${p}) -> ${lane === 'observe' ? 'None' : p}:\n    return ${lane === 'observe' ? 'None' : 'payload'}\n`,
    )
    .join('\n');
  const src = `from rasa.mantle.hooks import (\n    ${imports},\n)\n\n${hooks}`;
  assert.ok(names.length > MANTLE_POINTS.length, 'an observe and a modify decorator per modify point');
  assert.deepEqual(await diagnose('payload-annotation', src), []);
});

test('payload-annotation: wrong type on each point is reported on the annotation', async () => {
  for (const d of HOOK_DECORATORS) {
    const wrong = d.point.payloadType === 'ToolCallPayload' ? 'ToolResultPayload' : 'ToolCallPayload';
    const src = `from rasa.mantle.hooks import ${d.name}, ${wrong}\n\n@${d.name}()\nasync def h(payload: ${wrong}):\n    pass\n`;
    const diags = await diagnose('payload-annotation', src);
    expectAt(diags, ['4:22']);
    assert.match(
      diags[0].message,
      new RegExp(
        `\`${d.name}\` passes a \`${d.point.payloadType}\`, but \`payload\` is annotated \`${wrong}\``,
      ),
    );
    const fixed = applyFix(src, diags[0]);
    assert.equal(
      fixed,
      `${fromImportStatement('rasa.mantle.hooks', [d.name, wrong, d.point.payloadType])}\n\n@${d.name}()\nasync def h(payload: ${d.point.payloadType}):\n    pass\n`,
    );
  }
});

test('payload-annotation: missing annotation; the fix adds it into a parenthesised multi-line import', async () => {
  const src = py`
    from rasa.mantle.hooks import (
        modify_tool_call,
    )

    @modify_tool_call()
    async def guard(call):
        return call
  `;
  const diags = await diagnose('payload-annotation', src);
  expectAt(diags, ['6:17']);
  assert.equal(rangeText(src, diags[0]), 'call');
  assert.match(
    diags[0].message,
    /has no type annotation; `modify_tool_call` hooks must declare `call: ToolCallPayload`/,
  );
  assert.equal(
    applyFix(src, diags[0]),
    py`
      from rasa.mantle.hooks import (
          modify_tool_call,
          ToolCallPayload,
      )

      @modify_tool_call()
      async def guard(call: ToolCallPayload):
          return call
    `,
  );
});

test('payload-annotation: string annotations, future annotations, aliases and `mh.` resolve', async () => {
  const src = py`
    from __future__ import annotations
    import rasa.mantle.hooks as mh
    from rasa.mantle import hooks
    from rasa.mantle.hooks import ToolResultPayload as Result, on_tool_result as audit

    @audit()
    async def a(r: Result) -> None: ...

    @mh.on_tool_call()
    async def b(c: "mh.ToolCallPayload") -> None: ...

    @hooks.on_knowledge_results()
    async def c(r: 'hooks.KnowledgeResultsPayload') -> None: ...

    @mh.on_model_request()
    async def d(r: "ModelResponsePayload") -> None: ...
  `;
  const diags = await diagnose('payload-annotation', src);
  expectAt(diags, ['16:16']);
  // Not imported at all and the wrong type: the fix names the right type through the module alias.
  assert.equal(applyFix(src, diags[0]), src.replace('"ModelResponsePayload"', '"mh.ModelRequestPayload"'));
});

test('payload-annotation: Optional payload and a plain dict are wrong; the fix replaces the whole annotation', async () => {
  const src = py`
    from typing import Optional
    from rasa.mantle.hooks import ModelRequestPayload, modify_model_request, on_model_request

    @on_model_request()
    async def a(r: Optional[ModelRequestPayload]) -> None: ...

    @modify_model_request()
    async def b(r: dict) -> ModelRequestPayload:
        return r
  `;
  const diags = await diagnose('payload-annotation', src);
  expectAt(diags, ['5:16', '8:16']);
  assert.match(diags[0].message, /\(it allows None\)/);
  assert.equal(applyFix(src, diags[0]), src.replace('Optional[ModelRequestPayload]', 'ModelRequestPayload'));
  assert.equal(applyFix(src, diags[1]), src.replace('r: dict', 'r: ModelRequestPayload'));
});

test('payload-annotation: a payload type used without any import: with a plain `import rasa.mantle.hooks` the fix qualifies it', async () => {
  const src = py`
    import structlog
    import rasa.mantle.hooks

    @rasa.mantle.hooks.on_turn_started()
    async def mark(payload: TurnStartedPayload) -> None: ...
  `;
  const diags = await diagnose('payload-annotation', src);
  expectAt(diags, ['5:25']);
  assert.match(diags[0].message, /`TurnStartedPayload` is not imported/);
  assert.equal(
    applyFix(src, diags[0]),
    src.replace('payload: TurnStartedPayload', 'payload: rasa.mantle.hooks.TurnStartedPayload'),
  );
});

test('payload-annotation: bare decorator and payload with no import at all: a new import line below the last import', async () => {
  const src = py`
    """Turn timing."""
    import structlog

    @on_turn_started()
    async def mark(payload: TurnStartedPayload) -> None: ...
  `;
  const diags = await diagnose('payload-annotation', src);
  expectAt(diags, ['5:25']);
  assert.equal(
    applyFix(src, diags[0]),
    src.replace('import structlog\n', 'import structlog\nfrom rasa.mantle.hooks import TurnStartedPayload\n'),
  );
});

test('payload-annotation: add-import fix writes a new import line below the imports', async () => {
  const src = py`
    import structlog
    from rasa.mantle.hooks import on_turn_started

    @on_turn_started()
    async def mark(payload: TurnStartedPayload) -> None: ...
  `;
  const diags = await diagnose('payload-annotation', src);
  assert.equal(
    applyFix(src, diags[0]),
    src.replace(
      'from rasa.mantle.hooks import on_turn_started',
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started',
    ),
  );
  const noImport = py`
    import structlog
    import rasa.mantle.hooks as mh

    @mh.on_turn_started()
    async def mark(payload) -> None: ...
  `;
  const d2 = await diagnose('payload-annotation', noImport);
  assert.equal(applyFix(noImport, d2[0]), noImport.replace('(payload)', '(payload: mh.TurnStartedPayload)'));
});

test('payload-annotation: the import goes above the first definition, not after a late import at the end', async () => {
  const src =
    '@on_turn_started()\nasync def mark(payload: TurnStartedPayload) -> None: ...\nimport structlog';
  const diags = await diagnose('payload-annotation', src);
  expectAt(diags, ['2:25']);
  assert.equal(applyFix(src, diags[0]), `from rasa.mantle.hooks import TurnStartedPayload\n\n${src}`);
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
const annotations = py`
    from typing import Optional

    from rasa.mantle.hooks import ModelResponsePayload, ToolCallPayload, modify_model_response, modify_tool_call, on_tool_call


    @modify_tool_call()
    async def a(call) -> ToolCallPayload:
        return call


    @modify_model_response()
    async def b(response: Optional[ModelResponsePayload]) -> Optional[ModelResponsePayload]:
        return response


    @on_tool_call()
    async def c(call: ToolCallPayload) -> bool:
        return True


    @modify_tool_call()
    async def d(call: ToolCallPayload) -> ModelResponsePayload:
        return call


    @modify_tool_call()
    async def e(call: TurnStartedPayload) -> TurnStartedPayload:
        return call
`;
const unimported = py`
    from rasa.mantle.hooks import modify_tool_call


    @modify_tool_call()
    async def f(call: ToolCallPayload) -> ToolCallPayload:
        return call
`;
ruleTester('payload-annotation', {
  docsExample: { errors: [{ messageId: 'wrongType', line: 5, column: 23 }] },
  invalid: [
    {
      name: 'missing, Optional and another payload type',
      code: annotations,
      errors: [
        { messageId: 'missing', line: 7, column: 13 },
        { messageId: 'wrongType', line: 12, column: 23 },
        { messageId: 'wrongType', line: 27, column: 19 },
      ],
    },
    {
      name: 'the payload type not imported',
      code: unimported,
      errors: [{ messageId: 'notImported', line: 5, column: 19 }],
    },
  ],
});
