import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('readonly-field-write: read-only, identity and unknown keys in model_copy(update=...), on the key', async () => {
  const src = py`
    from rasa.mantle.hooks import ModelRequestPayload, modify_model_request

    @modify_model_request()
    async def cool(request: ModelRequestPayload) -> ModelRequestPayload:
        return request.model_copy(
            update={
                "messages": request.messages,
                "tool_names": [],
                'sender_id': "someone",
                "mesages": [],
            }
        )
  `;
  const diags = await diagnose('readonly-field-write', src);
  expectAt(diags, ['8:13', '9:13', '10:13']);
  assert.equal(diags[0].severity, 'warning');
  assert.equal(rangeText(src, diags[0]), '"tool_names"');
  assert.match(
    diags[0].message,
    /`modify_model_request` cannot change `tool_names`: it is a read-only view: hooks cannot change which tools the LLM is offered\. Its mutable fields are `messages` and `model_settings`\./,
  );
  assert.match(
    diags[1].message,
    /cannot change `sender_id`: it is engine-owned identity: the runner restores it from the original input/,
  );
  assert.match(
    diags[2].message,
    /`mesages` is not a field of `ModelRequestPayload` \(did you mean `messages`\?\); model_copy does not validate update keys/,
  );
  assert.equal(applyFix(src, diags[2]), src.replace('"mesages"', '"messages"'));
});

test('readonly-field-write: attribute writes on the payload parameter (per payload type mutability)', async () => {
  const src = py`
    import rasa.mantle.hooks as mh

    @mh.modify_tool_result()
    async def redact(result: mh.ToolResultPayload) -> mh.ToolResultPayload:
        result.tool_name = "other"
        result.value = "redacted"
        result.nonsense = 1
        return result

    @mh.modify_knowledge_results()
    async def kr(p: mh.KnowledgeResultsPayload) -> mh.KnowledgeResultsPayload:
        return p.model_copy(update={"query": "x", "passages": []})
  `;
  const diags = await diagnose('readonly-field-write', src);
  expectAt(diags, ['5:5', '7:5', '12:33']);
  assert.match(diags[0].message, /cannot change `tool_name`: it is read-only/);
  assert.match(
    diags[1].message,
    /`nonsense` is not a field of `ToolResultPayload`; assigning it raises .*fail-open: the engine keeps the original tool result/,
  );
  assert.match(diags[2].message, /`modify_knowledge_results` cannot change `query`/);
});

test('readonly-field-write: quiet on mutable fields, other receivers, and observe hooks (observe-mutation covers them)', async () => {
  const src = py`
    from rasa.mantle.hooks import ToolCallPayload, modify_tool_call, on_tool_call

    @modify_tool_call()
    async def a(call: ToolCallPayload) -> ToolCallPayload:
        other = {"x": 1}
        call.arguments["card_id"] = "c"
        return call.model_copy(update={"tool_name": "t", "arguments": {}})

    @on_tool_call()
    async def b(call: ToolCallPayload) -> None:
        call.sender_id = "x"
  `;
  assert.deepEqual(await diagnose('readonly-field-write', src), []);
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
const writes = py`
    from rasa.mantle.hooks import ModelRequestPayload, modify_model_request


    @modify_model_request()
    async def a(request: ModelRequestPayload) -> ModelRequestPayload:
        request.temprature = 0
        request.tool_names = []
        return request.model_copy(update={"mesages": [], "zzzzzzzzzzzz": 1})
`;
ruleTester('readonly-field-write', {
  docsExample: { errors: [{ messageId: 'readonlyUpdateKey', line: 6, column: 39 }] },
  invalid: [
    {
      name: 'unknown and read-only fields, assigned and in model_copy',
      code: writes,
      errors: [
        { messageId: 'misspeltUpdateKey', line: 8, column: 39 },
        { messageId: 'unknownUpdateKey', line: 8, column: 54 },
        { messageId: 'unknownAttribute', line: 6, column: 5 },
        { messageId: 'readonlyWrite', line: 7, column: 5 },
      ],
    },
  ],
});
