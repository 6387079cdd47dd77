// Issue #34, the host (built CLI, real python3). Item 9: an installed rasa-pro whose import calls
// os._exit(0) means the hook module does not import: `run` is exit 2 (failed to load), as for an
// import that raises, not "the hook crashed" (exit 1); a hook that exits while it runs still crashes.
// Item 14: an installed rasa-pro whose import never ends: the environment probe is given up on after
// the documented 15 s, killed, and named (check: exit 2 naming the interpreter; payload goes on).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeFakeRasaPro } from './fixtures/fake-rasa-pro';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-r4-host-'));
  makeFakeRasaPro(join(dir, 'site'), '3.22.0');
  writeFileSync(join(dir, 'site', 'rasa', 'mantle', 'hooks.py'), 'import os\n\nos._exit(0)\n');
  mkdirSync(join(dir, 'agent'));
  writeFileSync(
    join(dir, 'agent', 'hooks.py'),
    [
      'import os',
      '',
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started',
      '',
      '',
      '@on_turn_started()',
      'async def log(payload: TurnStartedPayload) -> None:',
      '    return None',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'agent', 'exits.py'),
    [
      'import os',
      '',
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started',
      '',
      '',
      '@on_turn_started()',
      'async def log(payload: TurnStartedPayload) -> None:',
      '    os._exit(0)',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'payload.json'), JSON.stringify({ sender_id: 'u1' }));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function run(file: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [cli, 'run', `${file}::log`, '--payload', 'payload.json'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
}

test('an installed rasa-pro whose import calls os._exit: run is exit 2, the module does not load', () => {
  const r = run('agent/hooks.py', { PYTHONPATH: join(dir, 'site') });
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /hooks\.py failed to load: HostExit: the Python host exited with code 0 while its module/,
  );
  assert.doesNotMatch(r.stdout + r.stderr, /crashed/);
});

test('a hook that calls os._exit while it runs (the shim): still a crash, exit 1', () => {
  const r = run('agent/exits.py', { PYTHONPATH: '' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /crashed/);
  assert.match(r.stdout, /exited with code 0 while this hook ran/);
});

test('an installed rasa-pro whose import hangs: check is exit 2 naming the interpreter; payload ends', () => {
  const site = join(dir, 'hanging');
  makeFakeRasaPro(site, '3.22.0');
  writeFileSync(join(site, 'rasa', 'mantle', 'hooks.py'), 'import time\n\nwhile True:\n    time.sleep(1)\n');
  const env = { ...process.env, PYTHONPATH: site, HOOKSMITH_NO_CACHE: '1' };
  // The spawn's own timeout is the bound: before the fix the probe waited 60 s.
  const check = spawnSync(process.execPath, [cli, 'check', 'agent'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 45_000,
    env,
  });
  assert.equal(check.status, 2, check.stdout + check.stderr);
  assert.match(
    check.stderr,
    /python3 did not answer within 15 s while reading the installed environment \(an installed engine whose import hangs\?\)/,
  );
  const payload = spawnSync(process.execPath, [cli, 'payload', 'on_turn_started'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 45_000,
    env,
  });
  assert.equal(payload.status, 0, payload.stderr);
  assert.match(payload.stdout, /sender_id/);
});
