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
import { gaveUpOn, PythonEnvironment } from '../../runtime/cpython/environment';

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

// The probe killed mid-import (#44 item 17, the case left): an engine whose import forks a setsid
// daemon and then hangs past the probe's timeout. The probe never gets to end its descendants
// itself; Hooksmith kills its whole tree (the daemon was re-parented to it, a subreaper), not only
// its process group, which the daemon left.
test(
  'an engine whose import forks a setsid daemon, then hangs past the probe timeout: the daemon does not outlive the killed probe',
  { skip: process.platform !== 'linux' && 'Linux only (subreaper)' },
  async () => {
    const site = join(dir, 'site-hang');
    makeFakeRasaPro(site, '3.21.0');
    const hooks = join(site, 'rasa', 'mantle', 'hooks.py');
    const marker = join(dir, 'daemon-hang.pid');
    writeFileSync(hooks, `${DAEMON(marker)}\ntime.sleep(120)\n${readFileSync(hooks, 'utf8')}`);
    const saved = process.env.PYTHONPATH;
    process.env.PYTHONPATH = site;
    const env = new PythonEnvironment({ python: 'python3', timeoutMs: 4000 });
    let facts: unknown;
    try {
      facts = await env.engine();
    } finally {
      env.dispose();
      if (saved === undefined) delete process.env.PYTHONPATH;
      else process.env.PYTHONPATH = saved;
    }
    assert.equal(facts, undefined, 'the probe was given up on (its import hangs)');
    assert.match(gaveUpOn('python3') ?? '', /did not answer within 4 s/);
    assert.ok(existsSync(marker), "the fake engine's import ran");
    const pid = Number(readFileSync(marker, 'utf8'));
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++, await sleep(100)) gone = !alive(pid);
    if (!gone) process.kill(pid, 'SIGKILL');
    assert.ok(gone, `daemon ${pid} outlived the killed probe`);
  },
);
