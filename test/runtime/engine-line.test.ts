// Engine API lines: with a fake installed rasa-pro that exports the newest docs' names
// (modify_outgoing_message, OutgoingMessagePayload), every command speaks them — check accepts
// them, run and simulate run the hook, payload knows the point — and the old names are reported
// as renamed. --mantle-line overrides the installed engine; on the newest line without rasa-pro,
// the host's shim serves the new names. The built CLI, spawned, with a real python3.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeFakeRasaPro } from './fixtures/fake-rasa-pro';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

const NEW_HOOK = `from rasa.mantle.hooks import OutgoingMessagePayload, modify_outgoing_message


@modify_outgoing_message()
async def shout(payload: OutgoingMessagePayload) -> OutgoingMessagePayload:
    return payload.model_copy(update={"text": payload.text.upper()})
`;

const OLD_HOOK = `from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text


@modify_outgoing_text()
async def shout(payload: OutgoingTextPayload) -> OutgoingTextPayload:
    return payload
`;

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-line-'));
  makeFakeRasaPro(join(dir, 'site'), '3.23.0', 'newest');
  for (const [name, text] of [
    ['agent', NEW_HOOK],
    ['old', OLD_HOOK],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'hooks.py'), text);
  }
  writeFileSync(join(dir, 'payload.json'), JSON.stringify({ text: 'hi', sender_id: 'u1' }));
  writeFileSync(join(dir, 'agent', 'turn.scenario.yaml'), 'user: hello\ncompletions:\n  - text: all done\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

function hooksmith(site: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      PYTHONPATH: site,
      HOOKSMITH_NO_CACHE: '',
      HOOKSMITH_CACHE_DIR: join(dir, 'cache'),
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const installed = (...args: string[]) => hooksmith(join(dir, 'site'), ...args);

test('the installed newest names: check, run, simulate and payload all accept them', () => {
  const check = installed('check', 'agent', '--format', 'json');
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.deepEqual(JSON.parse(check.stdout), []);
  const run = installed('run', 'agent/hooks.py::shout', '--payload', 'payload.json', '--format', 'json');
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /"HI"/);
  const sim = installed('simulate', 'agent/turn.scenario.yaml', '--format', 'json');
  assert.equal(sim.code, 0, sim.stderr);
  assert.match(sim.stdout, /ALL DONE/);
  const payload = installed('payload', 'outgoing_message');
  assert.equal(payload.code, 0, payload.stderr);
  assert.equal(typeof (JSON.parse(payload.stdout) as { text: unknown }).text, 'string');
});

test('the old names on the newest line: unknown-import names the new name and offers it', () => {
  const check = installed('check', 'old', '--format', 'json');
  assert.equal(check.code, 1, check.stderr);
  const findings = JSON.parse(check.stdout) as { code: string; message: string }[];
  const renamed = findings.filter((f) => f.code === 'unknown-import').map((f) => f.message);
  assert.equal(renamed.length, 2, check.stdout);
  assert.match(renamed.join('\n'), /`modify_outgoing_text` was renamed to `modify_outgoing_message`/);
  assert.match(renamed.join('\n'), /`OutgoingTextPayload` was renamed to `OutgoingMessagePayload`/);
});

test("--mantle-line overrides the installed engine: the spec's line refuses the new names everywhere", () => {
  const check = installed('check', 'agent', '--format', 'json', '--mantle-line', 'rasa-pro-3.21');
  assert.equal(check.code, 1, check.stderr);
  const run = installed(
    'run',
    'agent/hooks.py::shout',
    '--payload',
    'payload.json',
    '--mantle-line=rasa-pro-3.21',
  );
  assert.equal(run.code, 2);
  assert.match(run.stderr, /unknown-import/);
  const payload = installed('payload', 'outgoing_message', '--mantle-line', 'rasa-pro-3.21');
  assert.equal(payload.code, 2);
  const bad = installed('payload', 'tool_call', '--mantle-line', 'rasa-9');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown --mantle-line 'rasa-9': expected one of rasa-pro-3\.21, mantle-newest/);
});

test('the newest line without rasa-pro installed: the host shim serves the new names', () => {
  const run = hooksmith(
    '',
    'run',
    'agent/hooks.py::shout',
    '--payload',
    'payload.json',
    '--mantle-line',
    'mantle-newest',
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /"HI"|HI/);
});
