// Issue #44 items 9, 11, 12 and the replayed fault (the built CLI, a real python3, a local Chat
// Completions server): a cassette is read and written only inside its agent, as the payloads
// folder is (a link out of it is refused, nothing outside is read, echoed or written); each
// scenario file has a cassette of its own; a cassette path that is a folder, or a cassettes
// "folder" that is a file, is a clean exit 2; a recorded fault replayed says so and how to re-record.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { startChatServer, type ChatServer, type Reply } from './fixtures/chat-server';
import { runCli } from './fixtures/cli-async';

let dir: string;
let outside: string;
let server: ChatServer;
let script: Reply[] = [];
const KEY = { HOOKSMITH_FIXTURE_KEY: 'sk-r5-cassettes' };
const agent = () => join(dir, 'agent');
const cassettes = () => join(agent(), '.hooksmith', 'cassettes');

const scenario = (baseUrl: string, extra = '') =>
  `user: hi ${extra}\nmodel: { base_url: "${baseUrl}", model: m, api_key_env: HOOKSMITH_FIXTURE_KEY, max_retries: 0 }\n`;

before(async () => {
  server = await startChatServer((_b, n) => script[n] ?? { text: 'ok' });
});
after(async () => {
  await server.close();
});
beforeEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-r5-cassettes-'));
  outside = join(dir, 'other-project');
  mkdirSync(outside);
  mkdirSync(agent());
  writeFileSync(join(agent(), 'hooks.py'), 'from rasa.mantle.hooks import on_turn_started\n');
  writeFileSync(join(agent(), 'order.scenario.yaml'), scenario(server.baseUrl));
  script = [];
  server.seen.length = 0;
});
after(() => rmSync(dir, { recursive: true, force: true }));

const simulate = (file: string, record: string, env: Record<string, string> = KEY) =>
  runCli(dir, env, ['simulate', `agent/${file}`, '--record', record]);

test('item 9: a cassette that links to a file outside the agent is neither overwritten nor read', async () => {
  mkdirSync(cassettes(), { recursive: true });
  const theirs = join(outside, 'their.jsonl');
  const theirText = '{"role":"agent","turn":1,"request":{},"response":{"content":"theirs"},"latency_ms":1}\n';
  writeFileSync(theirs, theirText);
  symlinkSync(theirs, join(cassettes(), 'order.jsonl'));
  const all = await simulate('order.scenario.yaml', 'all');
  assert.equal(all.status, 2, all.stderr);
  assert.match(all.stderr, /order\.jsonl .*leads outside the agent/);
  assert.equal(readFileSync(theirs, 'utf8'), theirText, 'the other project keeps its cassette');

  const secret = join(outside, 'secret.txt');
  writeFileSync(secret, 'TOP-SECRET-BYTES not json at all\n');
  rmSync(join(cassettes(), 'order.jsonl'));
  symlinkSync(secret, join(cassettes(), 'order.jsonl'));
  for (const mode of ['none', 'missing', 'all']) {
    const r = await simulate('order.scenario.yaml', mode);
    assert.equal(r.status, 2, `${mode}: ${r.stderr}`);
    assert.doesNotMatch(r.stdout + r.stderr, /TOP-SECRET/, mode);
    assert.match(r.stderr, /leads outside the agent/, mode);
  }
  assert.equal(readFileSync(secret, 'utf8'), 'TOP-SECRET-BYTES not json at all\n');
});

test('item 9: a .hooksmith/cassettes (or .hooksmith) that links to an outside folder gets nothing written there', async () => {
  mkdirSync(join(agent(), '.hooksmith'));
  symlinkSync(outside, cassettes());
  const r = await simulate('order.scenario.yaml', 'all');
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /\.hooksmith\/cassettes .*leads outside the agent/);
  assert.deepEqual(readdirSync(outside), []);
  rmSync(join(agent(), '.hooksmith'), { recursive: true });
  symlinkSync(outside, join(agent(), '.hooksmith'));
  const h = await simulate('order.scenario.yaml', 'missing');
  assert.equal(h.status, 2, h.stderr);
  assert.deepEqual(readdirSync(outside), []);
  assert.equal(server.seen.length, 0, 'refused before calling the model');
});

test('item 11: order.scenario.yaml, .yml and .json record to cassettes of their own; each replays', async () => {
  writeFileSync(join(agent(), 'order.scenario.yml'), scenario(server.baseUrl, 'yml'));
  writeFileSync(
    join(agent(), 'order.scenario.json'),
    JSON.stringify({
      user: 'hi json',
      model: { base_url: server.baseUrl, model: 'm', api_key_env: 'HOOKSMITH_FIXTURE_KEY', max_retries: 0 },
    }),
  );
  for (const f of ['order.scenario.yaml', 'order.scenario.yml', 'order.scenario.json']) {
    const r = await simulate(f, 'all');
    assert.equal(r.status, 0, `${f}: ${r.stderr}`);
  }
  assert.deepEqual(readdirSync(cassettes()).sort(), [
    'order.jsonl',
    'order.scenario.json.jsonl',
    'order.scenario.yml.jsonl',
  ]);
  for (const f of ['order.scenario.yaml', 'order.scenario.yml', 'order.scenario.json']) {
    const r = await simulate(f, 'none', {});
    assert.equal(r.status, 0, `${f} replays: ${r.stderr}`);
  }
});

test('item 11: a cassette under the name every suffix once shared is pointed to, not taken silently', async () => {
  writeFileSync(
    join(agent(), 'pay.scenario.json'),
    JSON.stringify({ user: 'hi', model: { base_url: server.baseUrl, model: 'm' } }),
  );
  mkdirSync(cassettes(), { recursive: true });
  writeFileSync(join(cassettes(), 'pay.jsonl'), '');
  const r = await simulate('pay.scenario.json', 'none', {});
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /pay\.scenario\.json\.jsonl has no recorded exchange #1.*pay\.jsonl .*rename it/);
});

test('item 12: a cassette path that is a folder, or a cassettes folder that is a file: exit 2, no stack trace', async () => {
  mkdirSync(join(cassettes(), 'order.jsonl'), { recursive: true });
  for (const mode of ['all', 'none', 'missing']) {
    const r = await simulate('order.scenario.yaml', mode);
    assert.equal(r.status, 2, `${mode}: ${r.stderr}`);
    assert.match(r.stderr, /order\.jsonl is a folder, not a cassette/, mode);
    assert.doesNotMatch(r.stderr, /EISDIR|\n\s+at |has no recorded exchange/, mode);
  }
  rmSync(join(agent(), '.hooksmith'), { recursive: true });
  mkdirSync(join(agent(), '.hooksmith'));
  writeFileSync(cassettes(), 'not a folder');
  for (const mode of ['all', 'none']) {
    const r = await simulate('order.scenario.yaml', mode);
    assert.equal(r.status, 2, `${mode}: ${r.stderr}`);
    assert.match(r.stderr, /\.hooksmith\/cassettes .*is not a folder/, mode);
    assert.doesNotMatch(r.stderr, /EEXIST|ENOTDIR|\n\s+at /, mode);
  }
  const t = await runCli(dir, KEY, ['test', 'agent', '--record', 'all']);
  assert.equal(t.status, 2, t.stderr);
  assert.match(t.stdout, /is not a folder/);
  assert.ok(existsSync(cassettes()) && readFileSync(cassettes(), 'utf8') === 'not a folder');
});

test('extra: a recorded fault (429, timeout) replayed under --record missing says so and how to re-record', async () => {
  script = [{ status: 429, error: 'slow down' }];
  const first = await simulate('order.scenario.yaml', 'missing');
  assert.equal(first.status, 1, first.stderr);
  assert.doesNotMatch(first.stderr, /replayed/);
  const again = await simulate('order.scenario.yaml', 'missing');
  assert.equal(again.status, 1, again.stderr);
  assert.equal(server.seen.length, 1, 'the fault was replayed, not called again');
  assert.match(
    again.stderr,
    /the agent's model failed in turn 1: rate-limit 429 \(replayed from order\.jsonl, where it was recorded: re-record it with --record all\)/,
  );
});
