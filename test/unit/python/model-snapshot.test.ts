// The model of every example module (and of generated and awkward sources) is exactly the one
// recorded before the parser's speed rewrite: a faster walk must not change what it builds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SNAPSHOT, diagnosticsOf, modelsOf, snapshotSources } from './model-snapshot-sources';

type Snapshot = { models: Record<string, unknown>; diagnostics: Record<string, unknown> };

test('models and diagnostics of examples, generated and awkward modules are unchanged', async () => {
  const expected = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Snapshot;
  const sources = snapshotSources();
  const models = await modelsOf(sources);
  const actual = JSON.parse(
    JSON.stringify({ models, diagnostics: diagnosticsOf(sources, models) }),
  ) as Snapshot;
  assert.deepEqual(Object.keys(actual.models).sort(), Object.keys(expected.models).sort());
  for (const k of Object.keys(expected.models))
    assert.deepEqual(actual.models[k], expected.models[k], `model of ${k}`);
  for (const k of Object.keys(expected.diagnostics))
    assert.deepEqual(actual.diagnostics[k], expected.diagnostics[k], `diagnostics of ${k}`);
});
