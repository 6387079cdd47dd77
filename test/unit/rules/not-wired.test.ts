import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, expectAt, py, rangeText } from './helpers';

// rasa-pro 3.21.0 calls every point (runtime/catalogue/engine-lines/rasa-pro-3.21.json: processor.py:200
// apply_incoming_message_hooks, turn_context.py:417 apply_outgoing_text_hooks): the rule speaks where
// the wiredPoints setting leaves a point out.
const WITHOUT_TEXT_POINTS = {
  python: 'python3',
  resolves: () => true,
  wiredPoints: new Set([
    'turn_started',
    'turn_finished',
    'model_request',
    'model_response',
    'tool_call',
    'tool_result',
  ]),
};

test('not-wired: information on hooks of points the setting leaves out (both lanes), on the decorator', async () => {
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
  assert.deepEqual(await diagnose('not-wired', src), [], 'rasa-pro 3.21 calls both points');
  const diags = await diagnose('not-wired', src, { environment: WITHOUT_TEXT_POINTS });
  expectAt(diags, ['8:1', '12:1']);
  assert.equal(diags[0].severity, 'information');
  assert.equal(rangeText(src, diags[1]), '@on_outgoing_text(timeout_ms=50)');
  assert.match(
    diags[0].message,
    /incoming message hooks are not invoked by the hooksmith\.mantle\.wiredPoints setting: `drop_spam` will not run/,
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

const TEXT_HOOK = py`
  from rasa.mantle.hooks import IncomingMessagePayload, on_incoming_message

  @on_incoming_message()
  async def log_it(message: IncomingMessagePayload) -> None:
      return None
`;
const engine = (rasaPro: string | null) => ({ rasaPro, cayu: null, mantle: null, cayuHooks: null });

test('not-wired: follows the installed rasa-pro; the wiredPoints setting overrides it', async () => {
  const resolves = () => true;
  const installed = await diagnose('not-wired', TEXT_HOOK, {
    environment: { python: 'python3', resolves, engine: engine('3.21.4') },
  });
  assert.deepEqual(installed, [], 'rasa-pro 3.21 invokes incoming_message');
  const newer = { python: 'python3', resolves, engine: engine('3.22.0') };
  assert.deepEqual(await diagnose('not-wired', TEXT_HOOK, { environment: newer }), []);
  const overridden = await diagnose('not-wired', TEXT_HOOK, {
    environment: { ...newer, wiredPoints: new Set(['tool_call']) },
  });
  assert.match(overridden[0]!.message, /not invoked by the hooksmith\.mantle\.wiredPoints setting/);
  const unknownVersion = await diagnose('not-wired', TEXT_HOOK, {
    environment: { python: 'python3', resolves, engine: engine(null) },
  });
  assert.deepEqual(unknownVersion, []);
});
