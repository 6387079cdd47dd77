import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CAYU_PHASE_IDS, getPoint, POINT_IDS } from '../../runtime/catalogue';
import { validateCayuContext } from '../../runtime/engine/cayu-context';
import { validatePayload } from '../../runtime/engine/payload-input';
import { samplePayload } from '../../runtime/engine/samples';

test('every point and phase has a sample that validates; decorator names resolve', () => {
  for (const id of POINT_IDS) {
    const s = samplePayload(id);
    assert.ok(s.ok && validatePayload(getPoint(id).payloadType, s.payload).ok, id);
  }
  for (const phase of CAYU_PHASE_IDS) {
    const s = samplePayload(phase);
    assert.ok(s.ok && validateCayuContext(phase, s.payload).ok, phase);
  }
  const d = samplePayload('modify_tool_result');
  assert.ok(d.ok && d.name === 'tool_result');
  assert.equal(samplePayload('nope').ok, false);
});

test('a tool result value is JSON text, as the engine sends it', () => {
  const s = samplePayload('tool_result');
  assert.ok(s.ok);
  assert.equal(typeof s.payload.value, 'string');
  assert.doesNotThrow(() => JSON.parse(String(s.payload.value)));
});

test('saved payloads in examples/clean-agent/.hooksmith/payloads are valid', () => {
  const dir = join(__dirname, '..', '..', 'examples/clean-agent/.hooksmith/payloads');
  const ids: readonly string[] = [...POINT_IDS, ...CAYU_PHASE_IDS];
  const files = readdirSync(dir);
  // One sample per point and phase; other files are extra test cases of a hook (hook + expect).
  assert.equal(files.filter((f) => ids.includes(f.replace(/\.json$/, ''))).length, ids.length);
  for (const f of files) {
    const id = f.replace(/\.json$/, '');
    const data = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    if (!ids.includes(id)) {
      assert.ok(data.hook && data.expect, `${f}: neither a point's sample nor a test case`);
      continue;
    }
    const ok = (POINT_IDS as readonly string[]).includes(id)
      ? validatePayload(getPoint(id as never).payloadType, data).ok
      : validateCayuContext(id as never, data).ok;
    assert.ok(ok, f);
  }
});
