// A New Scenario (runtime/scaffold/new-scenario.ts) for real hooks, played by `hooksmith test` over
// the built CLI with a real python3: the scenario it writes for the clean agent's hooks (Mantle
// modify and observe, one that retries an answer citing nothing, an unwired point, a knowledge
// hook, a Cayu phase) passes as written, and so does the plain turn; a hook that steers
// (RetryModel) fails its hook_outcome.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { newScenarioText } from '../../runtime/scaffold/new-scenario';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let agent: string;

before(() => {
  agent = join(mkdtempSync(join(tmpdir(), 'hooksmith-new-scenario-')), 'agent');
  cpSync(join(root, 'examples', 'clean-agent'), agent, { recursive: true });
});
after(() => rmSync(join(agent, '..'), { recursive: true, force: true }));

test("the clean agent's hooks: the new scenario passes, each picked hook's outcome checked", () => {
  const file = join(agent, 'new.scenario.yaml');
  writeFileSync(
    file,
    newScenarioText([
      { handler: 'guard_orders', point: 'tool_call', wired: true },
      { handler: 'require_grounding', point: 'model_response', wired: true },
      { handler: 'mark_end', point: 'turn_finished', wired: true },
      { handler: 'log_incoming', point: 'incoming_message', wired: false },
      { handler: 'expand_query', point: 'knowledge_query', wired: true },
      { handler: 'ToolGuard.before_tool_call', point: 'before_tool_call', wired: true },
    ]),
  );
  const r = spawnSync(process.execPath, [cli, 'test', file, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as {
    passed: number;
    cases: { expectations: { name: string; passed: boolean }[] }[];
  };
  assert.equal(report.passed, 1);
  const names = report.cases[0]!.expectations.map((e) => `${e.name}: ${e.passed}`);
  for (const hook of [
    'guard_orders',
    'require_grounding',
    'mark_end',
    'log_incoming',
    'expand_query',
    'ToolGuard.before_tool_call',
  ])
    assert.ok(
      names.some((n) => n.includes(hook) && n.endsWith(': true')),
      `${hook} checked: ${names.join(', ')}`,
    );
});

test('none picked: the plain turn passes in the bundled example, its grounding hook included', () => {
  const file = join(agent, 'plain.scenario.yaml');
  writeFileSync(file, newScenarioText([]));
  const r = spawnSync(process.execPath, [cli, 'test', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /PASSED \S*plain\.scenario\.yaml::new scenario/);
});

test('a hook that steers (RetryModel) fails its hook_outcome: returned (the test checks something)', () => {
  // In place of guard_orders (one modify hook per point).
  rmSync(join(agent, 'hooks', 'tool_hooks.py'));
  writeFileSync(
    join(agent, 'hooks', 'strict.py'),
    [
      'from rasa.mantle.hooks import RetryModel, ToolCallPayload, modify_tool_call',
      '',
      '',
      '@modify_tool_call()',
      'async def refuse_all(call: ToolCallPayload) -> ToolCallPayload:',
      '    raise RetryModel("no tools today")',
      '',
    ].join('\n'),
  );
  const file = join(agent, 'strict.scenario.yaml');
  writeFileSync(file, newScenarioText([{ handler: 'refuse_all', point: 'tool_call', wired: true }]));
  const r = spawnSync(process.execPath, [cli, 'test', file], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /hook_outcome tool_call refuse_all/);
});
