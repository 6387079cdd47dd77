import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('missing-return: falling off the end (on the name) and bare / None returns (on the return), with the fail effect', async () => {
  const src = py`
    from rasa.mantle.hooks import ModelRequestPayload, ModelResponsePayload, modify_model_request, modify_model_response

    @modify_model_request()
    async def cool(request: ModelRequestPayload) -> ModelRequestPayload:
        if request.iteration > 2:
            return request.model_copy(update={"model_settings": {"temperature": 0}})

    @modify_model_response()
    async def ground(response: ModelResponsePayload) -> ModelResponsePayload:
        if not response.text:
            return
        if response.text == "x":
            return None
        return response
  `;
  const diags = await diagnose('missing-return', src);
  expectAt(diags, ['4:11', '11:9', '13:9']);
  assert.equal(diags[0].severity, 'warning');
  assert.equal(rangeText(src, diags[0]), 'cool');
  assert.match(
    diags[0].message,
    /can reach the end of its body without returning .*fail-closed: the LLM call is skipped and the user hears utter_model_request_hook_error\. Return `request` on every path\./,
  );
  assert.match(
    diags[1].message,
    /returns None here; .*fail-open: the engine keeps the original response and continues\. Return `response`/,
  );
});

test('missing-return: quiet when every path returns or raises, and on observe hooks', async () => {
  const src = py`
    from rasa.mantle.hooks import RetryModel, ToolCallPayload, modify_tool_call, on_tool_call

    @modify_tool_call()
    async def steer(call: ToolCallPayload) -> ToolCallPayload:
        if call.tool_name == "place_order" and not call.arguments.get("card_id"):
            raise RetryModel(feedback="Call place_order with a card_id.")
        if call.tool_name == "x":
            return call.model_copy(update={"arguments": {}})
        else:
            return call

    @on_tool_call()
    async def audit(call: ToolCallPayload) -> None:
        print(call.tool_name)
  `;
  assert.deepEqual(await diagnose('missing-return', src), []);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('missing-return', {
  docsExample: { errors: [{ messageId: 'fallsOffEnd', line: 5, column: 11 }] },
});
