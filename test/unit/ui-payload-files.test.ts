import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { validatePayload } from '../../runtime/engine/payload-input';
import { getPoint } from '../../runtime/catalogue';
import {
  agentRootOf,
  createSampleFile,
  listSamples,
  newSampleFileName,
  payloadsDir,
  readPayloadFile,
  sampleMatchesPoint,
} from '../../runtime/ui/payload-files';

function tempAgent(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hooksmith-ui-'));
  fs.writeFileSync(path.join(dir, 'hooks.py'), '');
  fs.mkdirSync(path.join(dir, 'hooks'));
  fs.writeFileSync(path.join(dir, 'hooks', 'tools.py'), '');
  return dir;
}

test('sample names: <point>.json, <point>-label.json and <point>.label.json match; a longer point name does not', () => {
  assert.ok(sampleMatchesPoint('tool_call.json', 'tool_call'));
  assert.ok(sampleMatchesPoint('tool_call-refund.json', 'tool_call'));
  assert.ok(sampleMatchesPoint('tool_call.refund.json', 'tool_call'));
  assert.ok(!sampleMatchesPoint('tool_call_extra.json', 'tool_call'));
  assert.ok(!sampleMatchesPoint('tool_result.json', 'tool_call'));
  assert.ok(!sampleMatchesPoint('tool_call.yaml', 'tool_call'));
});

test('a new sample takes the first free name', () => {
  assert.equal(newSampleFileName('tool_call', []), 'tool_call.json');
  assert.equal(newSampleFileName('tool_call', ['/x/tool_call.json']), 'tool_call-2.json');
  assert.equal(newSampleFileName('tool_call', ['tool_call.json', 'tool_call-2.json']), 'tool_call-3.json');
});

test('createSampleFile writes the catalogue sample (valid for the engine), listSamples finds it first', () => {
  const root = tempAgent();
  try {
    assert.deepEqual(listSamples(root, 'tool_call'), []);
    const a = createSampleFile(root, 'tool_call');
    assert.equal(a, path.join(payloadsDir(root), 'tool_call.json'));
    const read = readPayloadFile(a);
    assert.ok(read.ok);
    assert.ok(validatePayload(getPoint('tool_call').payloadType, read.payload).ok);
    const b = createSampleFile(root, 'tool_call');
    assert.equal(path.basename(b), 'tool_call-2.json');
    fs.writeFileSync(path.join(payloadsDir(root), 'a-tool_call.json'), '{}');
    assert.deepEqual(
      listSamples(root, 'tool_call').map((f) => path.basename(f)),
      ['tool_call.json', 'tool_call-2.json'],
    );
    // A Cayu phase gets its context sample.
    assert.ok(readPayloadFile(createSampleFile(root, 'before_tool_call')).ok);
    assert.throws(() => createSampleFile(root, 'no_such_point'), /unknown point/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a malformed payload file is a clear message, not a throw', () => {
  const root = tempAgent();
  try {
    const f = path.join(root, 'bad.json');
    fs.writeFileSync(f, '{"text": ');
    const r = readPayloadFile(f);
    assert.ok(!r.ok && /bad\.json is not valid JSON/.test(r.message));
    const missing = readPayloadFile(path.join(root, 'nope.json'));
    assert.ok(!missing.ok && /cannot read/.test(missing.message));
    fs.writeFileSync(f, '\uFEFF{"a":1}');
    assert.deepEqual(readPayloadFile(f), { ok: true, payload: { a: 1 } });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('samples live at the agent root of a hook module, or beside a loose Cayu file', () => {
  const root = tempAgent();
  try {
    assert.equal(agentRootOf(path.join(root, 'hooks', 'tools.py')), root);
    const loose = fs.mkdtempSync(path.join(os.tmpdir(), 'hooksmith-cayu-'));
    assert.equal(agentRootOf(path.join(loose, 'runtime_hooks.py')), loose);
    fs.rmSync(loose, { recursive: true, force: true });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
