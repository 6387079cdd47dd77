// Issue #34 item 17 (the built CLI with a real python3): `hooksmith test` shows a scenario `name:`
// holding escape sequences as `check` shows a message from a file — escaped, never raw — in its
// text report and its repeat report; JUnit drops what XML cannot hold; JSON keeps the name exact.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;
// A window title rewrite, a cursor move up and a right-to-left override.
const NAME = 'greets \u001b]0;pwned\u0007Ada\u001b[1A\u202e';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-r4-term-'));
  mkdirSync(join(dir, 'agent'));
  writeFileSync(
    join(dir, 'agent', 'hooks.py'),
    'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n@on_turn_started()\nasync def log(payload: TurnStartedPayload) -> None:\n    return None\n',
  );
  writeFileSync(
    join(dir, 'agent', 'greet.scenario.json'),
    JSON.stringify({
      name: NAME,
      user: 'hi',
      completions: [{ text: 'Hello' }],
      expect: { agent_message: { contains: 'Bye' } },
    }),
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

function hooksmith(...args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
}

test('test prints a scenario name with escape sequences escaped (text, repeats, junit); JSON keeps it exact', () => {
  for (const args of [
    ['test', 'agent'],
    ['test', 'agent', '--repeat', '2'],
    ['test', 'agent', '--format', 'junit'],
  ]) {
    const r = hooksmith(...args);
    assert.equal(r.status, 1, `${args.join(' ')}: the expectation fails\n${r.stdout}${r.stderr}`);
    // No raw control character may reach the terminal.
    const raw = args.includes('junit') ? ['\u0007', '\u001b'] : ['\u0007', '\u001b', '\u202e'];
    assert.ok(!raw.some((c) => r.stdout.includes(c)), args.join(' '));
    // JUnit drops what XML cannot hold; the text reports show the escapes.
    if (!args.includes('junit'))
      assert.match(r.stdout, /greets \\x1b\]0;pwned\\x07Ada\\x1b\[1A\\u202e/, args.join(' '));
  }
  const json = hooksmith('test', 'agent', '--format', 'json');
  assert.ok(
    json.stdout.includes(JSON.stringify(NAME).slice(1, -1).replace('\u202e', '\\u202e')) ||
      JSON.stringify(JSON.parse(json.stdout)).includes(JSON.stringify(NAME).slice(1, -1)),
    json.stdout,
  );
});
