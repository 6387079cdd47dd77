// Engine API lines: with a fake installed rasa-pro that exports the newest docs' names
// (modify_outgoing_message, OutgoingMessagePayload), every command speaks them — check accepts
// them, run and simulate run the hook, payload knows the point — and the old names are reported
// as renamed. --mantle-line overrides the installed engine; on the newest line without rasa-pro,
// the host's shim serves the new names. The built CLI, spawned, with a real python3; the
// scaffold (an editor feature) in process, after the line was picked from the same interpreter.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeFakeRasaPro } from './fixtures/fake-rasa-pro';
import { findDecorator, HOOK_DECORATORS } from '../../runtime/catalogue';
import { probeEngineLine } from '../../runtime/cpython/engine-line';
import { PythonEnvironment } from '../../runtime/cpython/environment';
import { createHookRunner } from '../../runtime/engine/runner';
import { useMantleLine } from '../../runtime/catalogue';
import {
  expandSnippet,
  mantleTemplate,
  newModuleText,
  planMantleHook,
} from '../../runtime/scaffold/scaffold';
import { initParser } from '../../runtime/python/parser';
import { createSampleFile, listSamples } from '../../runtime/ui/payload-files';

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
    ['tested', NEW_HOOK],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'hooks.py'), text);
  }
  writeFileSync(join(dir, 'payload.json'), JSON.stringify({ text: 'hi', sender_id: 'u1' }));
  writeFileSync(join(dir, 'agent', 'turn.scenario.yaml'), 'user: hello\ncompletions:\n  - text: all done\n');
  // Expectations name the point as the line does, or by its catalogue id: both select it.
  writeFileSync(
    join(dir, 'tested', 'shout.scenario.yaml'),
    `name: shouts
user: hello
completions:
  - text: all done
expect:
  transcript: {contains: ALL DONE}
  hook_outcome: {point: outgoing_message, hook: shout, outcome: returned}
  payload_after: {point: outgoing_text, fields: {text: ALL DONE}}
  order: {first: model_response, then: outgoing_message}
`,
  );
  mkdirSync(join(dir, 'tested', '.hooksmith', 'payloads'), { recursive: true });
  writeFileSync(
    join(dir, 'tested', '.hooksmith', 'payloads', 'outgoing_message-hi.json'),
    JSON.stringify({
      hook: 'hooks.py::shout',
      expect: { outcome: 'returned', fields: { text: 'HI' } },
      text: 'hi',
      sender_id: 'u1',
    }),
  );
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

test("run and simulate name the renamed point as the line does: outgoing_message, never the catalogue's id", () => {
  const run = installed('run', 'agent/hooks.py::shout', '--payload', 'payload.json', '--format', 'json');
  assert.equal(run.code, 0, run.stderr);
  assert.equal((JSON.parse(run.stdout) as { point: string }).point, 'outgoing_message');
  const sim = installed('simulate', 'agent/turn.scenario.yaml', '--format', 'json');
  assert.equal(sim.code, 0, sim.stderr);
  const points = (JSON.parse(sim.stdout) as { events: { point: string }[] }).events.map((e) => e.point);
  assert.ok(points.includes('outgoing_message'), points.join(','));
  assert.ok(!points.includes('outgoing_text'), points.join(','));
  const text = installed('simulate', 'agent/turn.scenario.yaml');
  assert.match(text.stdout, /outgoing_message\s+modify\s+hooks\.py::shout\s+returned/);
  assert.doesNotMatch(text.stdout, /outgoing_text/);
});

test('test runs a scenario and a payload case on the newest line (json, junit)', () => {
  const json = installed('test', 'tested', '--format', 'json');
  assert.equal(json.code, 0, json.stdout + json.stderr);
  const report = JSON.parse(json.stdout) as {
    passed: number;
    failed: number;
    cases: { name: string; status: string; expectations: { name: string; passed: boolean }[] }[];
  };
  assert.equal(report.passed, 2, json.stdout);
  assert.equal(report.failed, 0);
  const scenario = report.cases.find((c) => c.name === 'shouts');
  assert.ok(scenario && scenario.expectations.length >= 4, json.stdout);
  assert.ok(scenario.expectations.every((x) => x.passed));
  const junit = installed('test', 'tested', '--format', 'junit');
  assert.equal(junit.code, 0, junit.stderr);
  assert.match(junit.stdout, /<testsuite[^>]*tests="2"[^>]*failures="0"/);
  assert.doesNotMatch(junit.stdout, /outgoing_text(?!")/);
});

test('fuzz generates OutgoingMessagePayload inputs for @modify_outgoing_message()', () => {
  const fuzz = installed('fuzz', 'agent/hooks.py::shout', '--runs', '30', '--seed', '7');
  assert.equal(fuzz.code, 0, fuzz.stdout + fuzz.stderr);
  assert.match(fuzz.stdout, /fuzz agent\/hooks\.py::shout \(modify_outgoing_message\): 30 payloads/);
  assert.match(fuzz.stdout, /returned\D+30/);
});

test('scaffold on the line picked from the interpreter writes @modify_outgoing_message() and OutgoingMessagePayload', async () => {
  const saved = process.env.PYTHONPATH;
  process.env.PYTHONPATH = join(dir, 'site');
  try {
    assert.equal((await probeEngineLine(undefined)).line, 'mantle-newest');
  } finally {
    process.env.PYTHONPATH = saved;
  }
  const d = findDecorator('modify_outgoing_message')!;
  // The old spelling still finds the decorator (the line's docs write it), but is never offered.
  assert.equal(findDecorator('modify_outgoing_text'), d);
  assert.ok(!HOOK_DECORATORS.some((x) => x.name === 'modify_outgoing_text'));
  const module = expandSnippet(newModuleText(mantleTemplate(d), '@modify_outgoing_message() hook.'));
  assert.match(module, /^from rasa\.mantle\.hooks import OutgoingMessagePayload, modify_outgoing_message$/m);
  assert.match(
    module,
    /^@modify_outgoing_message\(\)\nasync def rewrite_outgoing_message\(\s*payload: OutgoingMessagePayload\s*\) -> OutgoingMessagePayload:/m,
  );
  await initParser();
  const plan = planMantleHook('from rasa.mantle.hooks import on_turn_started\n', 1, d);
  assert.match(
    plan.importEdits.map((e) => e.newText).join(''),
    /OutgoingMessagePayload,\s+modify_outgoing_message,\s+on_turn_started/,
  );
  assert.match(plan.snippet, /@modify_outgoing_message\(\)/);
  // A new sample is saved under the line's name; one saved under the catalogue id is still found.
  const root = join(dir, 'samples');
  mkdirSync(join(root, '.hooksmith', 'payloads'), { recursive: true });
  writeFileSync(join(root, '.hooksmith', 'payloads', 'outgoing_text.json'), '{}');
  assert.match(createSampleFile(root, 'outgoing_text'), /outgoing_message\.json$/);
  assert.deepEqual(
    listSamples(root, 'outgoing_message').map((f) => f.slice(f.lastIndexOf('/') + 1)),
    ['outgoing_message.json', 'outgoing_text.json'],
  );
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

test("a venv of python3 with rasa-pro installed is its own environment, not its base interpreter's (remembered apart)", async (t) => {
  const venv = join(dir, 'venv');
  const made = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { encoding: 'utf8' });
  if (made.status !== 0) return t.skip(`no venv module: ${made.stderr}`);
  const python = join(venv, 'bin', 'python');
  const site = spawnSync(python, ['-c', 'import site; print(site.getsitepackages()[0])'], {
    encoding: 'utf8',
  });
  makeFakeRasaPro(site.stdout.trim(), '3.23.0', 'newest');
  const cacheDir = join(dir, 'venv-cache');
  // The base interpreter first: its answer (no rasa-pro) is remembered, and must not be the venv's.
  const base = await new PythonEnvironment({ cacheDir }).engine();
  assert.equal(base?.rasaPro ?? null, null);
  const facts = await new PythonEnvironment({ python, cacheDir }).engine();
  assert.equal(facts?.rasaPro, '3.23.0');
  assert.equal((await probeEngineLine(python)).line, 'mantle-newest');
});

test('a process that changes line after start (the editor) runs the hook of the new line', async () => {
  useMantleLine('rasa-pro-3.21');
  useMantleLine('mantle-newest');
  const saved = process.env.PYTHONPATH;
  process.env.PYTHONPATH = join(dir, 'site');
  const runner = createHookRunner({ mantleLine: 'mantle-newest' });
  try {
    const r = await runner.run({
      file: join(dir, 'agent', 'hooks.py'),
      handler: 'shout',
      payload: { text: 'hi', sender_id: 'u1' },
    });
    assert.equal(r.outcome, 'returned', r.notes.join('\n'));
    assert.equal((r.payload as { text: string }).text, 'HI');
    assert.equal(r.point, 'outgoing_message');
  } finally {
    process.env.PYTHONPATH = saved;
    await runner.dispose();
  }
});

test('the newest line without rasa-pro installed accepts both spellings (its docs still write outgoing_text): check, run and simulate', () => {
  const both = join(dir, 'both');
  mkdirSync(both, { recursive: true });
  writeFileSync(
    join(both, 'hooks.py'),
    `from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text, OutgoingMessagePayload, on_outgoing_message


@modify_outgoing_text()
async def shout(payload: OutgoingTextPayload) -> OutgoingTextPayload:
    return payload.model_copy(update={"text": payload.text.upper()})


@on_outgoing_message()
async def seen(payload: OutgoingMessagePayload) -> None:
    return None
`,
  );
  writeFileSync(join(both, 'turn.scenario.yaml'), 'user: hello\ncompletions:\n  - text: all done\n');
  const check = hooksmith('', 'check', 'both', '--format', 'json', '--mantle-line', 'mantle-newest');
  assert.equal(check.code, 0, check.stdout + check.stderr);
  // Accepted, but deprecated there (#39 item 5): a warning on each old name, exit still 0.
  const found = JSON.parse(check.stdout) as {
    line: number;
    column: number;
    severity: string;
    code: string;
    message: string;
  }[];
  assert.deepEqual(
    found.map((f) => `${f.line}:${f.column} ${f.severity} ${f.code}`),
    ['1:31 warning unknown-import', '1:52 warning unknown-import'],
  );
  assert.match(
    found[0]!.message,
    /`OutgoingTextPayload` is deprecated on .*renamed `OutgoingMessagePayload`/,
  );
  const run = hooksmith(
    '',
    'run',
    'both/hooks.py::shout',
    '--payload',
    'payload.json',
    '--mantle-line',
    'mantle-newest',
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /"HI"|HI/);
  const sim = hooksmith('', 'simulate', 'both/turn.scenario.yaml', '--mantle-line', 'mantle-newest');
  assert.equal(sim.code, 0, sim.stderr);
  assert.match(sim.stdout, /ALL DONE/);
  // An installed engine exporting only the new names is the reference: the old ones are errors there.
  assert.equal(installed('check', 'both').code, 1);
  // The spec's line has no outgoing_message: the new names stay errors.
  assert.equal(hooksmith('', 'check', 'both', '--mantle-line', 'rasa-pro-3.21').code, 1);
});
