// One app per scenario / payload case (#29 item 1, #34 item 8), with a real python3: a Cayu hook
// instance serves every call, batch and turn of its scenario (a counting guard blocks the third
// call of a conversation); each scenario and payload case starts from freshly imported modules,
// whatever ran before in the same warm host.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createHookRunner } from '../../runtime/engine/runner';

const root = mkdtempSync(join(tmpdir(), 'hooksmith-app-'));
const runner = createHookRunner();
after(async () => {
  await runner.dispose();
  rmSync(root, { recursive: true, force: true });
});

writeFileSync(
  join(root, 'runtime_hooks.py'),
  `from cayu.runtime import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook

CALLS = 0


class Quota(RuntimeHook):
    """Two calls per app: the instance counts."""

    def __init__(self):
        self.calls = 0

    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        global CALLS
        CALLS += 1
        self.calls += 1
        print(f"instance={self.calls} module={CALLS}")
        if self.calls > 2:
            return BeforeToolCallDecision(action="block", block_reason="quota reached")
        return None
`,
);
writeFileSync(
  join(root, 'hooks.py'),
  `from rasa.mantle.hooks import TurnStartedPayload, on_turn_started

SEEN = 0


@on_turn_started()
async def count(payload: TurnStartedPayload) -> None:
    global SEEN
    SEEN += 1
    print(f"seen={SEEN}")
`,
);

const call = { tool_name: 'lookup', tool_args: { q: 'x' } };
const turn = (user: string) => ({ user, completions: [{ tool_calls: [call] }, { text: 'ok' }] });
const conversation = {
  tools: { lookup: { value: 'found' } },
  turns: [turn('one'), turn('two'), turn('three')],
};

const guardLines = (r: Awaited<ReturnType<typeof runner.simulate>>) =>
  r.events.filter((e) => e.point === 'before_tool_call').map((e) => e.output?.trim());

test('a conversation: one Quota instance for its three turns blocks the third call', async () => {
  const r = await runner.simulate(conversation, root);
  assert.deepEqual(guardLines(r), ['instance=1 module=1', 'instance=2 module=2', 'instance=3 module=3']);
  assert.deepEqual(
    (r.tools ?? []).map((t) => t.turn),
    [1, 2],
    'the third call was blocked',
  );
});

test('the next scenario in the same warm host starts a new app: a new instance and fresh module globals', async () => {
  const r = await runner.simulate({ ...conversation, turns: [turn('again')] }, root);
  assert.deepEqual(guardLines(r), ['instance=1 module=1']);
  assert.deepEqual(
    r.events.filter((e) => e.point === 'turn_started').map((e) => e.output?.trim()),
    ['seen=1'],
  );
});

test('a payload case after a conversation sees a module global as a fresh start of the engine would', async () => {
  await runner.simulate(conversation, root);
  const r = await runner.run({
    file: join(root, 'hooks.py'),
    handler: 'count',
    payload: { sender_id: 'u', is_voice: false, turn_id: null },
  });
  assert.equal(r.outcome, 'returned');
  assert.equal(r.output?.trim(), 'seen=1');
});
