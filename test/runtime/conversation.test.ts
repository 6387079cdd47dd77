// Multi-turn scenarios (`turns:`) with a real python3: one warm host for the conversation (module
// state carried), a turn_started/turn_finished pair per turn, the history turn N's model request
// carries (post-hook tool exchange and text, no RetryModel feedback, a rejected message masked),
// per-turn expectations named by their turn, and the CLI's exit codes and output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { SimulationResult, TimelineEvent } from '../../runtime/engine/api';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import { discoverCases, readCase } from '../../runtime/testing/discover-cases';
import { plannedExpectations } from '../../runtime/testing/plan';
import { runCases } from '../../runtime/testing/run-cases';
import { writeSnapshots } from '../../runtime/testing/snapshot-update';
import { formatTestJunit } from '../../runtime/testing/report';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');

const HOOKS = `import json

from rasa.mantle.hooks import (
    HookRejection,
    IncomingMessagePayload,
    ModelRequestPayload,
    ModelResponsePayload,
    RetryModel,
    ToolCallPayload,
    ToolResultPayload,
    modify_incoming_message,
    modify_model_request,
    modify_model_response,
    modify_tool_call,
    modify_tool_result,
)

TURNS = 0


@modify_model_request()
async def count_turns(payload: ModelRequestPayload) -> ModelRequestPayload:
    global TURNS
    if payload.iteration == 0:
        TURNS += 1
    print(json.dumps(payload.messages))
    return payload


@modify_model_response()
async def tag(payload: ModelResponsePayload) -> ModelResponsePayload:
    if payload.text and "BAD" in payload.text:
        raise RetryModel(feedback="say it nicely")
    if payload.text:
        return payload.model_copy(update={"text": f"{payload.text} [turn {TURNS}]"})
    return payload


@modify_tool_call()
async def mark(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": {**call.arguments, "checked": True}})


@modify_tool_result()
async def redact(result: ToolResultPayload) -> ToolResultPayload:
    return result.model_copy(update={"value": result.value.replace("ada@example.com", "[email]")})


@modify_incoming_message()
async def no_secrets(message: IncomingMessagePayload) -> IncomingMessagePayload:
    if "secret" in message.text:
        raise HookRejection(reason="no secrets")
    return message
`;

const TWO_TURNS = `name: two turns
tools:
  lookup: { value: { email: ada@example.com } }
turns:
  - user: look me up
    completions:
      - tool_calls: [{ tool_name: lookup, tool_args: { id: c-1 } }]
      - text: BAD answer
      - text: Found you
    expect:
      transcript: { equals: "Found you [turn 1]" }
      tool_called: { tool_name: lookup, arguments: { checked: true } }
  - user: thanks
    completions:
      - text: You are welcome
    expect:
      transcript: { equals: "You are welcome [turn 2]" }
      tool_not_called: { tool_name: lookup }
      hook_outcome: { point: model_response, outcome: returned }
expect:
  status: completed
  agent_message: { contains: "[turn 2]" }
  order: { first: "model_response:tag", then: "turn_finished" }
`;

const MASKED = `name: masked and interrupted
fire_unwired: true
turns:
  - user: my secret is 42
    completions:
      - text: never asked
  - user: hello
    interrupt: { after_iteration: 0 }
  - user: still there?
    completions:
      - text: Yes
`;

const FAILING = `name: failing second turn
turns:
  - user: hi
    completions: [{ text: Hi }]
    expect:
      transcript: { contains: Hi }
  - user: bye
    completions: [{ text: Bye }]
    expect:
      transcript: { contains: Ciao }
`;

const SNAPSHOT = `name: snapshots per turn
turns:
  - user: hi
    completions: [{ text: Hi }]
    expect:
      transcript: snapshot
  - user: bye
    completions: [{ text: Bye }]
    expect:
      transcript: snapshot
`;

let dir: string;
let runner: HookRunner;
let two: SimulationResult;
let masked: SimulationResult;

function write(rel: string, text: string): string {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-conv-'));
  write('agent/hooks/h.py', HOOKS);
  runner = createHookRunner();
  two = await runner.simulate(write('agent/two.scenario.yaml', TWO_TURNS));
  masked = await runner.simulate(write('agent/masked.scenario.yaml', MASKED));
});
after(async () => {
  await runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const at = (sim: SimulationResult, point: string, turn?: number) =>
  sim.events.filter((e) => e.point === point && (turn === undefined || e.turn === turn));
/** What the counting hook printed: the messages of the request it saw (the history whole). */
const seen = (e: TimelineEvent) => JSON.parse(e.output!.trim()) as Record<string, unknown>[];

test('two turns: a turn_started/turn_finished pair per turn, each with its status; iterations restart', () => {
  assert.equal(two.status, 'completed');
  assert.deepEqual(
    two.turns?.map((t) => [t.turn, t.status, t.iterations]),
    [
      [1, 'completed', 3],
      [2, 'completed', 1],
    ],
  );
  for (const n of [1, 2]) {
    assert.equal(at(two, 'turn_started', n).length, 1, `turn ${n} started once`);
    const finished = at(two, 'turn_finished', n);
    assert.equal(finished.length, 1, `turn ${n} finished once`);
    assert.equal((finished[0]!.before as { status: string }).status, 'completed');
  }
  const iterations = at(two, 'model_request').map((e) => (e.before as { iteration: number }).iteration);
  assert.deepEqual(iterations, [0, 1, 2, 0]);
});

test('module state persists between turns: the counting hook shows 1 then 2 in the transcript', () => {
  const bot = two.transcript.filter((t) => t.role === 'bot').map((t) => [t.turn, t.text]);
  assert.deepEqual(bot, [
    [1, 'Found you [turn 1]'],
    [2, 'You are welcome [turn 2]'],
  ]);
});

test("turn 2's model request carries turn 1 as persisted: post-hook tool exchange and text, no RetryModel feedback", () => {
  const messages = seen(at(two, 'model_request', 2)[0]!);
  assert.deepEqual(
    messages.map((m) => m.role),
    ['system', 'user', 'assistant', 'tool', 'assistant', 'user'],
  );
  const call = (messages[2]!.tool_calls as { tool_args: unknown; id: string }[])[0]!;
  assert.deepEqual(call.tool_args, { id: 'c-1', checked: true });
  assert.equal(call.id, 'call_t1_0_0');
  assert.equal(messages[3]!.tool_call_id, 'call_t1_0_0');
  assert.match(String(messages[3]!.content), /\[email\]/);
  assert.deepEqual(messages[4], { role: 'assistant', content: 'Found you [turn 1]' });
  assert.deepEqual(messages[5], { role: 'user', content: 'thanks' });
  const text = JSON.stringify(messages);
  for (const gone of ['ada@example.com', 'say it nicely', 'BAD answer'])
    assert.ok(!text.includes(gone), `${gone} is not in the history`);
  // Within turn 1 the feedback did reach the next request (once).
  const retried = seen(at(two, 'model_request', 1)[2]!);
  assert.ok(JSON.stringify(retried).includes('say it nicely'));
});

test('a rejected user message is masked from later turns; an interrupted turn is cancelled', () => {
  assert.deepEqual(
    masked.turns?.map((t) => t.status),
    ['completed', 'cancelled', 'completed'],
  );
  assert.equal(masked.status, 'completed');
  assert.equal((at(masked, 'turn_finished', 2)[0]!.before as { status: string }).status, 'cancelled');
  assert.equal(at(masked, 'model_request', 1).length, 0, 'the LLM never saw the rejected message');
  const messages = seen(at(masked, 'model_request', 3)[0]!);
  assert.ok(!JSON.stringify(messages).includes('secret'));
  assert.deepEqual(
    messages.filter((m) => m.role === 'user').map((m) => m.content),
    ['hello', 'still there?'],
  );
});

test('hooksmith test: per-turn and conversation expectations pass; a failing turn is named; snapshots per turn', async () => {
  // Apart from the counting agent: its module state would carry from case to case on one host.
  write('plain/failing.scenario.yaml', FAILING);
  const snapFile = write('plain/snap.scenario.yaml', SNAPSHOT);
  const { cases } = discoverCases([join(dir, 'agent/two.scenario.yaml'), join(dir, 'plain')]);
  const results = await runCases(cases);
  const byName = new Map(results.map((r) => [r.case.name, r]));
  const passed = byName.get('two turns')!;
  assert.equal(passed.status, 'passed', JSON.stringify(passed.expectations.filter((e) => !e.passed)));
  assert.ok(passed.expectations.some((e) => e.name === 'turn 2: transcript'));
  const failing = byName.get('failing second turn')!;
  assert.equal(failing.status, 'failed');
  const bad = failing.expectations.filter((e) => !e.passed);
  assert.deepEqual(
    bad.map((e) => [e.name, e.actual, e.line]),
    [['turn 2: transcript', 'Bye', 10]],
  );
  const junit = formatTestJunit({ results, malformed: [], durationMs: 1, relative: (f) => f });
  assert.match(
    junit,
    /name="failing second turn › turn 2"[^>]*>\s*<failure message="[^"]*turn 2: transcript"/,
  );
  assert.match(junit, /name="failing second turn › turn 1"[^>]*>\s*<\/testcase>/);
  writeSnapshots(results);
  const snap = readFileSync(snapFile, 'utf8');
  assert.match(snap, /transcript:\n\s+snapshot: Hi\n/);
  assert.match(snap, /transcript:\n\s+snapshot: Bye\n/);
});

test('CLI: simulate shows the turns; test exits 1 naming the failing turn', () => {
  const sim = spawnSync(process.execPath, [cli, 'simulate', join(dir, 'agent/two.scenario.yaml')], {
    encoding: 'utf8',
  });
  assert.equal(sim.status, 0, sim.stderr);
  assert.match(sim.stdout, /2 turns, 4 iteration\(s\)/);
  assert.match(sim.stdout, /── turn 1: completed \(text answer emitted\)\n[\s\S]*── turn 2: completed/);
  const json = JSON.parse(
    spawnSync(process.execPath, [cli, 'simulate', join(dir, 'agent/two.scenario.yaml'), '--format', 'json'], {
      encoding: 'utf8',
    }).stdout,
  ) as SimulationResult;
  assert.deepEqual(
    json.turns?.map((t) => t.name),
    ['turn 1', 'turn 2'],
  );
  const t = spawnSync(process.execPath, [cli, 'test', join(dir, 'plain/failing.scenario.yaml')], {
    encoding: 'utf8',
  });
  assert.equal(t.status, 1, t.stdout + t.stderr);
  assert.match(t.stdout, /failing\.scenario\.yaml:10: turn 2: transcript\n\s+expected: contains "Ciao"/);
});

test('the Testing view plan: per-turn expectations carry their turn, in the order results report them', () => {
  const c = readCase(join(dir, 'agent/two.scenario.yaml'));
  assert.ok(c && 'kind' in c);
  const planned = plannedExpectations(c);
  assert.deepEqual(
    planned.map((p) => [p.turn, p.label, p.path.join('/')]),
    [
      [1, 'turn 1: transcript', 'turns/0/expect/transcript'],
      [1, 'turn 1: tool_called lookup', 'turns/0/expect/tool_called'],
      [2, 'turn 2: transcript', 'turns/1/expect/transcript'],
      [2, 'turn 2: tool_not_called lookup', 'turns/1/expect/tool_not_called'],
      [2, 'turn 2: hook_outcome model_response: returned', 'turns/1/expect/hook_outcome'],
      [undefined, 'status: completed', 'expect/status'],
      [undefined, 'agent_message', 'expect/agent_message'],
      [undefined, 'order model_response:tag before turn_finished', 'expect/order'],
    ],
  );
});
