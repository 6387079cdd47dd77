// A scenario played by a real model (a local Chat Completions server on 127.0.0.1), through the
// built CLI and a real python3: recorded to a cassette, replayed with the server stopped (same
// transcript, exit 0), and failing naming the field when a hook changes the prompt under
// --record none. The key never reaches the cassette, stdout, stderr or the timeline.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { startChatServer, type ChatServer } from './fixtures/chat-server';
import { runCli, type CliRun } from './fixtures/cli-async';

const KEY = 'sk-fixture-secret-7f3a9c';
let dir: string;
let server: ChatServer;

const hooks = (
  suffix: string,
) => `from rasa.mantle.hooks import ModelRequestPayload, ModelResponsePayload, modify_model_request, modify_model_response


@modify_model_request()
async def brief(req: ModelRequestPayload) -> ModelRequestPayload:
    msgs = [dict(m) for m in req.messages]
    msgs[0]["content"] = msgs[0]["content"] + "${suffix}"
    return req.model_copy(update={"messages": msgs, "model_settings": {"temperature": 0.1}})


@modify_model_response()
async def mask(resp: ModelResponsePayload) -> ModelResponsePayload:
    text = resp.text.replace("4111 1111 1111 1111", "[card]") if resp.text else resp.text
    return resp.model_copy(update={"text": text})
`;

const scenario = (baseUrl: string) => `name: card status
system_prompt: You are the bank's assistant.
user: is my card active?
tools:
  lookup_card: { value: { status: active, number: "4111 1111 1111 1111" } }
model:
  base_url: ${baseUrl}
  model: fixture-model
  api_key_env: HOOKSMITH_FIXTURE_KEY
  temperature: 0.7
`;

function write(rel: string, text: string): string {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

type Run = CliRun;
const hooksmith = (env: Record<string, string | undefined>, ...args: string[]) => runCli(dir, env, args);

const transcriptOf = (r: Run) =>
  (JSON.parse(r.stdout) as { transcript: { role: string; text: string }[] }).transcript;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-models-'));
  server = await startChatServer((body) => {
    const msgs = body.messages as { role: string }[];
    return msgs.some((m) => m.role === 'tool')
      ? { text: 'Your card 4111 1111 1111 1111 is active.' }
      : { tool_calls: [{ name: 'lookup_card', arguments: '{"last4": "1111"}' }] };
  });
  write('agent/hooks.py', hooks(' Be brief.'));
  write('agent/card.scenario.yaml', scenario(server.baseUrl));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('record against the local server, replay with it stopped, fail naming the field on drift', async () => {
  const recorded = await hooksmith(
    { HOOKSMITH_FIXTURE_KEY: KEY },
    'simulate',
    'agent/card.scenario.yaml',
    '--format',
    'json',
  );
  assert.equal(recorded.status, 0, recorded.stderr);
  // The request the model received is the one after the model_request hook.
  assert.equal(server.seen.length, 2);
  const first = server.seen[0]!.body as {
    messages: { content: string }[];
    temperature: number;
    tools: unknown[];
  };
  assert.equal(first.messages[0]!.content, "You are the bank's assistant. Be brief.");
  assert.equal(first.temperature, 0.1, "the hook's model_settings over the scenario's temperature");
  assert.equal(first.tools.length, 1);
  assert.equal(server.seen[0]!.authorization, `Bearer ${KEY}`);
  const t1 = transcriptOf(recorded);
  assert.match(
    t1[0]!.text,
    /Hooksmith plays the agent with the model fixture-model .*not the agent's own engine configuration/,
  );
  assert.ok(t1.some((e) => e.role === 'tool' && /lookup_card/.test(e.text)));
  // The model's answer went through the model_response hook.
  assert.ok(
    t1.some((e) => e.role === 'bot' && e.text === 'Your card [card] is active.'),
    JSON.stringify(t1),
  );
  const cassette = join(dir, 'agent/.hooksmith/cassettes/card.jsonl');
  const lines = readFileSync(cassette, 'utf8').trim().split('\n');
  assert.equal(lines.length, 2);
  const entry = JSON.parse(lines[0]!) as {
    role: string;
    request: { messages: { content: string }[] };
    latency_ms: number;
  };
  assert.equal(entry.role, 'agent');
  assert.equal(entry.request.messages[0]!.content, "You are the bank's assistant. Be brief.");
  assert.equal(typeof entry.latency_ms, 'number');
  assert.match(recorded.stderr, /recorded the model exchanges to .*card\.jsonl/);

  await server.close();
  const replayed = await hooksmith(
    { CI: '1', HOOKSMITH_FIXTURE_KEY: KEY },
    'simulate',
    'agent/card.scenario.yaml',
    '--format',
    'json',
  );
  assert.equal(replayed.status, 0, replayed.stderr);
  assert.deepEqual(transcriptOf(replayed).slice(1), t1.slice(1));
  assert.match(transcriptOf(replayed)[0]!.text, /Recording: none/);
  const models = (JSON.parse(replayed.stdout) as { models: { exchanges: { source: string }[] } }).models;
  assert.deepEqual(
    models.exchanges.map((e) => e.source),
    ['replayed', 'replayed'],
  );
  // No key set: replay only, by default.
  const noKey = await hooksmith({}, 'simulate', 'agent/card.scenario.yaml');
  assert.equal(noKey.status, 0, noKey.stderr);

  write('agent/hooks.py', hooks(' Be very brief.'));
  const drift = await hooksmith(
    { HOOKSMITH_FIXTURE_KEY: KEY },
    'simulate',
    'agent/card.scenario.yaml',
    '--record',
    'none',
  );
  assert.equal(drift.status, 1, drift.stdout + drift.stderr);
  assert.match(
    drift.stderr,
    /request #1 differs from the one recorded in card\.jsonl: messages\[0\]\.content: recorded "You are the bank's assistant\. Be brief\.", now "You are the bank's assistant\. Be very brief\."/,
  );
  assert.match(drift.stdout, /the cassette cannot answer/);
  assert.equal(readFileSync(cassette, 'utf8').split('\n').length, 3, 'none mode never writes');
  const suite = await hooksmith({}, 'test', 'agent', '--format', 'json');
  assert.equal(suite.status, 1, suite.stdout + suite.stderr);
  const failed = (
    JSON.parse(suite.stdout) as {
      cases: { expectations: { name: string; passed: boolean; actual: string }[] }[];
    }
  ).cases[0]!.expectations.find((e) => e.name === 'cassette')!;
  assert.equal(failed.passed, false);
  assert.match(failed.actual, /messages\[0\]\.content: recorded/);

  for (const out of [recorded, replayed, noKey, drift, suite])
    assert.ok(!(out.stdout + out.stderr).includes(KEY), 'the key is in the output');
  assert.ok(!readFileSync(cassette, 'utf8').includes(KEY), 'the key is in the cassette');
  write('agent/hooks.py', hooks(' Be brief.'));
});

test('--record with a bad value and a malformed cassette are usage/input errors (exit 2)', async () => {
  const bad = await hooksmith({}, 'simulate', 'agent/card.scenario.yaml', '--record', 'sometimes');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--record must be missing, all, none, got sometimes/);
  const cassette = join(dir, 'agent/.hooksmith/cassettes/card.jsonl');
  assert.ok(existsSync(cassette));
  const kept = readFileSync(cassette, 'utf8');
  writeFileSync(cassette, '{"role": "agent"\n');
  const broken = await hooksmith({}, 'simulate', 'agent/card.scenario.yaml');
  assert.equal(broken.status, 2, broken.stderr);
  assert.match(broken.stderr, /card\.jsonl:1: not JSON/);
  writeFileSync(cassette, kept);
});
