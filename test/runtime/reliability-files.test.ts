// Issue #24, files and verdicts of `hooksmith test` / `fuzz` (the built CLI with a real python3):
// concurrent --update runs leave a scenario whole; --save names stay plain file names; a payload
// case's hook stays inside its agent; an invalid or catastrophic `matches:` pattern; missing PATHs;
// XML-illegal code points in JUnit; integer-only --runs/--seed; NFKC handler names.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

const HOOKS = `from rasa.mantle.hooks import (
    KnowledgeQueryPayload,
    ToolCallPayload,
    ToolResultPayload,
    modify_knowledge_query,
    modify_tool_call,
    modify_tool_result,
)


@modify_tool_result()
async def redact(result: ToolResultPayload) -> ToolResultPayload:
    return result.model_copy(update={"value": result.value.replace("ada@example.com", "[email]")})


@modify_tool_call()
async def \uff47uard(call: ToolCallPayload) -> ToolCallPayload:
    return call


@modify_knowledge_query()
async def crash(query: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    raise ValueError("bad \\ufffe and \\uffff here")
`;

const BASE = { sender_id: 'u', call: null, channel: { name: 'rest', metadata: {} } };
const RESULT = { tool_name: 'lookup', arguments: {}, value: '{"email":"ada@example.com"}', is_error: false };
const CALL = { tool_name: 'lookup', arguments: {}, headers: {} };
const QUERY = { query: 'q' };

function write(rel: string, text: string): string {
  const f = join(dir, rel);
  mkdirSync(join(f, '..'), { recursive: true });
  writeFileSync(f, text);
  return f;
}

const payloadCase = (hook: string, expect: object, fields: object) =>
  JSON.stringify({ hook, expect, ...BASE, ...fields }, null, 2) + '\n';

function hooksmith(args: string[], cwd = dir) {
  return spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
}

function hooksmithAsync(args: string[]): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: dir });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => resolve({ status, out }));
  });
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-rely-'));
  write('agent/hooks.py', HOOKS);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('8 parallel `test --update` runs leave the scenario and the payload case whole and valid', async () => {
  const scenario = write(
    'snap/greet.scenario.yaml',
    'name: greets Ada\nuser: hi\ncompletions:\n  - text: Hello Ada\nexpect:\n  transcript: snapshot\n',
  );
  write('snap/hooks.py', HOOKS);
  const payload = write(
    'snap/.hooksmith/payloads/snap.json',
    payloadCase('hooks.py::redact', { fields: 'snapshot' }, RESULT),
  );
  const runs = await Promise.all(
    Array.from({ length: 8 }, () => hooksmithAsync(['test', 'snap', '--update'])),
  );
  for (const r of runs) assert.equal(r.status, 0, r.out);
  const doc = parse(readFileSync(scenario, 'utf8'));
  assert.equal(doc.name, 'greets Ada');
  assert.equal(doc.user, 'hi');
  assert.deepEqual(doc.completions, [{ text: 'Hello Ada' }]);
  assert.deepEqual(doc.expect, { transcript: { snapshot: 'Hello Ada' } });
  const saved = JSON.parse(readFileSync(payload, 'utf8'));
  assert.equal(saved.hook, 'hooks.py::redact');
  assert.equal(saved.tool_name, 'lookup');
  assert.equal(saved.expect.fields.snapshot.value, '{"email":"[email]"}');
  // No lock or temporary file is left beside them.
  assert.deepEqual(readdirSync(join(dir, 'snap')).sort(), ['.hooksmith', 'greet.scenario.yaml', 'hooks.py']);
  assert.deepEqual(readdirSync(join(dir, 'snap/.hooksmith/payloads')), ['snap.json']);
  const again = hooksmith(['test', 'snap']);
  assert.equal(again.status, 0, again.stdout + again.stderr);
  assert.match(again.stdout, /2 passed, 0 failed/);
});

test('fuzz --save: a name that is no plain file name is refused (exit 2, naming the rule), nothing written', () => {
  write('fz/hooks.py', HOOKS);
  for (const name of [
    '../../../escaped',
    '/abs/target',
    'a/b',
    'a\\b',
    'bad\x01name',
    'x\nname',
    '..',
    '.hidden',
  ]) {
    const r = hooksmith(['fuzz', 'fz/hooks.py::crash', '--runs', '5', '--seed', '1', '--save', name]);
    assert.equal(r.status, 2, `${JSON.stringify(name)}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /--save .*: the name .*it must be a plain file name/);
  }
  assert.equal(existsSync(join(dir, 'fz/.hooksmith')), false);
  assert.equal(existsSync(join(dir, 'escaped.json')), false);
  assert.equal(existsSync('/abs/target.json'), false);
  const ok = hooksmith(['fuzz', 'fz/hooks.py::crash', '--runs', '5', '--seed', '1', '--save', 'plain']);
  assert.equal(ok.status, 1, ok.stdout + ok.stderr);
  assert.deepEqual(readdirSync(join(dir, 'fz/.hooksmith/payloads')), ['plain.json']);
});

test('--runs and --seed take decimal integers only: 0x10, " 7", "", 1e300, 2.5 are exit 2', () => {
  for (const [opt, v] of [
    ['--runs', '0x10'],
    ['--runs', ' 7'],
    ['--runs', ''],
    ['--runs', '1e300'],
    ['--runs', '2.5'],
    ['--runs', '0'],
    ['--seed', '0x10'],
    ['--seed', ' 7'],
    ['--seed', ''],
    ['--seed', '1e300'],
  ] as const) {
    const r = hooksmith(['fuzz', 'agent/hooks.py::crash', opt, v]);
    assert.equal(r.status, 2, `${opt} ${JSON.stringify(v)}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`${opt} must be`));
  }
});

test('a payload case whose hook is outside the agent root is refused (exit 2) before any import', () => {
  write(
    'outside/evil.py',
    `open(${JSON.stringify(join(dir, 'outside/RAN'))}, "w").write("x")\ndef guard(c):\n    return c\n`,
  );
  write('pc/hooks.py', HOOKS);
  write(
    'pc/.hooksmith/payloads/rel.json',
    payloadCase('../outside/evil.py::guard', { outcome: 'returned' }, CALL),
  );
  write(
    'pc/.hooksmith/payloads/abs.json',
    payloadCase(`${join(dir, 'outside/evil.py')}::guard`, { outcome: 'returned' }, CALL),
  );
  const r = hooksmith(['test', 'pc']);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stdout, /rel\.json[\s\S]*FILE must be a module inside the agent root/);
  assert.match(r.stdout, /abs\.json[\s\S]*FILE must be a module inside the agent root/);
  assert.equal(existsSync(join(dir, 'outside/RAN')), false, 'the outside module was imported');
});

test('an invalid regex in matches: is a malformed file (exit 2 naming the path); a catastrophic one ends', () => {
  write('rx/hooks.py', HOOKS);
  write(
    'rx/bad.scenario.yaml',
    'user: hi\ncompletions: [{ text: hello }]\nexpect:\n  transcript: { matches: "([a-" }\n',
  );
  const bad = hooksmith(['test', 'rx/bad.scenario.yaml']);
  assert.equal(bad.status, 2, bad.stdout + bad.stderr);
  assert.match(
    bad.stdout,
    /bad\.scenario\.yaml[\s\S]*expect\.transcript\.matches[\s\S]*invalid regular expression/,
  );
  write(
    'rx/redos.scenario.yaml',
    `user: hi\ncompletions: [{ text: "${'a'.repeat(5000)}!" }]\nexpect:\n  transcript: { matches: "^(a+)+$" }\n`,
  );
  const t0 = Date.now();
  const redos = hooksmith(['test', 'rx/redos.scenario.yaml']);
  assert.equal(redos.status, 1, redos.stdout + redos.stderr);
  assert.match(redos.stdout, /matches \/\^\(a\+\)\+\$\//);
  assert.ok(Date.now() - t0 < 30_000);
  write(
    'rx/ok.scenario.yaml',
    'user: hi\ncompletions: [{ text: Hello Ada }]\nexpect:\n  transcript: { matches: "^Hello \\\\w+$" }\n',
  );
  assert.equal(hooksmith(['test', 'rx/ok.scenario.yaml']).status, 0);
});

test('test PATH: a missing path or a file that is no case is exit 2; a folder without cases is said loudly', () => {
  const missing = hooksmith(['test', '/does-not-exist']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /no such file or directory: \/does-not-exist/);
  const module = hooksmith(['test', 'agent/hooks.py']);
  assert.equal(module.status, 2);
  assert.match(module.stderr, /not a test case: agent\/hooks\.py/);
  const none = hooksmith(['test', 'agent']);
  assert.equal(none.status, 0);
  assert.match(none.stderr, /warning: no scenario or payload case found: nothing was tested/);
});

test('JUnit drops XML-illegal code points (U+FFFE, U+FFFF, NUL) from what the hook raised', () => {
  write('xml/hooks.py', HOOKS);
  write('xml/.hooksmith/payloads/c.json', payloadCase('hooks.py::crash', { outcome: 'returned' }, QUERY));
  const r = hooksmith(['test', 'xml', '--format', 'junit']);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /bad {2}and {2}here/);
  // eslint-disable-next-line no-control-regex -- what must not be there
  assert.doesNotMatch(r.stdout, /[\ufffe\uffff\u0000]/);
});

test('a handler name Python normalises (NFKC: a fullwidth letter) runs by either spelling', () => {
  const payload = write('nfkc.json', JSON.stringify({ ...BASE, ...CALL }));
  for (const name of ['guard', '\uff47uard']) {
    const r = hooksmith(['run', `agent/hooks.py::${name}`, '--payload', payload]);
    assert.equal(r.status, 0, `${name}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /outcome: returned/);
  }
});
