import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { chooseInterpreter, probePython, type ProbeResult } from '../../client/python/probe';

test('python3 probes ok with its executable and version (real python3)', async () => {
  const r = await probePython('python3');
  assert.ok(r.ok, JSON.stringify(r));
  assert.match(r.version, /^3\.\d+\.\d+$/);
});

test('a missing interpreter is rejected with "not found"', async () => {
  const r = await probePython('/nonexistent/python9');
  assert.deepEqual(r, { ok: false, reason: '/nonexistent/python9: not found' });
});

test('choice: first working candidate; earlier rejections kept with their source; duplicates probed once', async () => {
  const probed: string[] = [];
  const fake = async (p: string): Promise<ProbeResult> => {
    probed.push(p);
    return p === 'good'
      ? { ok: true, executable: '/usr/bin/good', version: '3.12.1' }
      : { ok: false, reason: `${p}: not found` };
  };
  const c = await chooseInterpreter(
    [
      { python: 'bad', source: "the Python extension's active environment" },
      { python: 'bad', source: 'the hooksmith.pythonPath setting' },
      { python: '', source: 'empty' },
      { python: 'good', source: 'the default' },
    ],
    fake,
  );
  assert.deepEqual(c, {
    ok: true,
    python: '/usr/bin/good',
    source: 'the default',
    version: '3.12.1',
    rejected: ["the Python extension's active environment: bad: not found"],
  });
  assert.deepEqual(probed, ['bad', 'good']);
  const none = await chooseInterpreter([{ python: 'bad', source: 'the default' }], fake);
  assert.deepEqual(none, { ok: false, rejected: ['the default: bad: not found'] });
});

test('an old Python is rejected with the version it has (a fake interpreter script)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hooksmith-py-'));
  const fake = path.join(dir, 'python');
  fs.writeFileSync(fake, '#!/bin/sh\necho /opt/old/python\necho 3.7.1\n', { mode: 0o755 });
  try {
    const r = await probePython(fake);
    assert.deepEqual(r, { ok: false, reason: `${fake} is Python 3.7.1; Hooksmith needs 3.9 or newer` });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
