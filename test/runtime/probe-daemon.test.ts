// Issue #44 item 17: an installed engine whose import forks a setsid daemon (double fork: a new
// session, re-parented away from the probe) leaves nothing running after `check`: the probe keeps
// what its imports start in its tree (a child subreaper, as the host) and ends it when it ends.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeFakeRasaPro } from './fixtures/fake-rasa-pro';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'hooksmith-probe-daemon-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const DAEMON = (marker: string) => `
import os, time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open(${JSON.stringify(marker)}, "w").write(str(os.getpid()))
        while True:
            time.sleep(1)
    os._exit(0)
time.sleep(0.3)
`;

test(
  'check with an engine whose import forks a setsid daemon: the daemon does not outlive the probe',
  { skip: process.platform !== 'linux' && 'Linux only (subreaper)' },
  async () => {
    const site = join(dir, 'site');
    makeFakeRasaPro(site, '3.21.0');
    const hooks = join(site, 'rasa', 'mantle', 'hooks.py');
    const marker = join(dir, 'daemon.pid');
    writeFileSync(hooks, DAEMON(marker) + readFileSync(hooks, 'utf8'));
    mkdirSync(join(dir, 'agent'));
    writeFileSync(join(dir, 'agent', 'hooks.py'), 'x = 1\n');
    const r = spawnSync(process.execPath, [cli, 'check', 'agent'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, PYTHONPATH: site, HOOKSMITH_NO_CACHE: '1' },
    });
    assert.ok(existsSync(marker), `the fake engine's import ran (check exited ${r.status}: ${r.stderr})`);
    const pid = Number(readFileSync(marker, 'utf8'));
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++, await sleep(100)) gone = !alive(pid);
    if (!gone) process.kill(pid, 'SIGKILL');
    assert.ok(gone, `daemon ${pid} outlived check`);
  },
);
