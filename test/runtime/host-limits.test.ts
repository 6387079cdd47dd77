// Issue #24 items 6, 8 and 11 with the built CLI and a real python3: protocol lines a hook forges
// on the host's descriptors are its crash (exit 1), an interpreter that never answers is exit 2
// naming it (not a hang), and a hook over the host's memory limit crashes with MemoryError.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'hooksmith-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const hook = (body: string) => `import os

from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
${body
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
    return call
`;

const payload = join(dir, 'call.json');
writeFileSync(
  payload,
  JSON.stringify({
    sender_id: 'u',
    call: null,
    channel: { name: 'rest', metadata: {} },
    tool_name: 'x',
    arguments: {},
    headers: {},
  }),
);

function run(file: string, ...extra: string[]) {
  return spawnSync(process.execPath, [cli, 'run', `${file}::guard`, '--payload', payload, ...extra], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

test('a hook that writes forged protocol lines to every descriptor: its crash (exit 1), no internal error', () => {
  writeFileSync(
    join(dir, 'forge.py'),
    hook(
      'for fd in range(3, 64):\n    for rid in range(1, 40):\n        try:\n' +
        '            os.write(fd, b\'{"id": %d, "status": "returned"}\\n{"id": %d, "status": "raised", "exception": 1}\\n\' % (rid, rid))\n' +
        '        except OSError:\n            break',
    ),
  );
  const r = run('forge.py');
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /outcome: crashed/);
  assert.match(r.stdout, /malformed answer/);
  assert.doesNotMatch(r.stderr, /internal error/);
});

test('--python naming an interpreter that never answers: run and check end with exit 2 naming it', () => {
  const sleepy = join(dir, 'sleepy-python');
  writeFileSync(sleepy, '#!/bin/sh\nexec sleep 1000\n');
  chmodSync(sleepy, 0o755);
  writeFileSync(join(dir, 'fine.py'), hook('pass'));
  const t0 = Date.now();
  const r = run('fine.py', '--python', sleepy);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`${sleepy} did not answer within 15 s of starting`));
  const c = spawnSync(process.execPath, [cli, 'check', 'fine.py', '--python', sleepy], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(c.status, 2, c.stdout + c.stderr);
  assert.match(c.stderr, new RegExp(`${sleepy} did not answer within 15 s of starting`));
  assert.ok(Date.now() - t0 < 100_000);
});

test('memory: a hook over the host limit (default 4096 MiB, --memory-limit MIB) crashes with MemoryError, exit 1', () => {
  writeFileSync(join(dir, 'huge.py'), hook('big = bytearray(6 * 1024 ** 3)'));
  const byDefault = run('huge.py');
  assert.equal(byDefault.status, 1, byDefault.stdout + byDefault.stderr);
  assert.match(byDefault.stdout, /outcome: crashed/);
  assert.match(byDefault.stdout, /MemoryError/);
  writeFileSync(join(dir, 'big.py'), hook('big = bytearray(3 * 1024 ** 3)'));
  const limited = run('big.py', '--memory-limit', '1024');
  assert.equal(limited.status, 1, limited.stdout + limited.stderr);
  assert.match(limited.stdout, /MemoryError/);
  assert.doesNotMatch(limited.stdout, /timed out|timed-out/);
  const bad = run('big.py', '--memory-limit', '1e3');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--memory-limit takes whole MiB/);
});
