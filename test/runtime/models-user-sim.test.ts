// An LLM-played user: a Mantle eval scenario with simulation_context (no scripted conversation)
// runs to its goal once a model is given (--model), its assertions checked; recorded against a
// local Chat Completions server, replayed from the cassette with the server stopped; without a
// model it stays listed as needing one (skipped, never passed).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { startChatServer, type ChatServer } from './fixtures/chat-server';
import { runCli } from './fixtures/cli-async';

let dir: string;
let server: ChatServer;

const HOOKS = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def mark(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": {**call.arguments, "checked": True}})
`;

const MANTLE = `scenario:
  name: Customer replaces a damaged card
  simulation_context: >
    You are a calm customer whose card has a cracked chip. Ask to replace it.
  goals:
    assertions:
      - tool_executed: { tool_name: replace_card, source: local }
  hooksmith:
    expect:
      tool_called: { tool_name: replace_card, arguments: { checked: true } }
      agent_message: { contains: on its way }
`;

interface Report {
  cases: {
    name: string;
    status: string;
    expectations: { name: string; passed: boolean; skipped?: string }[];
  }[];
}

const KEY = 'sk-user-sim-secret-51d0';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-usersim-'));
  for (const [rel, text] of [
    ['agent/hooks.py', HOOKS],
    ['agent/eval/scenarios/card_replace.yml', MANTLE],
  ] as const) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  server = await startChatServer((body) => {
    const msgs = body.messages as { role: string; content: string | null }[];
    if (msgs[0]!.content!.startsWith('You play a user')) {
      const agentSaid = msgs.filter((m) => m.role === 'user').map((m) => m.content ?? '');
      return agentSaid.some((t) => /on its way/.test(t))
        ? { text: '[DONE]' }
        : { text: 'My card has a cracked chip. Please replace it.' };
    }
    return msgs.some((m) => m.role === 'tool')
      ? { text: 'Your new card is on its way.' }
      : { tool_calls: [{ name: 'replace_card', arguments: '{"reason": "damaged"}' }] };
  });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a Mantle scenario with simulation_context runs to its goal with an LLM-played user, then from its cassette', async () => {
  const model = `model=fixture-model,base_url=${server.baseUrl},api_key_env=HOOKSMITH_FIXTURE_KEY`;
  const without = await runCli(dir, {}, ['test', 'agent/eval', '--format', 'json']);
  assert.equal(without.status, 0, without.stderr);
  const skipped = (JSON.parse(without.stdout) as Report).cases[0]!;
  assert.equal(skipped.status, 'skipped');
  assert.match(skipped.expectations[0]!.skipped!, /needs a model/);

  const recorded = await runCli(dir, { HOOKSMITH_FIXTURE_KEY: KEY }, [
    'test',
    'agent/eval',
    '--model',
    model,
    '--format',
    'json',
  ]);
  assert.equal(recorded.status, 0, recorded.stdout + recorded.stderr);
  const card = (JSON.parse(recorded.stdout) as Report).cases[0]!;
  assert.equal(card.status, 'passed', JSON.stringify(card.expectations));
  assert.deepEqual(
    card.expectations.filter((e) => !e.skipped).map((e) => [e.name, e.passed]),
    [
      ['agent_message', true],
      ['tool_called replace_card', true],
    ],
  );
  // user, agent (tool call), agent (text), user ([DONE]). The cassette keeps the file's whole name
  // (docs/files.md: only `.scenario.yaml` is dropped), so x.yml and x.yaml never share one (#44 item 11).
  const roles = readFileSync(join(dir, 'agent/.hooksmith/cassettes/card_replace.yml.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { role: string }).role);
  assert.deepEqual(roles, ['user', 'agent', 'agent', 'user']);
  assert.equal(server.seen.length, 4);

  await server.close();
  const replayed = await runCli(dir, { CI: 'true' }, [
    'simulate',
    'agent/eval/scenarios/card_replace.yml',
    '--model',
    model,
    '--format',
    'json',
  ]);
  assert.equal(replayed.status, 0, replayed.stderr);
  const sim = JSON.parse(replayed.stdout) as {
    ending: string;
    transcript: { role: string; text: string }[];
    turns: unknown[];
    models: { user: { model: string }; exchanges: { role: string; source: string }[] };
  };
  assert.equal(sim.ending, 'the simulated user reached its goal');
  assert.equal(sim.turns.length, 1);
  assert.equal(sim.models.user.model, 'fixture-model');
  assert.ok(sim.models.exchanges.every((e) => e.source === 'replayed'));
  assert.match(sim.transcript[0]!.text, /An LLM plays the user: fixture-model/);
  assert.deepEqual(
    sim.transcript.filter((e) => e.role === 'user' || e.role === 'bot').map((e) => e.text),
    ['My card has a cracked chip. Please replace it.', 'Your new card is on its way.'],
  );
  // hooksmith test from the cassette alone: the goal's assertions checked on the replayed conversation.
  const tested = await runCli(dir, { CI: 'true' }, [
    'test',
    'agent/eval',
    '--model',
    model,
    '--format',
    'json',
  ]);
  assert.equal(tested.status, 0, tested.stdout + tested.stderr);
  const again = (JSON.parse(tested.stdout) as Report).cases[0]!;
  assert.equal(again.status, 'passed', JSON.stringify(again.expectations));
  assert.deepEqual(
    again.expectations.filter((e) => !e.skipped).map((e) => [e.name, e.passed]),
    [
      ['agent_message', true],
      ['tool_called replace_card', true],
    ],
  );
  for (const out of [recorded, replayed, tested]) assert.ok(!(out.stdout + out.stderr).includes(KEY));
});

test('user_simulation without any model is an input error naming what is missing (exit 2)', async () => {
  writeFileSync(join(dir, 'agent/sim.scenario.yaml'), 'user_simulation: { context: a customer }\n');
  const r = await runCli(dir, {}, ['simulate', 'agent/sim.scenario.yaml']);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /user_simulation needs a model for the agent/);
  writeFileSync(join(dir, 'agent/sim.scenario.yaml'), 'user_simulation: { context: a customer }\nuser: hi\n');
  const both = await runCli(dir, {}, ['simulate', 'agent/sim.scenario.yaml']);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /`user` and `user_simulation` exclude each other/);
});
