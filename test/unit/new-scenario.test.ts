// The New Scenario generator (runtime/scaffold/new-scenario.ts): the scenario it writes is one the
// loader accepts, names each picked hook in a hook_outcome, plays unwired points and knowledge
// search when a picked hook needs them; the folder and file name it picks; its snippets expand to
// valid scenarios.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { parseScenarioText, validateScenario } from '../../runtime/engine/scenario-load';
import {
  freeScenarioPath,
  newScenarioText,
  SCENARIO_SNIPPETS,
  scenarioFolder,
  scenarioName,
} from '../../runtime/scaffold/new-scenario';
import { expandSnippet } from '../../runtime/scaffold/snippet-syntax';

const load = (text: string) =>
  validateScenario(parseScenarioText(text, 'x.scenario.yaml'), 'x.scenario.yaml');

test('a scenario for a tool_call hook: one turn with a tool call, its hook_outcome expected', () => {
  const text = newScenarioText([{ handler: 'guard_orders', point: 'tool_call', wired: true }]);
  const s = load(text);
  assert.equal(s.name, 'guard orders');
  assert.equal(s.fire_unwired, false);
  assert.deepEqual(
    s.completions!.map((c) => (c.tool_calls ?? []).map((t) => t.tool_name)),
    [['lookup_order'], []],
  );
  const raw = parse(text) as { expect: Record<string, unknown> };
  assert.deepEqual(raw.expect, {
    status: 'completed',
    no_crashes: true,
    within_budget: true,
    hook_outcome: [{ point: 'tool_call', hook: 'guard_orders', outcome: 'returned' }],
  });
  assert.match(text, /^# A scenario for guard_orders \(tool_call\)\./);
});

test('an unwired point is played (fire_unwired), a knowledge hook gets a knowledge search', () => {
  const s = load(
    newScenarioText([
      { handler: 'log_incoming', point: 'incoming_message', wired: false },
      { handler: 'expand_query', point: 'knowledge_query', wired: true },
    ]),
  );
  assert.equal(s.fire_unwired, true);
  assert.ok(s.completions![0]!.tool_calls!.some((t) => t.tool_name === 'search_knowledge'));
  assert.equal(s.knowledge!.passages.length, 1);
  assert.deepEqual(
    (s.expect!.hook_outcome as { hook: string }[]).map((h) => h.hook),
    ['log_incoming', 'expand_query'],
  );
});

test('a Cayu phase a completed turn does not reach is a comment, not an expectation', () => {
  const text = newScenarioText([
    { handler: 'ToolGuard.before_tool_call', point: 'before_tool_call', wired: true },
    { handler: 'SessionAudit.after_session_failed', point: 'after_session_failed', wired: true },
  ]);
  const s = load(text);
  assert.deepEqual(
    (s.expect!.hook_outcome as { hook: string }[]).map((h) => h.hook),
    ['ToolGuard.before_tool_call'],
  );
  assert.match(
    text,
    /# SessionAudit\.after_session_failed: after_session_failed fires only in a turn that fails/,
  );
  assert.equal(
    scenarioName([{ handler: 'ToolGuard.before_tool_call', point: 'x', wired: true }]),
    'tool guard before tool call',
  );
});

test("the folder: the agent's scenarios' (the shallowest), else scenarios/, else the agent root; a free name", () => {
  const root = mkdtempSync(join(tmpdir(), 'hooksmith-new-scenario-'));
  try {
    assert.equal(scenarioFolder(root, []), root);
    mkdirSync(join(root, 'scenarios'));
    assert.equal(scenarioFolder(root, []), join(root, 'scenarios'));
    const files = [
      join(root, 'a', 'b', 'x.scenario.yaml'),
      join(root, 'tests', 'y.scenario.yaml'),
      '/elsewhere/z.scenario.yaml',
    ];
    assert.equal(scenarioFolder(root, files), join(root, 'tests'));
    assert.equal(freeScenarioPath(root, 'guard orders'), join(root, 'guard_orders.scenario.yaml'));
    writeFileSync(join(root, 'guard_orders.scenario.yaml'), '');
    assert.equal(freeScenarioPath(root, 'guard orders'), join(root, 'guard_orders-2.scenario.yaml'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the scenario and turns snippets expand to scenarios the loader accepts', () => {
  assert.deepEqual(
    SCENARIO_SNIPPETS.map((s) => s.prefix),
    ['scenario', 'turns'],
  );
  const one = load(expandSnippet(SCENARIO_SNIPPETS[0]!.body));
  assert.equal(one.user, 'Where is my order o-1?');
  assert.deepEqual(Object.keys(one.tools), ['lookup_order']);
  const conv = load(expandSnippet(SCENARIO_SNIPPETS[1]!.body));
  assert.equal(conv.turns!.length, 2);
});
