// #38 item 5: the engine releases Hooksmith is tested against are one fact (TESTED_ENGINES) that
// the test environments' pins agree with, and an installed engine newer than the newest tested is
// said once, as a hint on stderr, never as an error (exit code unchanged). Real python3 and the
// built CLI; the "newer" engine is a package whose metadata says 0.99.0 on PYTHONPATH.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { laterRelease, TESTED_ENGINES, untestedEngineHints } from '../../runtime/catalogue/tested-engines';

const root = join(__dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'hooksmith-tested-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('the tested releases are the ones the test environments pin', () => {
  const pins = (file: string) => readFileSync(join(root, 'test', 'python-env', file), 'utf8');
  assert.match(pins('engines.txt'), new RegExp(`^rasa-pro==${TESTED_ENGINES['rasa-pro'].at(-1)}$`, 'm'));
  assert.match(pins('engines.txt'), new RegExp(`^cayu==${TESTED_ENGINES.cayu.at(-1)}$`, 'm'));
  assert.match(pins('cayu-0.3.txt'), new RegExp(`^cayu==${TESTED_ENGINES.cayu[0]}$`, 'm'));
});

test('later releases are compared by their numbers, not as text', () => {
  assert.ok(laterRelease('0.15.0', '0.3.0'));
  assert.ok(laterRelease('0.16', '0.15.0'));
  assert.ok(laterRelease('3.21.1', '3.21.0'));
  assert.ok(!laterRelease('3.21.0', '3.21.0'));
  assert.ok(!laterRelease('3.21.0rc1', '3.21.0'), 'a pre-release of a tested release is not newer');
  assert.ok(!laterRelease('0.9.1', '0.15.0'));
  assert.deepEqual(untestedEngineHints({ rasaPro: '3.21.0', cayu: '0.3.0' }), []);
  assert.deepEqual(untestedEngineHints({ rasaPro: null, cayu: null }), []);
  assert.deepEqual(untestedEngineHints(undefined), []);
  const [hint, ...rest] = untestedEngineHints({ rasaPro: '3.22.0', cayu: '0.14.0' });
  assert.equal(rest.length, 0);
  assert.match(
    hint!,
    /^rasa-pro 3\.22\.0 is installed, newer than the newest release Hooksmith is tested against \(3\.21\.0\)/,
  );
});

test('check with a cayu newer than the newest tested: a hint on stderr, the verdict unchanged', () => {
  const site = join(work, 'site');
  mkdirSync(join(site, 'cayu'), { recursive: true });
  writeFileSync(join(site, 'cayu', '__init__.py'), '');
  mkdirSync(join(site, 'cayu-0.99.0.dist-info'));
  writeFileSync(
    join(site, 'cayu-0.99.0.dist-info', 'METADATA'),
    'Metadata-Version: 2.1\nName: cayu\nVersion: 0.99.0\n',
  );
  // A Mantle agent: the stand-in cayu has no hook API, and no module here imports it.
  const agent = join(work, 'agent');
  mkdirSync(agent);
  writeFileSync(
    join(agent, 'hooks.py'),
    'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n@on_turn_started()\nasync def hello(payload: TurnStartedPayload) -> None:\n    return None\n',
  );
  const cli = join(root, 'dist', 'cli.js');
  const env = { ...process.env, HOOKSMITH_NO_CACHE: '1' };
  const plain = spawnSync(process.execPath, [cli, 'check', agent], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  const newer = spawnSync(process.execPath, [cli, 'check', agent], {
    cwd: root,
    env: { ...env, PYTHONPATH: site },
    encoding: 'utf8',
  });
  assert.equal(plain.status, 0, plain.stdout + plain.stderr);
  assert.equal(newer.status, plain.status, newer.stdout + newer.stderr);
  assert.doesNotMatch(plain.stderr, /newer than the newest release/);
  const hints = newer.stderr.split('\n').filter((l) => /newer than the newest release/.test(l));
  assert.equal(hints.length, 1, newer.stderr);
  assert.match(
    hints[0]!,
    /hint: cayu 0\.99\.0 is installed, newer than the newest release Hooksmith is tested against \(0\.15\.0\)/,
  );
});
