import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, expectAt, py, rangeText } from './helpers';

test('not-wired: information on incoming_message and outgoing_text hooks (both lanes), on the decorator', async () => {
  const src = py`
    from rasa.mantle.hooks import (
        IncomingMessagePayload,
        OutgoingTextPayload,
        modify_incoming_message,
        on_outgoing_text,
    )

    @modify_incoming_message()
    async def drop_spam(message: IncomingMessagePayload) -> IncomingMessagePayload:
        return message

    @on_outgoing_text(timeout_ms=50)
    async def log_text(payload: OutgoingTextPayload) -> None:
        return None
  `;
  const diags = await diagnose('not-wired', src);
  expectAt(diags, ['8:1', '12:1']);
  assert.equal(diags[0].severity, 'information');
  assert.equal(rangeText(src, diags[1]), '@on_outgoing_text(timeout_ms=50)');
  assert.match(
    diags[0].message,
    /the engine does not invoke incoming message hooks yet: `drop_spam` will not run/,
  );
  assert.match(diags[1].message, /outgoing text/);
});

test('not-wired: quiet on wired points', async () => {
  const src = py`
    from rasa.mantle.hooks import ToolResultPayload, on_tool_result

    @on_tool_result()
    async def audit(result: ToolResultPayload) -> None:
        return None
  `;
  assert.deepEqual(await diagnose('not-wired', src), []);
});
