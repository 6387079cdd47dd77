// HookRejection(response_message=...) names the response the user receives instead of the packaged
// fallback (rasa/mantle/orchestration/hooks/incoming_message.py:123, outgoing_text.py:63): the
// simulated transcript shows it, in emulation mode and with rasa-pro's runner playing the calls.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createHookRunner } from '../../runtime/engine/runner';
import { pythonWith } from '../python-envs';

const HOOKS = `from rasa.mantle.hooks import HookRejection, IncomingMessagePayload, OutgoingTextPayload, modify_incoming_message, modify_outgoing_text


@modify_incoming_message()
async def refuse_cards(message: IncomingMessagePayload) -> IncomingMessagePayload:
    if "card number" in message.text:
        raise HookRejection(reason="card number in the message", response_message="utter_no_card_numbers")
    return message


@modify_outgoing_text()
async def refuse_secrets(message: OutgoingTextPayload) -> OutgoingTextPayload:
    if "secret" in message.text:
        raise HookRejection(reason="a secret")
    return message
`;

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-rejection-'));
writeFileSync(join(dir, 'hooks.py'), HOOKS);
after(() => rmSync(dir, { recursive: true, force: true }));

const MODES = {
  emulation: pythonWith(['json'], { envs: ['tools'] }),
  real: pythonWith(['rasa.mantle.hooks'], { envs: ['engines'], onlyEnvs: true }),
};

for (const [mode, env] of Object.entries(MODES)) {
  test(
    `${mode} mode: the user receives the response HookRejection.response_message names, else the packaged fallback`,
    { skip: env.skip ?? false },
    async () => {
      const runner = createHookRunner({ python: env.python!, workspaceRoots: () => [dir] });
      try {
        const named = await runner.simulate(
          { user: 'my card number is 4111', completions: [{ text: 'ok' }] },
          dir,
        );
        const bot = named.transcript.filter((e) => e.role === 'bot');
        assert.deepEqual(
          bot.map((e) => [e.text, e.fallback]),
          [
            [
              'utter_no_card_numbers (the response HookRejection.response_message names)',
              'utter_no_card_numbers',
            ],
          ],
        );
        if (mode === 'real') assert.match(named.mantlePlayedBy ?? '', /^rasa-pro 3\.21\.0 hook runner$/);
        const packaged = await runner.simulate(
          { user: 'hi', completions: [{ text: 'the secret is 42' }] },
          dir,
        );
        assert.deepEqual(
          packaged.transcript.filter((e) => e.role === 'bot').map((e) => e.fallback),
          ['outgoing-text fallback'],
        );
      } finally {
        await runner.dispose();
      }
    },
  );
}
