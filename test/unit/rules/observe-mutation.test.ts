import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('observe-mutation: writes to the payload and non-None returns in observe hooks, tagged unnecessary', async () => {
  const src = py`
    from rasa.mantle.hooks import ModelRequestPayload, TurnStartedPayload, on_model_request, on_turn_started

    @on_model_request()
    async def log_request(request: ModelRequestPayload) -> None:
        request.messages.append({"role": "system", "content": "x"})
        request.model_settings["temperature"] = 0
        return request

    @on_turn_started()
    async def mark(payload: TurnStartedPayload) -> None:
        payload.turn_id = "t1"
  `;
  const diags = await diagnose('observe-mutation', src);
  expectAt(diags, ['5:5', '6:5', '7:12', '11:5']);
  assert.ok(diags.every((d) => d.severity === 'warning' && d.tags?.includes('unnecessary')));
  assert.match(
    diags[0].message,
    /`request\.messages\.append\(…\)` changes an independent copy of the payload; the change has no effect on the turn; to change it, use `modify_model_request`/,
  );
  assert.equal(rangeText(src, diags[2]), 'request');
  assert.match(diags[2].message, /returns `request`, which the engine discards/);
  assert.match(diags[3].message, /the turn started point has no modify lane/);
});

test('observe-mutation: quiet on reads, local state, None returns and modify hooks', async () => {
  const src = py`
    from rasa.mantle.hooks import ToolCallPayload, modify_tool_call, on_tool_call

    seen: dict[str, int] = {}

    @on_tool_call()
    async def audit(call: ToolCallPayload) -> None:
        args = dict(call.arguments)
        args["x"] = 1
        seen[call.sender_id] = len(args)
        if not args:
            return
        return None

    @modify_tool_call()
    async def fix(call: ToolCallPayload) -> ToolCallPayload:
        call.arguments["x"] = 1
        return call
  `;
  assert.deepEqual(await diagnose('observe-mutation', src), []);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('observe-mutation', {
  docsExample: { errors: [{ messageId: 'changesCopy', line: 6, column: 5 }] },
});
