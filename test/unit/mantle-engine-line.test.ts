// The catalogue against the engine line read from rasa-pro 3.21.0 (scripts/introspect-mantle-line.py):
// every difference is fixed, or kept in KEPT_DIFFERENCES with its reason. Where an interpreter that
// imports rasa.mantle.hooks 3.21.0 is there (the engines test environment), the stored line is also re-read
// from the package and must be what the script writes today.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  diffMantleLine,
  KEPT_DIFFERENCES,
  normalisePythonType,
  type EngineLineData,
} from '../../runtime/catalogue/engine-line-diff';
import { getPayloadType, MANTLE_EXPORTS } from '../../runtime/catalogue';
import { pythonWith } from '../python-envs';

const ROOT = path.resolve(__dirname, '..', '..');
const LINE_FILE = path.join(ROOT, 'runtime', 'catalogue', 'engine-lines', 'rasa-pro-3.21.json');
const line = JSON.parse(fs.readFileSync(LINE_FILE, 'utf8')) as EngineLineData;

const key = (d: { fact: string; ours: string; engine: string }) =>
  `${d.fact} | ours ${d.ours} | engine ${d.engine}`;

test('the catalogue differs from rasa-pro 3.21.0 only where a kept difference says why', () => {
  const found = diffMantleLine(line).map(key).sort();
  assert.deepEqual(found, KEPT_DIFFERENCES.map(key).sort());
});

test('every engine fact the diff reads carries its source file:line', () => {
  for (const p of line.points) {
    assert.match(p.source, /^rasa\/mantle\/hooks\/points\.py:\d+$/);
    if (p.wired)
      assert.ok(
        p.callSites.some((s) => s.calledFrom.length > 0),
        p.id,
      );
  }
  for (const m of line.payloads)
    for (const f of m.fields) assert.match(f.source, /^rasa\/mantle\/hooks\/payloads\.py:\d+$/);
  for (const [name, f] of Object.entries(line.runner))
    assert.ok(f.source, `runner fact ${name} has no source`);
});

test('fields the real models have and the catalogue lacked are there now (hover, completion, run read these)', () => {
  const outgoing = getPayloadType('OutgoingTextPayload').fields.find((f) => f.name === 'is_voice');
  assert.equal(outgoing?.pythonType, 'bool');
  assert.equal(outgoing?.mutability, 'read-only');
  const incoming = getPayloadType('IncomingMessagePayload').fields.find((f) => f.name === 'message_id');
  assert.equal(incoming?.pythonType, 'str | None');
  for (const name of ['CallInfo', 'ChannelInfo', 'HookPayload', 'HookControlFlow'])
    assert.ok(MANTLE_EXPORTS.includes(name));
});

test('a difference the diff was not told about fails it (the diff is not blind)', () => {
  const changed = structuredClone(line);
  const outgoing = changed.payloads.find((p) => p.name === 'OutgoingTextPayload')!;
  outgoing.fields.push({ ...outgoing.fields.at(-1)!, name: 'language', pythonType: 'Optional[str]' });
  changed.points.find((p) => p.id === 'tool_result')!.failPolicyModify = 'closed';
  const found = diffMantleLine(changed).map((d) => d.fact);
  assert.ok(found.includes('OutgoingTextPayload.language: field'));
  assert.ok(found.includes('tool_result: fail policy'));
});

test('Python annotations are spelled as the catalogue spells them', () => {
  assert.equal(normalisePythonType('Optional[str]'), 'str | None');
  assert.equal(normalisePythonType('list[dict[str, Any]]'), 'list[dict]');
  assert.equal(normalisePythonType('dict[str, str]'), 'dict[str, str]');
});

const mantle = pythonWith(['rasa.mantle.hooks'], {
  envs: ['engines'],
  version: { dist: 'rasa-pro', is: line.version },
});
test(
  'the stored line is what the script reads from the installed package today',
  { skip: mantle.skip ?? false },
  () => {
    const run = spawnSync(
      mantle.python!,
      [path.join(ROOT, 'scripts', 'introspect-mantle-line.py'), '--stdout'],
      {
        encoding: 'utf8',
        env: { ...process.env, RASA_TELEMETRY_ENABLED: 'false' },
        timeout: 120_000,
      },
    );
    assert.equal(run.status, 0, run.stderr);
    const fresh = JSON.parse(run.stdout) as EngineLineData;
    assert.deepEqual(fresh, line);
  },
);
