// Mantle eval scenario files as written (eval/scenarios/*.yml, `scenario:`), with a real python3
// over the built CLI: one with a scripted conversation (scenario.hooksmith) runs and its goals
// are checked; one without is listed as needing the Mantle engine (skipped, never passed); an
// invalid one is a malformed file naming its key (exit 2).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { readCase } from '../../runtime/testing/discover-cases';
import { plannedExpectations } from '../../runtime/testing/plan';
import type { TestCase } from '../../runtime/testing/cases';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

const HOOKS = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def mark(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": {**call.arguments, "checked": True}})
`;

const SCRIPTED = `scenario:
  name: Customer replaces a damaged card
  simulation_context: >
    You are a calm customer whose card has a cracked chip. Ask to replace it.
  setup:
    initial_slots:
      authenticated: true
  goals:
    criteria:
      - The agent does not claim the order is placed before submitting it
    assertions:
      - tool_executed: { tool_name: replace_card, source: local }
  hooksmith:
    expect:
      tool_called: { tool_name: replace_card, arguments: { checked: true } }
      agent_message: { contains: on its way }
    tools:
      replace_card: { value: { ok: true } }
    turns:
      - user: my card is damaged
        completions:
          - tool_calls: [{ tool_name: replace_card, tool_args: { reason: damaged } }]
          - text: Your new card is on its way.
        expect:
          tool_called: { tool_name: replace_card }
`;

const LLM_ONLY = `scenario:
  name: Impatient customer
  simulation_context: You are impatient and want a refund now.
  goals:
    assertions:
      - flow_completed: { flow_id: refund }
`;

function write(rel: string, text: string): string {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const hooksmith = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-mantle-eval-'));
  write('agent/hooks.py', HOOKS);
  write('agent/eval/scenarios/card_replace_damaged.yml', SCRIPTED);
  write('agent/eval/scenarios/impatient.yml', LLM_ONLY);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('a Mantle scenario with a scripted conversation runs with the agent holding eval/; one without is skipped as needing the Mantle engine', () => {
  const r = hooksmith('test', 'agent', '--format', 'json');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as {
    passed: number;
    skipped: number;
    cases: {
      name: string;
      status: string;
      expectations: { name: string; passed: boolean; skipped?: string; line: number }[];
    }[];
  };
  const card = report.cases.find((c) => c.name === 'Customer replaces a damaged card')!;
  assert.equal(card.status, 'passed', JSON.stringify(card.expectations));
  const checked = card.expectations.filter((e) => !e.skipped).map((e) => [e.name, e.line]);
  assert.deepEqual(checked, [
    ['turn 1: tool_called replace_card', 25],
    ['agent_message', 16],
    ['tool_called replace_card', 15],
  ]);
  assert.ok(card.expectations.some((e) => e.name === 'criterion 1' && e.skipped));
  // The engine's own assertion kinds are the Mantle engine's to check: listed, never passed.
  assert.ok(card.expectations.some((e) => /tool_executed/.test(e.name) && e.skipped));
  const llm = report.cases.find((c) => c.name === 'Impatient customer')!;
  assert.equal(llm.status, 'skipped');
  assert.match(llm.expectations[0]!.skipped!, /needs a model: an LLM plays the user from simulation_context/);
  const text = hooksmith('test', 'agent');
  assert.match(text.stdout, /SKIPPED agent\/eval\/scenarios\/impatient\.yml::Impatient customer/);
  assert.match(text.stdout, /=== not checked ===[\s\S]*impatient\.yml:1: scenario: needs a model/);
  const sim = hooksmith('simulate', 'agent/eval/scenarios/card_replace_damaged.yml');
  assert.equal(sim.status, 0, sim.stderr);
  assert.match(sim.stdout, /Your new card is on its way\./);
  const refused = hooksmith('simulate', 'agent/eval/scenarios/impatient.yml');
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /needs a model/);
});

test('an invalid Mantle scenario is a malformed file naming its key (exit 2)', () => {
  write('bad/hooks.py', HOOKS);
  write(
    'bad/eval/scenarios/no_context.yml',
    'scenario:\n  name: x\n  goals: { assertions: [] }\n  bogus: 1\n',
  );
  write('bad/eval/scenarios/not_mantle.yml', 'user: hi\n');
  const r = hooksmith('test', 'bad');
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stdout, /scenario\.simulation_context/);
  assert.match(r.stdout, /unknown key 'bogus'/);
  assert.match(r.stdout, /not_mantle\.yml: not a Mantle scenario/);
});

test('the field types rasa-pro 3.21 checks: name and simulation_context are texts, initial_slots a mapping, criteria sentences; `type` is refused as its loader refuses it (exit 2, naming the file and key)', () => {
  write('typed/hooks.py', HOOKS);
  write(
    'typed/eval/scenarios/engine_types.yml',
    'scenario:\n  name: ok\n  simulation_context: You ask twice.\n',
  );
  write(
    'typed/eval/scenarios/numeric_name.yml',
    'scenario:\n  name: 3\n  simulation_context: hi\n  setup: { initial_slots: [a] }\n' +
      '  goals: { criteria: [{ judge: 1 }] }\n',
  );
  write(
    'typed/eval/scenarios/documented_type.yml',
    'scenario:\n  name: ok\n  type: edge_case\n  simulation_context: You ask twice.\n',
  );
  const r = hooksmith('test', 'typed');
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stdout, /numeric_name\.yml: invalid Mantle scenario/);
  assert.match(r.stdout, /scenario\.name: expected string, received number/);
  assert.match(r.stdout, /scenario\.setup\.initial_slots: expected record, received array/);
  assert.match(r.stdout, /scenario\.goals\.criteria\[0\]: expected string, received object/);
  assert.match(r.stdout, /documented_type\.yml: invalid Mantle scenario/);
  assert.match(r.stdout, /rasa-pro 3\.21\.0's eval scenario has no `type`.*Key 'type' was not defined/);
  assert.doesNotMatch(r.stdout, /engine_types\.yml: invalid/);
  const ok = hooksmith('test', 'typed/eval/scenarios/engine_types.yml', '--format', 'json');
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.equal(JSON.parse(ok.stdout).cases[0].status, 'skipped');
});

test('the Mantle scenario schema offers the keys rasa-pro 3.21 takes, and no `type`', () => {
  const schema = JSON.parse(readFileSync(join(root, 'schemas', 'mantle-scenario.schema.json'), 'utf8'));
  const scenario = schema.properties.scenario;
  assert.equal(scenario.properties.type, undefined);
  assert.equal(scenario.additionalProperties, false);
  assert.deepEqual(scenario.required, ['name', 'simulation_context']);
});

test('a Mantle scenario without goals records a transcript and cannot fail: listed as transcript only, skipped, never passed (#34)', () => {
  write('nogoals/hooks.py', HOOKS);
  write(
    'nogoals/eval/scenarios/chat.yml',
    'scenario:\n  name: just chat\n  simulation_context: The user says hello.\n  hooksmith:\n    turns:\n      - user: hello\n        completions:\n          - text: hi there\n',
  );
  const r = hooksmith('test', 'nogoals', '--format', 'json');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as {
    passed: number;
    skipped: number;
    cases: { status: string; expectations: { name: string; skipped?: string }[] }[];
  };
  assert.deepEqual([report.passed, report.skipped], [0, 1]);
  assert.equal(report.cases[0]!.status, 'skipped');
  assert.match(report.cases[0]!.expectations[0]!.skipped!, /^transcript only: without goals Mantle records/);
  // The Testing view lists it as such before it runs.
  const c = readCase(join(dir, 'nogoals/eval/scenarios/chat.yml')) as TestCase;
  assert.deepEqual(
    plannedExpectations(c).map((e) => e.label),
    ['transcript only (no goals)'],
  );
  // With goals (the scripted file above), the case is checked as before: not transcript only.
  const scripted = hooksmith('test', 'agent', '--format', 'json');
  assert.doesNotMatch(scripted.stdout, /transcript only/);
});
