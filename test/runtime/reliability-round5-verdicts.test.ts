// Issue #44 (reliability round 5), the verdicts and reports of the built CLI with a real python3:
// --repeat refuses the options it cannot honour (item 3), a tool call whose arguments are not JSON
// fails the run (item 4), an unknown HOOKSMITH_CAYU_ENGINE is a usage error (item 6), a coverage
// report at a FIFO is refused instead of hanging (item 13), and a YAML alias inside its own anchor
// is a clean malformed scenario (item 16). CI trusts these exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startChatServer, type ChatServer, type Reply } from './fixtures/chat-server';
import { runCli } from './fixtures/cli-async';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;
let server: ChatServer;
let script: Reply[] = [];

const HOOKS = `from rasa.mantle.hooks import TurnStartedPayload, on_turn_started


@on_turn_started()
async def log(payload: TurnStartedPayload) -> None:
    return None
`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-r5-verdicts-'));
  mkdirSync(join(dir, 'agent'));
  writeFileSync(join(dir, 'agent', 'hooks.py'), HOOKS);
  writeFileSync(
    join(dir, 'agent', 'greet.scenario.yaml'),
    'user: hi\ncompletions:\n  - text: Hello\nexpect:\n  agent_message: { contains: Hello }\n',
  );
  server = await startChatServer((_b, n) => script[n] ?? { text: 'ok' });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function hooksmith(args: string[], env: NodeJS.ProcessEnv = {}) {
  const { CI: _ci, HOOKSMITH_CAYU_ENGINE: _e, ...base } = process.env;
  return spawnSync(process.execPath, [cli, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...base, ...env },
  });
}

test('item 3: --repeat with an option it cannot honour is refused (exit 2), never silently dropped', () => {
  const alone = hooksmith(['test', 'agent', '--min-hook-coverage', '100', '--repeat', '1']);
  assert.equal(alone.status, 0, alone.stderr);
  for (const extra of [
    ['--min-hook-coverage', '100'],
    ['--coverage'],
    ['--coverage-report', 'lcov'],
    ['--update'],
    ['--debug', '5679'],
  ]) {
    const r = hooksmith(['test', 'agent', '--repeat', '2', ...extra]);
    assert.equal(r.status, 2, `${extra.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`--repeat cannot be combined with ${extra[0]}`), extra.join(' '));
    assert.equal(r.stdout, '', 'nothing ran');
  }
  assert.ok(!existsSync(join(dir, 'lcov.info')));
});

test('item 4: a model answer whose tool-call arguments are not JSON fails the run (exit 1), as every broken answer', async () => {
  writeFileSync(
    join(dir, 'agent', 'model.scenario.yaml'),
    `user: hi\ntools:\n  lookup: { value: 1 }\nmodel: { base_url: "${server.baseUrl}", model: m, api_key_env: HOOKSMITH_FIXTURE_KEY, max_retries: 0 }\n`,
  );
  script = [{ tool_calls: [{ name: 'lookup', arguments: '{"q": ' }] }];
  const r = await runCli(dir, { HOOKSMITH_FIXTURE_KEY: 'k' }, [
    'simulate',
    'agent/model.scenario.yaml',
    '--format',
    'json',
    '--record',
    'all',
  ]);
  assert.equal(r.status, 1, r.stderr);
  const sim = JSON.parse(r.stdout) as { status: string; models: { exchanges: { fault?: string }[] } };
  assert.equal(sim.status, 'error');
  assert.equal(sim.models.exchanges[0]!.fault, 'malformed');
  assert.match(r.stderr, /the agent's model failed in turn 1: malformed/);
  // Replayed from the cassette just written, the verdict is the same.
  const again = await runCli(dir, {}, ['simulate', 'agent/model.scenario.yaml', '--record', 'none']);
  assert.equal(again.status, 1, again.stderr);
  rmSync(join(dir, 'agent', 'model.scenario.yaml'));
  rmSync(join(dir, 'agent', '.hooksmith'), { recursive: true, force: true });
});

test('item 6: an unknown HOOKSMITH_CAYU_ENGINE (or other host option in the env) is exit 2, as the option is', () => {
  for (const [name, value] of [
    ['HOOKSMITH_CAYU_ENGINE', 'emulaton'],
    ['HOOKSMITH_CAYU_SAFETY_STOP_S', 'soon'],
    ['HOOKSMITH_MEMORY_LIMIT_MB', '4 GB'],
  ] as const) {
    const r = hooksmith(['simulate', 'agent/greet.scenario.yaml'], { [name]: value });
    assert.equal(r.status, 2, `${name}=${value}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`${name} .*got "${value}"`));
    assert.equal(r.stdout, '');
  }
  // The option on the command line overrides the env; an empty variable is no value.
  const given = hooksmith(['simulate', 'agent/greet.scenario.yaml', '--cayu-engine', 'emulation'], {
    HOOKSMITH_CAYU_ENGINE: 'emulaton',
  });
  assert.equal(given.status, 0, given.stderr);
  const empty = hooksmith(['simulate', 'agent/greet.scenario.yaml'], { HOOKSMITH_CAYU_ENGINE: '' });
  assert.equal(empty.status, 0, empty.stderr);
});

test('item 13: --coverage-output at a FIFO (or a folder) is exit 2 with the reason, never a hang', () => {
  const fifo = join(dir, 'report.fifo');
  const made = spawnSync('mkfifo', [fifo]);
  assert.equal(made.status, 0, String(made.stderr));
  for (const [output, why] of [
    [fifo, /not a regular file \(a FIFO\)/],
    [join(dir, 'agent'), /not a regular file \(a folder\)/],
  ] as const) {
    const r = hooksmith(['test', 'agent', '--coverage-report', 'lcov', '--coverage-output', output]);
    assert.notEqual(r.signal, 'SIGTERM', 'the command hung on the FIFO');
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`cannot write the coverage report .*: ${why.source}`));
  }
});

test('item 16: a YAML alias inside its own anchor is a malformed scenario (exit 2), not an internal error', () => {
  writeFileSync(join(dir, 'agent', 'loop.scenario.yaml'), 'user: hi\ncompletions: &c [ {tool_calls: *c} ]\n');
  writeFileSync(
    join(dir, 'agent', 'shared.scenario.yaml'),
    'user: hi\ntools:\n  a: &v { value: { n: 12345678901234567890 } }\n  b: *v\ncompletions:\n  - tool_calls: [{ tool_name: a, tool_args: {} }, { tool_name: b, tool_args: {} }]\n  - text: done\n',
  );
  try {
    const r = hooksmith(['simulate', 'agent/loop.scenario.yaml']);
    assert.equal(r.status, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error|RangeError|\n\s+at /);
    assert.match(r.stderr, /completions\[0\]\.tool_calls: a YAML alias refers to the value that holds it/);
    const t = hooksmith(['test', 'agent/loop.scenario.yaml']);
    assert.equal(t.status, 2, t.stderr + t.stdout);
    assert.doesNotMatch(t.stdout + t.stderr, /RangeError/);
    // An alias used twice (no cycle) still plays, its big integer exact.
    const shared = hooksmith(['simulate', 'agent/shared.scenario.yaml', '--format', 'json']);
    assert.equal(shared.status, 0, shared.stderr);
    const texts = (JSON.parse(shared.stdout) as { transcript: { text: string }[] }).transcript.map(
      (e) => e.text,
    );
    assert.ok(texts.includes('a({}) → {"n":12345678901234567890}'), texts.join('\n'));
    assert.ok(texts.includes('b({}) → {"n":12345678901234567890}'), texts.join('\n'));
  } finally {
    rmSync(join(dir, 'agent', 'loop.scenario.yaml'));
    rmSync(join(dir, 'agent', 'shared.scenario.yaml'));
  }
});
