// Applying a rule's first fix (repeatedly, up to 3 rounds) yields valid Python on which that rule is quiet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, parseModule, py } from './helpers';

const CASES: [code: string, source: string][] = [
  [
    'sync-handler',
    py`
    from rasa.mantle.hooks import ToolCallPayload, modify_tool_call

    @modify_tool_call()
    def guard(call: ToolCallPayload) -> ToolCallPayload:
        return call
  `,
  ],
  [
    'missing-parentheses',
    py`
    import rasa.mantle.hooks as mh

    @mh.on_turn_started
    async def mark(p: mh.TurnStartedPayload) -> None: ...
  `,
  ],
  [
    'unknown-import',
    py`
    from rasa.mantle.hooks import on_tool_cal, ToolCallPayload

    @on_tool_cal()
    async def audit(call: ToolCallPayload) -> None: ...
  `,
  ],
  [
    'unknown-hook-point',
    py`
    from rasa.mantle.hooks import ToolResultPayload

    @modify_tool_result()
    async def redact(r: ToolResultPayload) -> ToolResultPayload:
        return r
  `,
  ],
  [
    'payload-annotation',
    py`
    from rasa.mantle.hooks import (
        modify_knowledge_query,
    )

    @modify_knowledge_query()
    async def expand(q: "KnowledgeResultsPayload") -> None:
        return q
  `,
  ],
  [
    'return-annotation',
    py`
    from rasa.mantle.hooks import ModelResponsePayload, modify_model_response

    @modify_model_response()
    async def ground(r: ModelResponsePayload):
        return r
  `,
  ],
  [
    'unsupported-control-signal',
    py`
    from rasa.mantle.hooks import HookRejection, KnowledgeResultsPayload, modify_knowledge_results

    @modify_knowledge_results()
    async def drop(p: KnowledgeResultsPayload) -> KnowledgeResultsPayload:
        if not p.passages:
            raise HookRejection(reason="nothing")
        return p
  `,
  ],
  [
    'invalid-timeout',
    py`
    from rasa.mantle.hooks import ToolCallPayload, on_tool_call

    @on_tool_call(timeout=250)
    async def audit(call: ToolCallPayload) -> None: ...
  `,
  ],
  [
    'readonly-field-write',
    py`
    from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text

    @modify_outgoing_text()
    async def rewrite(payload: OutgoingTextPayload) -> OutgoingTextPayload:
        return payload.model_copy(update={"txt": payload.text.strip()})
  `,
  ],
  [
    'model-settings-key',
    py`
    from rasa.mantle.hooks import ModelRequestPayload, modify_model_request

    @modify_model_request()
    async def cool(r: ModelRequestPayload) -> ModelRequestPayload:
        return r.model_copy(update={"model_settings": {"max_token": 100}})
  `,
  ],
];

for (const [code, source] of CASES) {
  test(`${code}: its first fix converges (rule quiet, module still parses)`, async () => {
    let text = source;
    for (let round = 0; round < 3; round++) {
      const diags = await diagnose(code, text);
      if (diags.length === 0) break;
      assert.ok(diags[0].fixes?.length, `${code} offers a fix: ${diags[0].message}`);
      text = applyFix(text, diags[0]);
    }
    assert.notEqual(text, source);
    assert.deepEqual(await diagnose(code, text), [], text);
    assert.deepEqual(parseModule(text).syntaxErrors, [], text);
  });
}
