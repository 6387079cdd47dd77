// Issue #34 item 9: HOOKSMITH_MANTLE_LINE / HOOKSMITH_CAYU_LINE with a typo are the usage error
// `--mantle-line` / `--cayu-line` give (exit 2, naming the variable and the lines), never silently
// ignored; a valid value is taken, and the option given on the command line wins. Built CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');

function payload(env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, [cli, 'payload', 'on_turn_started', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
}

test('a typo in HOOKSMITH_MANTLE_LINE or HOOKSMITH_CAYU_LINE is exit 2 naming it; a valid one is taken', () => {
  const typo = payload({ HOOKSMITH_MANTLE_LINE: 'mantle-newset' });
  assert.equal(typo.status, 2, typo.stderr);
  assert.match(
    typo.stderr,
    /hooksmith payload: unknown HOOKSMITH_MANTLE_LINE='mantle-newset': expected one of rasa-pro-3\.21, mantle-newest/,
  );
  assert.equal(typo.stdout, '');
  const cayu = payload({ HOOKSMITH_CAYU_LINE: 'cayu-9' });
  assert.equal(cayu.status, 2, cayu.stderr);
  assert.match(cayu.stderr, /unknown HOOKSMITH_CAYU_LINE='cayu-9': expected one of cayu-0\.3, cayu-newer/);
  for (const good of [{ HOOKSMITH_MANTLE_LINE: 'mantle-newest' }, { HOOKSMITH_MANTLE_LINE: '' }]) {
    const r = payload(good);
    assert.equal(r.status, 0, r.stderr);
  }
  const overridden = payload({ HOOKSMITH_MANTLE_LINE: 'mantle-newset' }, '--mantle-line', 'rasa-pro-3.21');
  assert.equal(overridden.status, 0, 'the option wins over the variable');
});
