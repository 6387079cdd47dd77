// A Cayu eval corpus played by `hooksmith test`: without a model every case is skipped (needs a
// model), never passed; with a model (a local Chat Completions server) each case's user
// messages play as turns, its deterministic assertions are checked and the others listed.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { startChatServer, type ChatServer } from './fixtures/chat-server';
import { runCli } from './fixtures/cli-async';

const ROOT = resolve(__dirname, '..', '..');
let dir: string;
let server: ChatServer;

interface Report {
  cases: {
    name: string;
    status: string;
    expectations: { name: string; passed: boolean; skipped?: string; actual: string; line: number }[];
  }[];
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-eval-'));
  copyFileSync(join(ROOT, 'examples/cayu-agent/runtime_hooks.py'), join(dir, 'runtime_hooks.py'));
  copyFileSync(
    join(ROOT, 'test/fixtures/cayu-eval/support.cayu-eval.json'),
    join(dir, 'support.cayu-eval.json'),
  );
  // The agent greets; it never calls a tool.
  server = await startChatServer(() => ({ text: 'Hello! How can I help?' }));
});
after(async () => {
  await server.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

const checked = (c: Report['cases'][number]) =>
  c.expectations.filter((e) => !e.skipped).map((e) => [e.name, e.passed]);
const notChecked = (c: Report['cases'][number]) => c.expectations.filter((e) => e.skipped).map((e) => e.name);

test('a Cayu eval corpus: skipped without a model, its cases played and judged with one', async () => {
  const without = await runCli(dir, {}, ['test', '.', '--format', 'json']);
  assert.equal(without.status, 0, without.stderr);
  const skipped = (JSON.parse(without.stdout) as Report).cases;
  assert.deepEqual(
    skipped.map((c) => [c.name, c.status]),
    [
      ['greets the user', 'skipped'],
      ['looks the customer up', 'skipped'],
    ],
  );
  assert.match(skipped[0]!.expectations[0]!.skipped!, /needs a model/);

  const model = `model=fixture-model,base_url=${server.baseUrl},api_key_env=HOOKSMITH_FIXTURE_KEY`;
  const played = await runCli(dir, { HOOKSMITH_FIXTURE_KEY: 'sk-cayu-eval-7f1' }, [
    'test',
    '.',
    '--model',
    model,
    '--format',
    'json',
  ]);
  const [greets, looksUp] = (JSON.parse(played.stdout) as Report).cases;
  assert.equal(greets!.status, 'passed', JSON.stringify(greets!.expectations));
  // One result per assertion, in the corpus's terms, each on its own line of the file.
  assert.deepEqual(checked(greets!), [
    ['root_status done', true],
    ['final_output_contains hi', true],
  ]);
  assert.deepEqual(notChecked(greets!), ['max_tool_calls no-tools']);
  assert.deepEqual(
    greets!.expectations.map((e) => e.line),
    [5, 11, 17],
  );
  // Two user messages, one run (the agent answers once): the model never called lookup_customer.
  assert.equal(looksUp!.status, 'failed', JSON.stringify(looksUp!.expectations));
  assert.deepEqual(checked(looksUp!), [
    ['tool_called lookup', false],
    ['tools_called_in_order order', false],
  ]);
  // tools_called_in_order became three checks: each failing one is named in its result.
  assert.deepEqual(
    looksUp!.expectations[1]!.actual.split('\n').map((l) => l.split(':')[0]),
    ['tool_called lookup_customer', 'tool_called list_orders', 'order tool_call'],
  );
  assert.deepEqual(notChecked(looksUp!), ['usage_recorded usage']);
  assert.equal(played.status, 1, played.stderr);
  // One model request a case: both of looks-up's messages in it, as cayu eval sends them.
  assert.equal(server.seen.length, 2, 'one model request per case');
  const users = server.seen.map((r) =>
    (r.body.messages as { role: string; content: unknown }[])
      .filter((m) => m.role === 'user')
      .map((m) => m.content),
  );
  assert.deepEqual(
    users.sort((a, b) => a.length - b.length),
    [['Hello'], ['Who am I?', 'And my orders?']],
  );
  // Each case records its own cassette, and replays from it with no model server.
  assert.deepEqual(readdirSync(join(dir, '.hooksmith/cassettes')).sort(), [
    'support.cayu-eval.json#greets.jsonl',
    'support.cayu-eval.json#looks-up.jsonl',
  ]);
  await server.close();
  const replayed = await runCli(dir, { CI: 'true' }, ['test', '.', '--model', model, '--format', 'json']);
  assert.deepEqual(
    (JSON.parse(replayed.stdout) as Report).cases.map((c) => c.status),
    ['passed', 'failed'],
  );
  assert.equal(server.seen.length, 2);
});
