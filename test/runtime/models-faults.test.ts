// Provider faults against a local Chat Completions server: 401, 429 (Retry-After honoured and
// bounded), 5xx, a timeout, malformed JSON, a body cut short — each a ModelFault with the
// provider's message and the key redacted; through the CLI a fault ends the turn as the engine's
// provider-error fallback (status error, turn_finished fired, exit 1), and a model calling a tool
// the scenario does not offer gets an error tool result after the tool hooks.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { callChat } from '../../runtime/models/chat-provider';
import { modelConfig } from '../../runtime/models/model-config';
import { startChatServer, type ChatServer, type Reply } from './fixtures/chat-server';
import { runCli } from './fixtures/cli-async';

const KEY = 'sk-faults-secret-9e1b';
let script: Reply[] = [];
let server: ChatServer;
let dir: string;

before(async () => {
  server = await startChatServer((_b, n) => script[n] ?? { text: 'ok' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-faults-'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(replies: Reply[], extra: Record<string, unknown> = {}) {
  script = replies;
  server.seen.length = 0;
  const waits: number[] = [];
  const config = modelConfig.parse({ base_url: server.baseUrl, model: 'm', ...extra });
  const r = await callChat(
    config,
    { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    KEY,
    async (ms) => {
      waits.push(ms);
    },
  );
  return { ...r, waits, calls: server.seen.length };
}

test('401 is an auth fault with the provider message, the key redacted, not retried', async () => {
  const r = await call([{ status: 401, error: `Incorrect API key provided: ${KEY}` }]);
  assert.equal(r.fault?.kind, 'auth');
  assert.equal(r.fault?.status, 401);
  assert.match(r.fault!.message, /Incorrect API key provided: \[redacted\]/);
  assert.ok(!JSON.stringify(r).includes(KEY));
  assert.equal(r.calls, 1);
});

test('429 waits its Retry-After and retries; a Retry-After past the bound fails at once; retries are bounded', async () => {
  const ok = await call([
    { status: 429, error: 'slow down', headers: { 'retry-after': '2' } },
    { text: 'fine' },
  ]);
  assert.equal(ok.answer?.message.content, 'fine');
  assert.deepEqual(ok.waits, [2000]);
  assert.match(ok.notes[0]!, /provider 429: 429 slow down; retried after 2000 ms \(attempt 2 of 3\)/);
  const far = await call([{ status: 429, error: 'come back tomorrow', headers: { 'retry-after': '86400' } }]);
  assert.equal(far.fault?.kind, 'rate-limit');
  assert.match(
    far.fault!.message,
    /come back tomorrow \(Retry-After 86400 s is beyond the 60 s Hooksmith waits\)/,
  );
  assert.equal(far.calls, 1);
  const always = await call(
    Array(5).fill({ status: 429, error: 'busy', headers: { 'retry-after-ms': '5' } }),
  );
  assert.equal(always.fault?.kind, 'rate-limit');
  assert.equal(always.calls, 3, 'max_retries 2: three attempts');
  assert.match(always.fault!.message, /busy \(after 3 attempts\)/);
});

test('5xx retried with backoff then a server fault; timeout, malformed JSON and a body cut short', async () => {
  const five = await call(Array(3).fill({ status: 503, error: 'overloaded' }), { max_retries: 1 });
  assert.equal(five.fault?.kind, 'server');
  assert.equal(five.fault?.status, 503);
  assert.deepEqual(five.waits, [500]);
  const slow = await call([{ hang: true }], { timeout_ms: 300, max_retries: 0 });
  assert.equal(slow.fault?.kind, 'timeout');
  const bad = await call([{ raw: '{"choices": [' }]);
  assert.equal(bad.fault?.kind, 'malformed');
  const notChat = await call([{ raw: '{"hello": 1}' }]);
  assert.match(notChat.fault!.message, /not a chat completion/);
  const cut = await call([{ cut: true }]);
  assert.ok(['malformed', 'connection'].includes(cut.fault!.kind), JSON.stringify(cut.fault));
});

test('through the CLI: a fault ends the turn with status error and the provider message (exit 1); an unknown tool gets an error result', async () => {
  mkdirSync(join(dir, 'agent'), { recursive: true });
  writeFileSync(join(dir, 'agent/hooks.py'), 'from rasa.mantle.hooks import on_turn_started\n');
  writeFileSync(
    join(dir, 'agent/f.scenario.yaml'),
    `user: hi\ntools:\n  lookup: { value: 1 }\nmodel: { base_url: "${server.baseUrl}", model: m, api_key_env: HOOKSMITH_FIXTURE_KEY, max_retries: 0 }\n`,
  );
  script = [{ status: 401, error: `bad key ${KEY}` }];
  server.seen.length = 0;
  const r = await runCli(dir, { HOOKSMITH_FIXTURE_KEY: KEY }, [
    'simulate',
    'agent/f.scenario.yaml',
    '--format',
    'json',
  ]);
  assert.equal(r.status, 1, r.stderr);
  const sim = JSON.parse(r.stdout) as {
    status: string;
    events: { point: string; before: { status?: string } }[];
    transcript: { text: string }[];
  };
  assert.equal(sim.status, 'error');
  assert.equal(sim.events.at(-1)!.point, 'turn_finished');
  assert.equal(sim.events.at(-1)!.before.status, 'error');
  assert.ok(sim.transcript.some((e) => /provider error: auth 401: 401 bad key \[redacted\]/.test(e.text)));
  assert.match(r.stderr, /the agent's model failed in turn 1: auth 401/);
  assert.ok(!(r.stdout + r.stderr).includes(KEY));

  script = [{ tool_calls: [{ name: 'delete_everything', arguments: '{}' }] }, { text: 'done' }];
  server.seen.length = 0;
  const u = await runCli(dir, { HOOKSMITH_FIXTURE_KEY: KEY }, [
    'simulate',
    'agent/f.scenario.yaml',
    '--format',
    'json',
    '--record',
    'all',
  ]);
  assert.equal(u.status, 0, u.stderr);
  const usim = JSON.parse(u.stdout) as {
    status: string;
    events: { point: string }[];
    transcript: { role: string; text: string }[];
  };
  assert.equal(usim.status, 'completed');
  assert.ok(
    usim.events.some((e) => e.point === 'tool_call') && usim.events.some((e) => e.point === 'tool_result'),
  );
  assert.ok(
    usim.transcript.some(
      (e) => e.role === 'tool' && /delete_everything.*error: no mock tool 'delete_everything'/.test(e.text),
    ),
  );
  const second = server.seen[1]!.body as { messages: { role: string; content: string }[] };
  assert.match(second.messages.at(-1)!.content, /no mock tool/);
});
