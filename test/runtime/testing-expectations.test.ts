// `hooksmith test` with a real python3: every expectation kind passing and failing, with the
// line of each failed expectation; payload cases; snapshots and --update; the CLI's formats,
// -k and exit codes (over the built dist/cli.js), the bundled examples included.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { CaseResult } from '../../runtime/testing/cases';
import { discoverCases } from '../../runtime/testing/discover-cases';
import { runCases } from '../../runtime/testing/run-cases';
import { writeSnapshots } from '../../runtime/testing/snapshot-update';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;
let results: CaseResult[];

const HOOKS = `import asyncio

from rasa.mantle.hooks import (
    IncomingMessagePayload,
    KnowledgeQueryPayload,
    RetryModel,
    ToolCallPayload,
    ToolResultPayload,
    modify_knowledge_query,
    modify_tool_call,
    modify_tool_result,
    on_incoming_message,
)


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "delete_account":
        raise RetryModel(feedback="no deleting accounts")
    return call


@modify_tool_result()
async def redact(result: ToolResultPayload) -> ToolResultPayload:
    return result.model_copy(update={"value": result.value.replace("ada@example.com", "[email]")})


@on_incoming_message()
async def slow_observer(message: IncomingMessagePayload) -> None:
    # rasa-pro 3.21 invokes incoming_message on every turn: slow only for the failing scenario's sender.
    if message.sender_id == "slow":
        await asyncio.sleep(0.3)


@modify_knowledge_query()
async def slow_query(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    await asyncio.sleep(0.7)
    return payload
`;

const TURN = `user: hi
completions:
  - tool_calls: [{ tool_name: delete_account, tool_args: {} }]
  - tool_calls: [{ tool_name: lookup, tool_args: { id: c-1, deep: { x: 1 } } }]
  - text: Hello Ada
tools:
  lookup: { value: { email: ada@example.com } }
`;

const PASS = `name: all pass
${TURN}expect:
  status: completed
  transcript: { equals: Hello Ada, contains: [Hello], matches: "^Hello \\\\w+$", not_contains: Bob }
  agent_message: { contains: Ada }
  tool_called: { tool_name: lookup, arguments: { deep: { x: 1 } } }
  tool_not_called: [{ tool_name: delete_account }, { tool_name: lookup, arguments: { id: c-2 } }]
  hook_outcome: { point: tool_call, hook: guard, outcome: retry-model }
  payload_after:
    { point: tool_result, where: { tool_name: lookup }, fields: { value: '{"email":"[email]"}' }, not_contains: ada@ }
  within_budget: true
  no_crashes: true
  order: { first: "tool_call:guard", then: tool_result }
`;

// Line numbers below are the lines of these keys (the turn takes lines 2-8).
const FAIL = `name: all fail
sender_id: slow
${TURN}expect:
  status: error
  transcript: { contains: Bob }
  agent_message: { equals: Hello }
  tool_called: { tool_name: delete_account }
  tool_not_called: { tool_name: lookup }
  hook_outcome: { point: tool_call, hook: guard, outcome: crashed }
  payload_after: { point: tool_result, fields: { value: x } }
  within_budget: true
  no_crashes: true
  order: { first: tool_result, then: "tool_call:guard" }
goals:
  assertions:
    - tool_called: { tool_name: lookup, arguments: { id: c-9 } }
    - transcript: snapshot
`;

// Mantle's goals block: its key names for tools, agent messages and ordering are checked; its
// skill checks, checks Hooksmith does not know (slot_was_set here) and criteria are reported as
// not checked, never passed.
const MANTLE = `name: mantle goals
${TURN}goals:
  criteria:
    - The agent greets Ada by name
  assertions:
    - tool_called: { tool_name: lookup, arguments: { id: c-1 } }
    - tool_not_called: { tool_name: delete_account }
    - agent_message: { contains: Ada }
    - order: { first: "tool_call:guard", then: tool_result }
    - skill_completed: { skill_id: card_replace }
    - skill_cancelled: { skill_id: card_replace, step_id: confirm }
    - slot_was_set: [{ name: order_id, value: ORD-1 }]
`;

const MANTLE_FAIL = `name: failing mantle goals
${TURN}goals:
  assertions:
    - tool_called: { tool_name: lookup, arguments: { id: c-2 } }
    - tool_not_called: { tool_name: lookup }
    - agent_message: { equals: Bye }
    - order: { first: tool_result, then: "tool_call:guard" }
    - skill_activated: { skill_id: card_replace }
`;

const ONLY_UNCHECKED = `name: only mantle skills
user: hi
completions: [{ text: hello }]
goals:
  assertions:
    - skill_activated: { skill_id: card_replace }
`;

const payload = (hook: string, expect: object, fields: object) =>
  JSON.stringify(
    { hook, expect, sender_id: 'u', call: null, channel: { name: 'rest', metadata: {} }, ...fields },
    null,
    2,
  ) + '\n';

const CALL = { tool_name: 'delete_account', arguments: {}, headers: {} };
const RESULT = { tool_name: 'lookup', arguments: {}, value: '{"email":"ada@example.com"}', is_error: false };

function write(rel: string, text: string): string {
  const f = join(dir, rel);
  mkdirSync(join(f, '..'), { recursive: true });
  writeFileSync(f, text);
  return f;
}

function byName(name: string): CaseResult {
  const r = results.find((x) => x.case.name === name || x.case.name.startsWith(`${name} `));
  assert.ok(r, `no case ${name}`);
  return r;
}

function verdicts(r: CaseResult): Record<string, [boolean, number]> {
  return Object.fromEntries(r.expectations.map((e) => [e.name, [e.passed, e.line]]));
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-test-'));
  write('agent/hooks/h.py', HOOKS);
  write('agent/pass.scenario.yaml', PASS);
  write('agent/fail.scenario.yaml', FAIL);
  write('agent/mantle.scenario.yaml', MANTLE);
  write('agent/mantle-fail.scenario.yaml', MANTLE_FAIL);
  write('agent/only-unchecked.scenario.yaml', ONLY_UNCHECKED);
  const p = (n: string, hook: string, expect: object, fields: object) =>
    write(`agent/.hooksmith/payloads/${n}.json`, payload(`hooks/h.py::${hook}`, expect, fields));
  p(
    'p-signal',
    'guard',
    { outcome: 'retry-model', signal_contains: 'no deleting', within_budget: true },
    CALL,
  );
  p(
    'p-fields',
    'redact',
    { outcome: 'returned', fields: { value: '{"email":"[email]"}' }, not_contains: 'ada@' },
    RESULT,
  );
  p(
    'f-fields',
    'redact',
    { outcome: 'crashed', fields: { value: 'x' }, not_contains: '[email]', signal_contains: 'x' },
    RESULT,
  );
  p('f-budget', 'slow_query', { outcome: 'returned', within_budget: true }, { query: 'q' });
  p('snap', 'redact', { fields: 'snapshot' }, RESULT);
  write('agent/.hooksmith/payloads/plain.json', JSON.stringify({ sender_id: 'u', call: null }));
  const found = discoverCases([join(dir, 'agent')]);
  assert.deepEqual(found.malformed, []);
  results = await runCases(found.cases);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('discovery: scenarios and payload files with expect, not plain samples', () => {
  assert.deepEqual(results.map((r) => r.case.name).sort(), [
    'all fail',
    'all pass',
    'f-budget → hooks/h.py::slow_query',
    'f-fields → hooks/h.py::redact',
    'failing mantle goals',
    'mantle goals',

    'only mantle skills',
    'p-fields → hooks/h.py::redact',
    'p-signal → hooks/h.py::guard',
    'snap → hooks/h.py::redact',
  ]);
});

test('every scenario expectation kind passes on a turn that meets it', () => {
  const r = byName('all pass');
  assert.equal(
    r.status,
    'passed',
    JSON.stringify(
      r.expectations.filter((e) => !e.passed),
      null,
      1,
    ),
  );
  assert.deepEqual(Object.keys(verdicts(r)), [
    'status',
    'transcript',
    'agent_message',
    'tool_called lookup',
    'tool_not_called delete_account',
    'tool_not_called lookup',
    'hook_outcome tool_call guard',
    'payload_after tool_result',
    'within_budget',
    'no_crashes',
    'order tool_call:guard before tool_result',
  ]);
});

test('every scenario expectation kind fails on a turn that breaks it, at its line', () => {
  const r = byName('all fail');
  assert.equal(r.status, 'failed');
  assert.deepEqual(verdicts(r), {
    status: [false, 11],
    transcript: [false, 12],
    agent_message: [false, 13],
    'tool_called delete_account': [false, 14],
    'tool_not_called lookup': [false, 15],
    'hook_outcome tool_call guard': [false, 16],
    'payload_after tool_result': [false, 17],
    within_budget: [false, 18],
    no_crashes: [false, 19],
    'order tool_result before tool_call:guard': [false, 20],
    'tool_called lookup': [false, 23],
    'transcript snapshot': [false, 24],
  });
  const e = (n: string) => r.expectations.find((x) => x.name === n)!;
  assert.match(e('status').actual, /^completed/);
  assert.match(e('tool_called delete_account').actual, /lookup\(\{"id":"c-1"/);
  assert.match(e('within_budget').actual, /slow_observer.*timed-out/);
  assert.match(e('no_crashes').actual, /incoming_message .*slow_observer: timed-out/);
  assert.match(e('hook_outcome tool_call guard').actual, /guard: retry-model/);
  assert.equal(e('transcript snapshot').observed, 'Hello Ada');
});

test("goals.assertions with Mantle's keys: tools, agent messages, order checked; skills, unknown checks and criteria not checked", () => {
  const ok = byName('mantle goals');
  assert.equal(ok.status, 'passed', JSON.stringify(ok.expectations, null, 1));
  const state = (r: CaseResult) =>
    Object.fromEntries(r.expectations.map((e) => [e.name, [e.skipped ? 'not checked' : e.passed, e.line]]));
  assert.deepEqual(state(ok), {
    'tool_called lookup': [true, 13],
    'tool_not_called delete_account': [true, 14],
    agent_message: [true, 15],
    'order tool_call:guard before tool_result': [true, 16],
    'skill_completed card_replace': ['not checked', 17],
    'skill_cancelled card_replace': ['not checked', 18],
    slot_was_set: ['not checked', 19],
    'criterion 1': ['not checked', 11],
  });
  for (const e of ok.expectations.filter((x) => x.skipped))
    assert.match(e.skipped!, /^not checked by hooksmith \(needs the Mantle engine\)/);
  const bad = byName('failing mantle goals');
  assert.equal(bad.status, 'failed');
  assert.deepEqual(state(bad), {
    'tool_called lookup': [false, 11],
    'tool_not_called lookup': [false, 12],
    agent_message: [false, 13],
    'order tool_result before tool_call:guard': [false, 14],
    'skill_activated card_replace': ['not checked', 15],
  });
  // Mantle's semantics: a check passes when at least one recorded event matches.
  assert.match(bad.expectations[0]!.actual, /lookup\(\{"id":"c-1"/);
  // Nothing checked is not a pass.
  const only = byName('only mantle skills');
  assert.equal(only.status, 'skipped');
});

test('payload cases: outcome, fields, not_contains, signal_contains, within_budget pass and fail', () => {
  assert.equal(byName('p-signal').status, 'passed');
  assert.equal(byName('p-fields').status, 'passed');
  assert.deepEqual(verdicts(byName('f-fields')), {
    outcome: [false, 4],
    fields: [false, 5],
    not_contains: [false, 8],
    signal_contains: [false, 9],
  });
  const budget = byName('f-budget');
  assert.deepEqual(verdicts(budget), { outcome: [false, 4], within_budget: [false, 5] });
  assert.match(budget.expectations[0]!.actual, /^timed-out/);
});

test('--update records a snapshot in the file, and it passes from then on', async () => {
  const snap = byName('snap');
  assert.equal(snap.status, 'failed');
  writeSnapshots([snap]);
  assert.equal(snap.status, 'passed');
  const file = join(dir, 'agent/.hooksmith/payloads/snap.json');
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(saved.expect.fields.snapshot.value, '{"email":"[email]"}');
  const again = await runCases(discoverCases([file]).cases);
  assert.equal(again[0]!.status, 'passed');
  // YAML keeps its comments when a snapshot is written.
  const fail = byName('all fail');
  const yamlFile = join(dir, 'agent/fail.scenario.yaml');
  writeFileSync(yamlFile, `# keep me\n${readFileSync(yamlFile, 'utf8')}`);
  writeSnapshots([{ ...fail, expectations: fail.expectations.filter((e) => e.observed !== undefined) }]);
  const text = readFileSync(yamlFile, 'utf8');
  assert.match(text, /^# keep me/);
  assert.match(text, /transcript:\n\s+snapshot: Hello Ada/);
});

function hooksmith(...args: string[]) {
  return spawnSync(process.execPath, [cli, 'test', ...args], { cwd: root, encoding: 'utf8' });
}

test('CLI: the bundled clean agent passes (exit 0), the buggy one fails as the README says (exit 1)', () => {
  const clean = hooksmith('examples/clean-agent');
  assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  assert.match(clean.stdout, /\n9 passed, 0 failed \(/);
  const buggy = hooksmith('examples/buggy-agent');
  assert.equal(buggy.status, 1, buggy.stdout + buggy.stderr);
  for (const line of [
    'examples/buggy-agent/delete-account.scenario.yaml:22: tool_not_called delete_account',
    'examples/buggy-agent/delete-account.scenario.yaml:24: payload_after tool_result redact_email',
    'examples/buggy-agent/delete-account.scenario.yaml:27: within_budget',
    'examples/buggy-agent/delete-account.scenario.yaml:28: no_crashes',
    'examples/buggy-agent/.hooksmith/payloads/blank-answer.json:5: outcome',
  ])
    assert.ok(buggy.stdout.includes(line), `missing ${line}\n${buggy.stdout}`);
  assert.match(buggy.stdout, /actual: {3}crashed \(IndexError/);
  assert.match(buggy.stdout, /\n1 passed, 2 failed \(/);
});

test('CLI: --format json and junit, -k, and no progress line when piped', () => {
  const json = hooksmith('examples/buggy-agent', '--format', 'json');
  assert.equal(json.status, 1);
  const data = JSON.parse(json.stdout);
  assert.deepEqual([data.passed, data.failed, data.errors], [1, 2, 0]);
  assert.equal(
    data.cases.find((c: { status: string }) => c.status === 'passed').name,
    'answer → hooks/model_hooks.py::capitalise',
  );
  const junit = hooksmith('examples/buggy-agent', '--format', 'junit');
  assert.match(junit.stdout, /^<\?xml/);
  assert.match(junit.stdout, /<testsuite name="examples\/buggy-agent" tests="3" failures="2" errors="0"/);
  assert.match(
    junit.stdout,
    /<failure message="examples\/buggy-agent\/delete-account.scenario.yaml:22: tool_not_called delete_account">/,
  );
  const k = hooksmith('examples/buggy-agent', '-k', 'answer and not blank');
  assert.equal(k.status, 0, k.stdout);
  assert.match(k.stdout, /1 passed, 0 failed/);
  assert.ok(!k.stdout.includes('\r'), 'no progress line when piped');
});

test('CLI: Mantle checks not made are listed with their lines; a case with nothing checked is skipped, exit 0', () => {
  write('unchecked/only.scenario.yaml', ONLY_UNCHECKED);
  write(
    'unchecked/ok.scenario.yaml',
    'user: hi\ncompletions: [{ text: hello }]\ngoals:\n  criteria: [greets]\n  assertions:\n    - agent_message: { equals: hello }\n',
  );
  const r = hooksmith(join(dir, 'unchecked'));
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /SKIPPED .*only\.scenario\.yaml::only mantle skills/);
  assert.match(r.stdout, /=== not checked ===/);
  assert.match(
    r.stdout,
    /only\.scenario\.yaml:6: skill_activated card_replace: not checked by hooksmith \(needs the Mantle engine\)/,
  );
  assert.match(r.stdout, /ok\.scenario\.yaml:4: criterion 1: not checked by hooksmith/);
  assert.match(r.stdout, /\n1 passed, 0 failed, 1 skipped, 2 checks not made \(/);
  const junit = hooksmith(join(dir, 'unchecked'), '--format', 'junit');
  assert.match(junit.stdout, /skipped="1"/);
  assert.match(junit.stdout, /<skipped message="not checked by hooksmith/);
});

test('CLI: a malformed case is exit 2 naming the path of the unknown key; the rest still run', () => {
  write('bad/.hooksmith/payloads/x.json', payload('hooks/h.py::guard', { outcom: 'returned' }, CALL));
  write('bad/typo.scenario.yaml', 'user: hi\nexpect:\n  tool_calld: { tool_name: x }\n');
  write(
    'bad/goals-typo.scenario.yaml',
    'user: hi\ngoals:\n  assertions:\n    - tool_caled: { tool_name: x }\n',
  );
  write(
    'bad/ok.scenario.yaml',
    'user: hi\ncompletions: [{ text: hello }]\nexpect: { transcript: { equals: hello } }\n',
  );
  write('bad/hooks/h.py', HOOKS);
  const r = hooksmith(join(dir, 'bad'));
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stdout, /expect: unknown key 'outcom'/);
  assert.match(r.stdout, /expect: unknown key 'tool_calld'/);
  assert.match(r.stdout, /goals\.assertions\[0\]: unknown key 'tool_caled' \(did you mean 'tool_called'\?\)/);
  assert.match(r.stdout, /1 passed, 0 failed, 3 errors/);
  const usage = hooksmith('--format', 'xml');
  assert.equal(usage.status, 2);
});
