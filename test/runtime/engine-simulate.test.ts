// The simulator with real python3 over the example agent's real hooks.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CAYU_PHASE_IDS, FALLBACK_RESPONSES, POINT_IDS } from '../../runtime/catalogue';
import type { SimulationResult } from '../../runtime/engine/api';
import { RunInputError } from '../../runtime/engine/run-hook';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import { ScenarioError } from '../../runtime/engine/scenario-load';

const root = join(__dirname, '..', '..');
const example = (f: string) => join(root, 'examples/clean-agent', f);
const SCENARIOS = [
  'order-pizza.scenario.yaml',
  'guarded-tools.scenario.yaml',
  'provider-error.scenario.json',
];

let runner: HookRunner;
let dir: string;
const results = new Map<string, SimulationResult>();

before(async () => {
  runner = createHookRunner();
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-sim-'));
  for (const s of SCENARIOS) results.set(s, await runner.simulate(example(s)));
});
after(async () => {
  await runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test('the example scenarios together fire every Mantle point and every Cayu phase with a hook', () => {
  const fired = new Set(
    [...results.values()].flatMap((r) => r.events.filter((e) => e.hook).map((e) => e.point)),
  );
  for (const p of [...POINT_IDS, ...CAYU_PHASE_IDS]) assert.ok(fired.has(p), `${p} never fired with a hook`);
  const statuses = [...results.values()].map((r) => r.status).sort();
  assert.deepEqual(statuses, ['cancelled', 'completed', 'error']);
});

test('order-pizza: PII is redacted before replay, arguments normalised, low-score passages dropped, text tidied', () => {
  const r = results.get('order-pizza.scenario.yaml')!;
  assert.equal(r.status, 'completed');
  const tools = r.transcript.filter((t) => t.role === 'tool').map((t) => t.text);
  assert.ok(tools[0]!.includes('[ssn]') && !tools[0]!.includes('123-45-6789'), tools[0]);
  assert.ok(tools.some((t) => t.includes('"card_id":"card_123"')));
  assert.ok(tools.some((t) => t.includes('hours.md') && !t.includes('parking.md')));
  const bot = r.transcript.filter((t) => t.role === 'bot').map((t) => t.text);
  assert.deepEqual(bot, [
    'According to our hours page we are open 11:00-23:00. Your large pizza is ordered!',
  ]);
  // rasa-pro 3.21 invokes outgoing_text (turn_context.py:417).
  assert.ok(r.events.some((e) => e.point === 'outgoing_text' && e.wired));
  assert.equal(r.events[0]!.point, 'turn_started');
  assert.equal(r.events.filter((e) => e.point === 'turn_finished').length, 1);
});

test('guarded-tools: RetryModel steers, a preflight retry discards the batch, Cayu blocks and caps', () => {
  const r = results.get('guarded-tools.scenario.yaml')!;
  assert.equal(r.status, 'cancelled');
  assert.ok(r.events.some((e) => e.point === 'model_response' && e.outcome === 'retry-model'));
  assert.ok(r.events.some((e) => e.point === 'tool_call' && e.outcome === 'retry-model'));
  const tools = r.transcript.filter((t) => t.role === 'tool').map((t) => t.text);
  assert.ok(tools.includes('delete_account({}) → error: Account deletion needs a human agent.'));
  assert.ok(tools.includes('weather({"city":"test"}) → sunny, 21 degrees'));
  assert.ok(tools.some((t) => t.startsWith('list_orders({"page_size":50})')));
  // The quiet rephrase call reaches the user; the main loop is interrupted before any answer.
  assert.deepEqual(
    r.transcript.filter((t) => t.role === 'bot').map((t) => t.text),
    ['According to our policy, account changes need a quick check first.'],
  );
  assert.ok(
    r.events.some(
      (e) => e.context === 'rephrase' && e.point === 'model_response' && e.outcome === 'returned',
    ),
  );
  assert.ok(r.events.some((e) => e.point === 'after_session_interrupted' && e.outcome === 'returned'));
});

test('a hostile agent in a real turn: a crashing tool-call guard stops the batch with the fallback', async () => {
  const agent = join(dir, 'hostile');
  mkdirSync(agent, { recursive: true });
  writeFileSync(
    join(agent, 'hooks.py'),
    `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call

@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    raise RuntimeError("guard exploded")
`,
  );
  const r = await runner.simulate(
    {
      user: 'go',
      completions: [{ text: 'running it', tool_calls: [{ tool_name: 'a' }] }],
      tools: { a: { value: 1 } },
    },
    agent,
  );
  assert.equal(r.status, 'error');
  const guard = r.events.find((e) => e.point === 'tool_call' && e.hook)!;
  assert.equal(guard.outcome, 'crashed');
  assert.equal(guard.error?.message, 'guard exploded');
  assert.deepEqual(
    r.transcript.filter((t) => t.role === 'bot').map((t) => t.text),
    [FALLBACK_RESPONSES.tool_call],
  );
  assert.equal(r.events.filter((e) => e.point === 'tool_result').length, 0);
});

test('malformed scenarios and agents with check errors: a clear error, nothing runs', async () => {
  await assert.rejects(
    runner.simulate({ user: 'x', completions: [{ tool_calls: [{ tool_name: 3 }] }] }, dir),
    (e: unknown) =>
      e instanceof ScenarioError &&
      e.details.includes('completions[0].tool_calls[0].tool_name: expected string, received number'),
  );
  const bad = join(dir, 'bad');
  mkdirSync(bad, { recursive: true });
  writeFileSync(
    join(bad, 'hooks.py'),
    'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started\nasync def f(p) -> None:\n    print("SHOULD NOT RUN")\n',
  );
  await assert.rejects(
    runner.simulate({ user: 'x' }, bad),
    (e: unknown) =>
      e instanceof RunInputError &&
      e.kind === 'check' &&
      e.details.some((d) => d.includes('missing-parentheses')),
  );
});
