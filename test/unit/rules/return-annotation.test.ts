import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('return-annotation: observe must be None; modify must be the payload type; missing counts', async () => {
  const src = py`
    from rasa.mantle.hooks import (
        KnowledgeResultsPayload,
        modify_knowledge_results,
        on_knowledge_results,
    )

    @on_knowledge_results()
    async def log(p: KnowledgeResultsPayload) -> KnowledgeResultsPayload:
        return p

    @modify_knowledge_results()
    async def drop(p: KnowledgeResultsPayload) -> None:
        return p

    @modify_knowledge_results()
    async def missing(p: KnowledgeResultsPayload):
        return p

    @on_knowledge_results()
    async def missing_observe(p: KnowledgeResultsPayload):
        return None
  `;
  const diags = await diagnose('return-annotation', src);
  expectAt(diags, ['8:46', '12:47', '16:11', '20:11']);
  assert.ok(diags.every((d) => d.severity === 'error'));
  assert.match(
    diags[0].message,
    /Observe hook `log` is annotated `-> KnowledgeResultsPayload`; observe hooks return None/,
  );
  assert.equal(
    applyFix(src, diags[0]),
    src.replace(
      '-> KnowledgeResultsPayload:\n    return p\n\n@modify_knowledge_results()\nasync def drop',
      '-> None:\n    return p\n\n@modify_knowledge_results()\nasync def drop',
    ),
  );
  assert.match(
    diags[1].message,
    /`modify_knowledge_results` hook `drop` must return `KnowledgeResultsPayload`, not `None`/,
  );
  assert.equal(rangeText(src, diags[2]), 'missing');
  assert.equal(
    applyFix(src, diags[2]),
    src.replace(
      'missing(p: KnowledgeResultsPayload):',
      'missing(p: KnowledgeResultsPayload) -> KnowledgeResultsPayload:',
    ),
  );
  assert.equal(
    applyFix(src, diags[3]),
    src.replace(
      'missing_observe(p: KnowledgeResultsPayload):',
      'missing_observe(p: KnowledgeResultsPayload) -> None:',
    ),
  );
});

test('return-annotation: Optional return on a modify hook is wrong (None is an invalid return)', async () => {
  const src = py`
    import rasa.mantle.hooks as mh

    @mh.modify_outgoing_text()
    async def rewrite(payload: mh.OutgoingTextPayload) -> mh.OutgoingTextPayload | None:
        return payload
  `;
  const diags = await diagnose('return-annotation', src);
  expectAt(diags, ['4:55']);
  assert.match(diags[0].message, /returning None is an invalid return/);
  assert.equal(
    applyFix(src, diags[0]),
    src.replace('mh.OutgoingTextPayload | None', 'mh.OutgoingTextPayload'),
  );
});

test('return-annotation: quiet on string and aliased forms, and on correct hooks', async () => {
  const src = py`
    from __future__ import annotations
    from rasa.mantle.hooks import IncomingMessagePayload as Msg, modify_incoming_message, on_incoming_message

    @modify_incoming_message()
    async def a(m: Msg) -> "Msg":
        return m

    @on_incoming_message()
    async def b(m: Msg) -> None: ...
  `;
  assert.deepEqual(await diagnose('return-annotation', src), []);
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
ruleTester('return-annotation', {
  docsExample: { errors: [{ messageId: 'missing', line: 5, column: 11 }] },
  invalid: [
    {
      name: 'Optional, an observe hook returning bool, other payload types',
      code: annotations,
      errors: [
        { messageId: 'optionalType', line: 12, column: 58 },
        { messageId: 'observeNotNone', line: 17, column: 39 },
        { messageId: 'wrongType', line: 22, column: 39 },
        { messageId: 'wrongType', line: 27, column: 42 },
      ],
    },
    {
      name: 'the payload type not imported',
      code: unimported,
      errors: [{ messageId: 'notImported', line: 5, column: 39 }],
    },
  ],
});
