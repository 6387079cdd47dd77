// #39 item 3: Mantle eval files are checked by the engine's own model. The facts
// (runtime/catalogue/engine-lines/rasa-pro-3.21-eval.json, scripts/introspect-mantle-eval.py) say
// what rasa-pro 3.21's load_scenario takes; Hooksmith's eval-file schema is built from them. Where
// the engines test environment imports rasa-pro, the stored facts are re-read and must be what the
// script writes today, and Hooksmith's verdict on each document equals the loader's: documents
// written here, and the scenarios the installed package ships in its own skill docs (not ours).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { MANTLE_EVAL_LINE } from '../../runtime/catalogue/mantle-eval-line';
import { buildSchemas } from '../../runtime/engine/json-schemas';
import { readScenarioText } from '../../runtime/engine/scenario-load';
import { pythonWith } from '../python-envs';

const ROOT = resolve(__dirname, '..', '..');
const engines = pythonWith(['rasa.builder.copilot.mcp_server.tools.scenario'], {
  envs: ['engines'],
  onlyEnvs: true,
});

/** Hooksmith's verdict on one eval file's text: accepted, or the first issue. */
function ours(text: string): { verdict: 'accepted' | 'rejected'; why?: string } {
  try {
    readScenarioText('/agent/eval/scenarios/case.yml', text);
    return { verdict: 'accepted' };
  } catch (e) {
    const issues = (e as { issues?: { message: string }[] }).issues;
    return { verdict: 'rejected', why: issues?.[0]?.message ?? (e as Error).message };
  }
}

const S = (body: string) => `scenario:\n  name: x\n  simulation_context: hi\n${body}`;
const A = (assertion: string) => S(`  goals:\n    assertions:\n      - ${assertion}\n`);

/** Documents written here: each key, kind and rule of the schema, both ways. */
const WRITTEN: Record<string, string> = {
  minimal: S(''),
  'type (the docs describe it)': S('  type: happy_path\n'),
  'no simulation_context': 'scenario:\n  name: x\n',
  'null name': 'scenario:\n  name:\n  simulation_context: hi\n',
  'numeric name': 'scenario:\n  name: 3\n  simulation_context: hi\n',
  'empty name': "scenario:\n  name: ''\n  simulation_context: hi\n",
  'unknown top key': `${S('')}other: 1\n`,
  'null setup': S('  setup:\n'),
  initial_slots: S('  setup: { initial_slots: { a: 1, b: [x] } }\n'),
  'initial_slots empty': S('  setup: { initial_slots: {} }\n'),
  'initial_slots a list': S('  setup: { initial_slots: [a] }\n'),
  'null goals': S('  goals:\n'),
  'empty assertions': S('  goals: { assertions: [] }\n'),
  'null assertions': S('  goals: { assertions: }\n'),
  criteria: S('  goals: { criteria: [be kind, be brief] }\n'),
  'criteria null item': S('  goals: { criteria: [null] }\n'),
  'criteria object item': S('  goals: { criteria: [{ judge: 1 }] }\n'),
  'two keys in one assertion': A('{ flow_started: a, action_executed: b }'),
  'an assertion as text': S('  goals: { assertions: [flow_started] }\n'),
  'tool_called (not a 3.21 kind)': A('{ tool_called: { tool_name: a } }'),
  'agent_message (not a 3.21 kind)': A('{ agent_message: { contains: hi } }'),
  'flow_started text': A('{ flow_started: checkout }'),
  'flow_started null': A('{ flow_started: }'),
  flow_completed: A('{ flow_completed: { flow_id: f, flow_step_id: s } }'),
  'flow_completed without flow_id': A('{ flow_completed: { flow_step_id: s } }'),
  'action_executed null': A('{ action_executed: }'),
  slot_was_set: A('{ slot_was_set: [{ name: a, value: 1 }, { name: b }] }'),
  'slot_was_set item without name': A('{ slot_was_set: [{ value: 1 }] }'),
  'bot_uttered text_matches': A('{ bot_uttered: { text_matches: "on its way" } }'),
  'bot_uttered empty': A('{ bot_uttered: {} }'),
  'bot_uttered unknown key': A('{ bot_uttered: { text: hi } }'),
  'generative threshold whole': A('{ generative_response_is_relevant: { threshold: 1 } }'),
  'generative threshold text': A("{ generative_response_is_relevant: { threshold: 'a' } }"),
  'generative without threshold': A('{ generative_response_is_grounded: { ground_truth: x } }'),
  skill_activated: A('{ skill_activated: { skill_id: s } }'),
  'skill_activated null': A('{ skill_activated: }'),
  'skill_cancelled with step': A('{ skill_cancelled: { skill_id: s, step_id: t } }'),
  memory_was_set: A('{ memory_was_set: [{ name: p.a, value: 1 }] }'),
  'memory_was_set null': A('{ memory_was_set: }'),
  'memory_was_not_set without value': A('{ memory_was_not_set: [{ name: p.a }] }'),
  memory_was_cleared: A('{ memory_was_cleared: [{ name: p.a }] }'),
  ordered_block_entered: A('{ ordered_block_entered: { skill_id: s, block_id: main } }'),
  'ordered_block_entered without block': A('{ ordered_block_entered: { skill_id: s } }'),
  tool_executed: A(
    '{ tool_executed: { tool_name: a, source: local, is_error: false, arguments: { x: 1 } } }',
  ),
  'tool_executed without source': A('{ tool_executed: { tool_name: a } }'),
  'tool_executed source other': A('{ tool_executed: { tool_name: a, source: remote } }'),
  tools_within_one_turn: A(
    '{ tools_within_one_turn: { allow_extra_calls: false, calls: [{ tool_executed: { tool_name: a, source: local } }, { tool_executed: { tool_name: b, source: mcp, mcp_server: m } }] } }',
  ),
  'tools_within_one_turn one call': A(
    '{ tools_within_one_turn: { allow_extra_calls: true, calls: [{ tool_executed: { tool_name: a, source: local } }] } }',
  ),
  sequencing: A(
    '{ sequencing: [{ memory_was_set: a.b }, { skill_activated: { skill_id: s } }, { flow_started: f }] }',
  ),
  'sequencing with a top-level-only kind': A('{ sequencing: [{ memory_was_not_set: a.b }] }'),
  expected_tools: S(
    '  goals: { expected_tools: [{ tool_called: a }, { tool_called: { tool_name: b, arguments: { x: 1 } }, gate: true }] }\n',
  ),
  'expected_tools group': S(
    '  goals: { expected_tools: [{ tool_group: [{ ordered: true }, { tool_called: a }, { tool_called: b }] }] }\n',
  ),
  'expected_tools as text': S('  goals: { expected_tools: [foo] }\n'),
  'goals unknown key': S('  goals: { checks: [] }\n'),
};

/** rasa-pro's load_scenario on each document, and the scenarios its own skill docs ship. */
const LOADER = `
import json, os, re, sys, tempfile
os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")
from pathlib import Path
import rasa
from rasa.builder.copilot.mcp_server.tools.scenario import load_scenario
docs = json.load(sys.stdin)
shipped = {}
for md in Path(rasa.__file__).parent.rglob("SKILL.md"):
    for m in re.finditer(r"\`\`\`yaml (eval/scenarios/[^\\n]+)\\n(.*?)\`\`\`", md.read_text(encoding="utf-8"), re.S):
        shipped[f"{md.parent.name}/{m.group(1)}"] = m.group(2)
out = {}
for name, text in {**docs, **{"shipped: " + k: v for k, v in shipped.items()}}.items():
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "case.yml"
        p.write_text(text, encoding="utf-8")
        try:
            load_scenario(p)
            out[name] = {"verdict": "accepted", "text": text}
        except Exception as e:
            out[name] = {"verdict": "rejected", "text": text, "why": [l for l in str(e).splitlines() if l.strip()][-1]}
print(json.dumps(out))
`;

test('the stored facts: rasa-pro 3.21 has no scenario.type, 27 assertion kinds, goals with expected_tools; each with its source', () => {
  const f = MANTLE_EVAL_LINE.facts;
  assert.equal(f.typeKey.defined, false);
  assert.match(f.typeKey.loader.error ?? '', /Key 'type' was not defined/);
  assert.deepEqual(
    f.scenarioKeys.map((k) => [k.key, k.required]),
    [
      ['name', true],
      ['simulation_context', true],
      ['setup', false],
      ['goals', false],
    ],
  );
  assert.deepEqual(
    f.goalsKeys.map((k) => k.key),
    ['assertions', 'criteria', 'expected_tools'],
  );
  assert.deepEqual(
    f.setupKeys.map((k) => k.key),
    ['initial_slots'],
  );
  assert.equal(f.assertionKinds.length, 27);
  for (const k of [...f.scenarioKeys, ...f.goalsKeys, ...f.assertionKinds, ...f.sequencingKinds])
    assert.match(k.source, /^rasa\/builder\/copilot\/mcp_server\/schema\/scenario_schema\.yml:\d+$/, k.key);
  assert.match(
    MANTLE_EVAL_LINE.loader.source,
    /^rasa\/builder\/copilot\/mcp_server\/tools\/scenario\.py:\d+$/,
  );
  assert.equal(MANTLE_EVAL_LINE.probes.hooksmith?.verdict, 'rejected');
});

test('the editor completes what the engine takes: the scenario keys, goals and the 27 assertion kinds; no `type`', () => {
  const schema = buildSchemas()['mantle-scenario.schema.json'] as {
    properties: { scenario: { properties: Record<string, { properties?: Record<string, unknown> }> } };
  };
  const scenario = schema.properties.scenario;
  assert.deepEqual(Object.keys(scenario.properties).sort(), [
    'goals',
    'hooksmith',
    'name',
    'setup',
    'simulation_context',
  ]);
  const goals = scenario.properties.goals!.properties!;
  assert.deepEqual(Object.keys(goals).sort(), ['assertions', 'criteria', 'expected_tools']);
  const text = JSON.stringify(goals.assertions);
  for (const k of MANTLE_EVAL_LINE.facts.assertionKinds) assert.ok(text.includes(`"${k.key}"`), k.key);
  // The file the editor reads is what the code generates (npm run gen).
  const stored = JSON.parse(readFileSync(join(ROOT, 'schemas', 'mantle-scenario.schema.json'), 'utf8'));
  assert.deepEqual(stored, JSON.parse(JSON.stringify(schema)));
});

test(
  "Hooksmith's verdict on each eval file is rasa-pro's load_scenario's (written cases, and the scenarios rasa-pro ships)",
  { skip: engines.skip ?? false },
  () => {
    const r = spawnSync(engines.python!, ['-c', LOADER], {
      input: JSON.stringify(WRITTEN),
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const theirs = JSON.parse(r.stdout) as Record<string, { verdict: string; text: string; why?: string }>;
    const shipped = Object.keys(theirs).filter((k) => k.startsWith('shipped: '));
    assert.ok(shipped.length >= 2, `scenarios shipped in rasa-pro's skill docs: ${shipped.join(', ')}`);
    const differ: string[] = [];
    for (const [name, t] of Object.entries(theirs)) {
      const o = ours(t.text);
      if (o.verdict !== t.verdict)
        differ.push(
          `${name}: Hooksmith ${o.verdict}${o.why ? ` (${o.why})` : ''}, rasa-pro ${t.verdict}${t.why ? ` (${t.why})` : ''}`,
        );
    }
    assert.deepEqual(differ, []);
  },
);

test(
  'the stored facts are what scripts/introspect-mantle-eval.py reads from the installed rasa-pro today',
  { skip: engines.skip ?? false },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'hooksmith-eval-line-'));
    try {
      const out = join(dir, 'line.json');
      const r = spawnSync(
        engines.python!,
        [join(ROOT, 'scripts', 'introspect-mantle-eval.py'), '--out', out],
        {
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), MANTLE_EVAL_LINE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
