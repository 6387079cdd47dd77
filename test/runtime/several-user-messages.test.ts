// A turn that starts with several user messages (`user: [a, b]`): one Cayu run's input, as
// `cayu eval` sends a corpus case's messages (cayu/evals/execution.py:1202). The agent answers
// once; the transcript shows each message; the model's one request carries them all. Mantle takes
// one message a turn, so an agent with Mantle hooks refuses such a turn. Played by the emulation
// and, where cayu 0.15 is installed (the tests' 'engines' environment), by the real runtime.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { useCayuLine } from '../../runtime/catalogue';
import { createHookRunner } from '../../runtime/engine/runner';
import { testEnv } from '../python-envs';

const work = mkdtempSync(join(tmpdir(), 'hooksmith-several-users-'));
after(() => rmSync(work, { recursive: true, force: true }));

const GUARD = `from cayu.observability import RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context):
        return None
`;
const SCENARIO = {
  user: ['Who am I?', 'And my orders?'],
  completions: [
    { tool_calls: [{ tool_name: 'lookup', tool_args: {} }] },
    { text: 'You are Ada; one order.' },
  ],
  tools: { lookup: { value: { name: 'Ada' } } },
};

function agent(name: string, files: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

async function play(dir: string, scenario: unknown, opts: Parameters<typeof createHookRunner>[0] = {}) {
  const runner = createHookRunner(opts);
  try {
    return await runner.simulate(scenario as Record<string, unknown>, dir);
  } finally {
    await runner.dispose();
  }
}

test('emulation: both messages start the one turn, the agent answers once after them', async () => {
  const r = await play(agent('emulated', { 'runtime_hooks.py': GUARD }), SCENARIO, {
    cayuEngine: () => 'emulation',
  });
  assert.equal(r.status, 'completed', r.ending);
  assert.deepEqual(
    r.transcript.filter((t) => t.role === 'user' || t.role === 'bot').map((t) => [t.role, t.text]),
    [
      ['user', 'Who am I?'],
      ['user', 'And my orders?'],
      ['bot', 'You are Ada; one order.'],
    ],
  );
  assert.equal(r.iterations, 2, 'the tool call, then the answer: one run');
  // The model's one request carries both (a model server sees them): cayu-eval-play.test.ts.
});

test('an agent with Mantle hooks refuses a turn of several messages, saying why', async () => {
  const mantle = `from rasa.mantle.hooks import TurnFinishedPayload, on_turn_finished


@on_turn_finished()
async def mark_end(payload: TurnFinishedPayload) -> None:
    return None
`;
  const dir = agent('mantle', { 'hooks.py': mantle });
  await assert.rejects(
    play(dir, { ...SCENARIO, tools: SCENARIO.tools }),
    /several user messages is a Cayu run's input; Mantle takes one message a turn/,
  );
  // The CLI's verdict: no verdict on the turn (exit 2), the reason on stderr.
  writeFileSync(join(dir, 'two.scenario.json'), JSON.stringify(SCENARIO));
  const cli = spawnSync(
    process.execPath,
    [join(__dirname, '..', '..', 'dist', 'cli.js'), 'simulate', join(dir, 'two.scenario.json')],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(cli.status, 2, cli.stdout + cli.stderr);
  assert.match(cli.stderr, /Mantle takes one message a turn, and this agent has Mantle hooks/);
  // One message as a list of one is a plain turn.
  const one = await play(dir, { ...SCENARIO, user: ['Who am I?'] });
  assert.equal(one.status, 'completed', one.ending);
});

const python = process.env.HOOKSMITH_CAYU_PYTHON ?? testEnv('engines').python ?? 'python3';
const probe = spawnSync(
  python,
  ['-c', 'import importlib.metadata as m, cayu.observability; print(m.version("cayu"))'],
  {
    encoding: 'utf8',
    timeout: 120_000,
  },
);
const version = probe.status === 0 ? probe.stdout.trim() : undefined;
const skip = version ? {} : { skip: `no cayu 0.9 or newer in ${python} (set HOOKSMITH_CAYU_PYTHON)` };

test('the real cayu runtime plays the messages as one run and agrees with the emulation', skip, async () => {
  const dir = agent('real', { 'runtime_hooks.py': GUARD });
  useCayuLine('cayu-newer');
  try {
    const real = await play(dir, SCENARIO, { python, cayuEngine: () => 'real' });
    assert.equal(real.playedBy, `cayu ${version} runtime`);
    const emulated = await play(dir, SCENARIO, { python, cayuEngine: () => 'emulation' });
    for (const r of [real, emulated]) {
      assert.equal(r.status, 'completed', `${r.playedBy}: ${r.ending}`);
      assert.deepEqual(
        r.transcript.filter((t) => t.role === 'user' || t.role === 'bot').map((t) => [t.role, t.text]),
        [
          ['user', 'Who am I?'],
          ['user', 'And my orders?'],
          ['bot', 'You are Ada; one order.'],
        ],
        r.playedBy,
      );
      assert.deepEqual(
        r.tools?.map((t) => t.tool_name),
        ['lookup'],
        r.playedBy,
      );
    }
  } finally {
    useCayuLine(undefined);
  }
});
