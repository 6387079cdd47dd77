// Issue #34 item 14: a CLI killed (SIGKILL) while its environment probe hangs importing an
// installed engine leaves no probe behind: the probe watches its parent and ends with it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeFakeRasaPro } from './fixtures/fake-rasa-pro';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'hooksmith-r5-orphans-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) if (cond()) return true;
  return cond();
}

test('a CLI killed while its probe hangs importing the installed engine: the probe ends too', async () => {
  const site = join(dir, 'hanging');
  makeFakeRasaPro(site, '3.22.0');
  const marker = join(dir, 'importer.pid');
  writeFileSync(
    join(site, 'rasa', 'mantle', 'hooks.py'),
    `import os, time\n\nopen(${JSON.stringify(marker)}, "w").write(str(os.getpid()))\nwhile True:\n    time.sleep(1)\n`,
  );
  mkdirSync(join(dir, 'agent'));
  writeFileSync(join(dir, 'agent', 'hooks.py'), 'x = 1\n');
  const child = spawn(process.execPath, [cli, 'check', 'agent'], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, PYTHONPATH: site, HOOKSMITH_NO_CACHE: '1' },
  });
  try {
    assert.ok(await until(() => existsSync(marker) && readFileSync(marker, 'utf8') !== '', 10_000));
    const pid = Number(readFileSync(marker, 'utf8'));
    child.kill('SIGKILL');
    // Before the fix the probe hung on for good (its 15 s bound lived in the killed CLI).
    const gone = await until(() => !alive(pid), 5_000);
    if (!gone) process.kill(pid, 'SIGKILL');
    assert.ok(gone, `probe ${pid} outlived its CLI`);
  } finally {
    child.kill('SIGKILL');
  }
});

test('a CLI killed while its host hangs importing the hook module: the host ends too', async () => {
  const marker = join(dir, 'host.pid');
  mkdirSync(join(dir, 'slow'));
  writeFileSync(
    join(dir, 'slow', 'hooks.py'),
    [
      'import os, time',
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started',
      '',
      '@on_turn_started()',
      'async def log(payload: TurnStartedPayload) -> None:',
      '    return None',
      '',
      `open(${JSON.stringify(marker)}, "w").write(str(os.getpid()))`,
      'while True:',
      '    time.sleep(1)',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'payload.json'), JSON.stringify({ sender_id: 'u1' }));
  const child = spawn(process.execPath, [cli, 'run', 'slow/hooks.py::log', '--payload', 'payload.json'], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, PYTHONPATH: '', HOOKSMITH_NO_CACHE: '1' },
  });
  try {
    assert.ok(await until(() => existsSync(marker) && readFileSync(marker, 'utf8') !== '', 20_000));
    const pid = Number(readFileSync(marker, 'utf8'));
    child.kill('SIGKILL');
    // Before the fix the host's loop, stuck in the import, never saw its stdin close.
    const gone = await until(() => !alive(pid), 5_000);
    if (!gone) process.kill(pid, 'SIGKILL');
    assert.ok(gone, `host ${pid} outlived its CLI`);
  } finally {
    child.kill('SIGKILL');
  }
});

test('a daemon forked while the probe imports the installed engine does not outlive check', async () => {
  const site = join(dir, 'forking');
  makeFakeRasaPro(site, '3.22.0');
  const marker = join(dir, 'daemon.pid');
  // The installed engine's import starts a background process (a telemetry daemon, say): a forked
  // child that leaves the import to finish and sleeps on.
  writeFileSync(
    join(site, 'rasa', 'mantle', 'hooks.py'),
    [
      'import os, time',
      'if os.fork() == 0:',
      `    open(${JSON.stringify(marker)}, "w").write(str(os.getpid()))`,
      '    time.sleep(1000)',
      '    os._exit(0)',
      '',
    ].join('\n'),
  );
  mkdirSync(join(dir, 'agent-forking'));
  writeFileSync(join(dir, 'agent-forking', 'hooks.py'), 'x = 1\n');
  const child = spawn(process.execPath, [cli, 'check', 'agent-forking'], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, PYTHONPATH: site, HOOKSMITH_NO_CACHE: '1' },
  });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  assert.ok(code === 0 || code === 1, `check exited ${code}`);
  assert.ok(
    await until(() => existsSync(marker) && readFileSync(marker, 'utf8') !== '', 5_000),
    'no daemon was started',
  );
  const pid = Number(readFileSync(marker, 'utf8'));
  const gone = await until(() => !alive(pid), 3_000);
  if (!gone) process.kill(pid, 'SIGKILL');
  assert.ok(gone, `daemon ${pid} outlived check`);
});
