import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildSchemas, schemaText } from '../../runtime/engine/json-schemas';
import {
  loadScenario,
  parseScenarioText,
  ScenarioError,
  validateScenario,
} from '../../runtime/engine/scenario-load';

const root = join(__dirname, '..', '..');

function errorsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ScenarioError);
    return err.details;
  }
  assert.fail('expected a ScenarioError');
}

test('errors name the JSON path', () => {
  const details = errorsOf(() =>
    validateScenario(
      { user: 'x', completions: [{ text: 'a' }, { tool_calls: [{ tool_name: 3 }] }] },
      's.yaml',
    ),
  );
  assert.deepEqual(details, ['completions[1].tool_calls[0].tool_name: expected string, received number']);
  const more = errorsOf(() =>
    validateScenario(
      { completions: [{ quiet: 'loud' }], tools: { t: { latency_ms: -1 } }, bogus: 1 },
      's.yaml',
    ),
  );
  assert.ok(more.some((d) => d.startsWith('user:')));
  assert.ok(more.some((d) => d.startsWith('completions[0].quiet:')));
  assert.ok(more.some((d) => d.startsWith('tools.t.latency_ms:')));
  assert.ok(more.includes("(root): unknown key 'bogus'"));
});

test('YAML and JSON parse; bad syntax is a ScenarioError', () => {
  assert.deepEqual(parseScenarioText('user: hi\n', 'a.scenario.yaml'), { user: 'hi' });
  assert.deepEqual(parseScenarioText('{"user": "hi"}', 'a.scenario.json'), { user: 'hi' });
  assert.throws(() => parseScenarioText('{"user": ', 'a.scenario.json'), ScenarioError);
  assert.throws(() => parseScenarioText('user: [unclosed\n', 'a.scenario.yaml'), ScenarioError);
});

test('defaults: sender, channel, iteration cap, knowledge tool', () => {
  const s = validateScenario({ user: 'x', knowledge: {} }, 'x');
  assert.equal(s.sender_id, 'demo-user');
  assert.equal(s.channel, 'rest');
  assert.equal(s.max_iterations, 10);
  assert.equal(s.knowledge?.tool, 'search_knowledge');
  assert.equal(s.fire_unwired, false);
});

test('the example scenarios are valid and their agent is clean-agent', () => {
  for (const f of [
    'order-pizza.scenario.yaml',
    'guarded-tools.scenario.yaml',
    'provider-error.scenario.json',
  ]) {
    const loaded = loadScenario(join(root, 'examples/clean-agent', f));
    assert.equal(loaded.agentRoot, join(root, 'examples/clean-agent'));
  }
});

test('committed JSON Schemas are up to date (regenerate: node --import tsx scripts/gen-schemas.ts)', () => {
  for (const [rel, schema] of Object.entries(buildSchemas())) {
    const committed = readFileSync(join(root, 'schemas', rel), 'utf8');
    assert.equal(committed, schemaText(schema), `schemas/${rel} is stale`);
  }
});

test('the payload schema offers every payload type and Cayu context', () => {
  const p = buildSchemas()['payload.schema.json'] as {
    anyOf: unknown[];
    definitions: Record<string, { properties: Record<string, { description?: string }> }>;
  };
  assert.equal(p.anyOf.length, 15);
  assert.match(p.definitions.ToolResultPayload!.properties.value!.description!, /serialized JSON text/);
  assert.match(p.definitions.ModelRequestPayload!.properties.tool_names!.description!, /read-only/);
});

test('numbers are bounded: a latency of 2e9 ms or 1e12 ms, a huge iteration cap, each named by its path', () => {
  const details = errorsOf(() =>
    validateScenario(
      {
        user: 'x',
        completions: [{ text: 'a', latency_ms: 2e9 }],
        tools: { t: { latency_ms: 1e12 } },
        knowledge: { latency_ms: 60_001 },
        max_iterations: 1e9,
        interrupt: { after_iteration: 1e6 },
      },
      's.yaml',
    ),
  );
  assert.deepEqual(details.map((d) => d.split(':')[0]).sort(), [
    'completions[0].latency_ms',
    'interrupt.after_iteration',
    'knowledge.latency_ms',
    'max_iterations',
    'tools.t.latency_ms',
  ]);
  assert.ok(
    details.every((d) => /Too big: expected number to be <=\d+/.test(d)),
    details.join('\n'),
  );
  assert.equal(validateScenario({ user: 'x', max_iterations: 1000 }, 'x').max_iterations, 1000);
});
