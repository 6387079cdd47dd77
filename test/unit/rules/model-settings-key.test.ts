import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('model-settings-key: keys outside the allow-list (with did-you-mean) and wrong value types', async () => {
  const src = py`
    from rasa.mantle.hooks import ModelRequestPayload, modify_model_request

    @modify_model_request()
    async def cool(request: ModelRequestPayload) -> ModelRequestPayload:
        return request.model_copy(
            update={
                "model_settings": {
                    "temprature": 0.2,
                    "model": "gpt-4o",
                    "max_tokens": 256.0,
                    "stop": ["a", 1],
                    "seed": True,
                    "top_p": "0.9",
                    "temperature": 0,
                },
            }
        )
  `;
  const diags = await diagnose('model-settings-key', src);
  expectAt(diags, ['8:17', '9:17', '10:31', '11:25', '12:25', '13:26']);
  assert.equal(diags[0].severity, 'warning');
  assert.match(
    diags[0].message,
    /`temprature` is not an allow-listed model setting \(did you mean `temperature`\?\); the engine ignores it\. Allowed: `temperature`, `top_p`, `max_tokens`, `presence_penalty`, `frequency_penalty`, `stop` and `seed`\./,
  );
  assert.equal(applyFix(src, diags[0]), src.replace('"temprature"', '"temperature"'));
  assert.equal(diags[1].fixes, undefined);
  assert.equal(rangeText(src, diags[2]), '256.0');
  assert.match(diags[2].message, /`max_tokens` gets a float, but the engine only accepts an integer for it/);
  assert.match(
    diags[3].message,
    /`stop` gets a list, but the engine only accepts a string or a list of strings/,
  );
  assert.match(diags[4].message, /`seed` gets a bool/);
  assert.match(diags[5].message, /`top_p` gets a string, but the engine only accepts a number/);
});

test('model-settings-key: quiet on the allow-list, non-literal values, and other points', async () => {
  const src = py`
    import rasa.mantle.hooks as mh

    @mh.modify_model_request()
    async def cool(request: mh.ModelRequestPayload) -> mh.ModelRequestPayload:
        t = 0.3
        return request.model_copy(update={"model_settings": {"temperature": t, "stop": "END", "max_tokens": 10, "top_p": 1}})

    @mh.modify_tool_call()
    async def other(call: mh.ToolCallPayload) -> mh.ToolCallPayload:
        return call.model_copy(update={"arguments": {"model": "x"}})
  `;
  assert.deepEqual(await diagnose('model-settings-key', src), []);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('model-settings-key', {
  docsExample: { errors: [{ messageId: 'notAllowedDidYouMean', line: 6, column: 58 }] },
});
