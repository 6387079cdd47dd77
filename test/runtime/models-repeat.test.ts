// `hooksmith test --repeat N` against a local Chat Completions server whose answer alternates:
// every run calls the model afresh while recording is on, and the report gives the pass rate per
// case and per expectation and the per-turn model latency; under --record none the runs replay.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startChatServer, type ChatServer } from './fixtures/chat-server';
import { runCli } from './fixtures/cli-async';

let dir: string;
let server: ChatServer;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-repeat-'));
  server = await startChatServer((_body, n) => ({ text: n % 2 === 0 ? 'yes, it is active' : 'no idea' }));
  mkdirSync(join(dir, 'agent'));
  writeFileSync(join(dir, 'agent/hooks.py'), 'from rasa.mantle.hooks import on_turn_started\n');
  writeFileSync(
    join(dir, 'agent/flaky.scenario.yaml'),
    `name: flaky
user: is my card active?
model: { base_url: "${server.baseUrl}", model: fixture-model, api_key_env: HOOKSMITH_FIXTURE_KEY }
expect:
  status: completed
  agent_message: { contains: "yes" }
`,
  );
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Repeated {
  repeat: number;
  cases: {
    name: string;
    rate: { passed: number; runs: number };
    expectations: { name: string; passed: number; runs: number }[];
    latencyMs: { p50: number; p95: number; turns: number };
  }[];
}

test('--repeat 5 reports the pass rate per case and expectation and the model latency per turn', async () => {
  const env = { HOOKSMITH_FIXTURE_KEY: 'sk-repeat-0001' };
  const r = await runCli(dir, env, ['test', 'agent', '--repeat', '5', '--format', 'json']);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.equal(server.seen.length, 5, 'each run calls the model afresh');
  const c = (JSON.parse(r.stdout) as Repeated).cases[0]!;
  assert.deepEqual(c.rate, { passed: 3, runs: 5 });
  assert.deepEqual(
    c.expectations.map((e) => [e.name, e.passed, e.runs]),
    [
      ['status', 5, 5],
      ['agent_message', 3, 5],
    ],
  );
  assert.equal(c.latencyMs.turns, 5);
  assert.ok(c.latencyMs.p50 <= c.latencyMs.p95);
  const text = await runCli(dir, env, ['test', 'agent', '--repeat', '3', '--record', 'none']);
  assert.equal(text.status, 0, text.stdout + text.stderr);
  assert.equal(server.seen.length, 5, '--record none never calls');
  assert.match(
    text.stdout,
    /agent\/flaky\.scenario\.yaml::flaky: 3\/3 passed \(100%\); model latency per turn p50 \d+ ms/,
  );
  assert.match(text.stdout, /line 6 agent_message: 3\/3 \(100%\)/);
  const bad = await runCli(dir, env, ['test', 'agent', '--repeat', '0']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--repeat must be a whole number from 1 to 1000, got 0/);
});
