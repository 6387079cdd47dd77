// `hooksmith fuzz` with a real python3: a buggy hook's crash is found and shrunk to the smallest
// payload, saved as a payload case that `hooksmith test` then runs (and fails until fixed); a
// trivial hook passes every payload; counts and latency against the budget are reported.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import { stringifyJson } from '../../runtime/json/lossless-json';
import { FAILING_KEPT, formatFuzzText, fuzzHook, payloadCaseText } from '../../runtime/testing/fuzz-run';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let runner: HookRunner;
let dir: string;

before(() => {
  runner = createHookRunner();
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-fuzz-'));
  cpSync(join(root, 'examples/buggy-agent'), join(dir, 'agent'), { recursive: true });
});
after(async () => {
  await runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test('a hook that crashes on a blank answer: counted, and shrunk to an empty text', async () => {
  const r = await fuzzHook(runner, join(dir, 'agent/hooks/model_hooks.py'), 'capitalise', {
    runs: 150,
    seed: 7,
  });
  assert.equal(r.point, 'modify_model_response');
  assert.equal(r.runs, 150);
  assert.ok(r.counts.crashed > 0 && r.counts.returned > 0, JSON.stringify(r.counts));
  assert.equal(r.failures, r.counts.crashed);
  assert.equal(r.budgetMs, 500);
  assert.ok(r.p50Ms <= r.p99Ms && r.p99Ms < r.budgetMs);
  assert.equal(r.smallest?.outcome, 'crashed');
  assert.match(r.smallest!.error!, /^IndexError/);
  assert.equal(String(r.smallest!.payload.text).trim(), '');
  // The whole payload the hook got (#31 item 7), not the generator's sparse object.
  assert.ok('tool_calls' in r.smallest!.payload && 'sender_id' in r.smallest!.payload);
  // The failing cases as generated, with their payloads (what the fuzz panel lists).
  assert.ok(r.failing?.length, 'failing cases listed');
  assert.equal(r.failing!.length, Math.min(r.failures, FAILING_KEPT));
  for (const f of r.failing!) {
    assert.equal(f.outcome, 'crashed');
    assert.equal(String(f.payload.text).trim(), '', stringifyJson(f.payload));
    assert.ok(f.index >= 1 && f.index <= r.runs);
  }
});

// #31 item 7: a crash on `text is None` was shown and saved as {"sender_id": " "} (the generator
// left text out; the engine's default None is what crashed): the whole payload, and the field.
test('a crash on a None field: the smallest payload is whole, names the field, and the saved case holds it', async () => {
  // Its own agent: buggy-agent already has a modify_model_response hook (one per point).
  cpSync(join(root, 'examples/buggy-agent'), join(dir, 'shouting'), { recursive: true });
  const file = join(dir, 'shouting/hooks/model_hooks.py');
  writeFileSync(
    file,
    [
      'from rasa.mantle.hooks import ModelResponsePayload, modify_model_response',
      '',
      '',
      '@modify_model_response()',
      'async def shout(payload: ModelResponsePayload) -> ModelResponsePayload:',
      '    return payload.model_copy(update={"text": payload.text.upper()})',
      '',
    ].join('\n'),
  );
  const r = await fuzzHook(runner, file, 'shout', { runs: 100, seed: 3 });
  assert.equal(r.smallest?.outcome, 'crashed');
  assert.match(r.smallest!.error!, /^AttributeError/);
  assert.equal(r.smallest!.field, 'text');
  assert.ok('text' in r.smallest!.payload, stringifyJson(r.smallest!.payload));
  assert.equal(r.smallest!.payload.text, null);
  assert.match(formatFuzzText(r), /the crash read text \(null\)/);
  const saved = JSON.parse(payloadCaseText(r, join(dir, 'shouting'), file, 'shout')) as Record<
    string,
    unknown
  >;
  assert.equal(saved.text, null);
  assert.ok('tool_calls' in saved);
});

test('the same seed gives the same counts', async () => {
  const file = join(dir, 'agent/hooks/model_hooks.py');
  const a = await fuzzHook(runner, file, 'capitalise', { runs: 60, seed: 11 });
  const b = await fuzzHook(runner, file, 'capitalise', { runs: 60, seed: 11 });
  assert.deepEqual(a.counts, b.counts);
});

test('a batch is one run: a fix saved between two fuzz runs of one warm runner is what the second runs', async () => {
  const fixed = join(dir, 'fixed');
  cpSync(join(root, 'examples/buggy-agent'), fixed, { recursive: true });
  const file = join(fixed, 'hooks/model_hooks.py');
  const before = await fuzzHook(runner, file, 'capitalise', { runs: 60, seed: 7 });
  assert.ok(before.counts.crashed > 0);
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('text = response.text.strip()', 'text = response.text.strip() or " "'),
  );
  const after = await fuzzHook(runner, file, 'capitalise', { runs: 60, seed: 7 });
  assert.equal(after.counts.crashed, 0, JSON.stringify(after.counts));
});

test('CLI: exit 1 and --save writes a payload case that hooksmith test runs; a sound hook exits 0', () => {
  const fuzz = spawnSync(
    process.execPath,
    [
      cli,
      'fuzz',
      'agent/hooks/model_hooks.py::capitalise',
      '--runs',
      '100',
      '--seed',
      '7',
      '--save',
      'from-fuzz',
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  assert.equal(fuzz.status, 1, fuzz.stdout + fuzz.stderr);
  assert.match(fuzz.stdout, /crashed [1-9]\d*/);
  assert.match(fuzz.stdout, /latency p50 [\d.]+ ms, p99 [\d.]+ ms \(budget 500 ms\)/);
  assert.match(fuzz.stdout, /smallest failing payload \(shrunk\): crashed — IndexError/);
  const saved = JSON.parse(readFileSync(join(dir, 'agent/.hooksmith/payloads/from-fuzz.json'), 'utf8'));
  assert.equal(saved.hook, 'hooks/model_hooks.py::capitalise');
  assert.deepEqual(saved.expect, { outcome: 'returned' });
  const t = spawnSync(process.execPath, [cli, 'test', 'agent', '-k', 'from-fuzz'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(t.status, 1, t.stdout);
  assert.match(
    t.stdout,
    /from-fuzz.json:4: outcome\n\s+expected: returned\n\s+actual: {3}crashed \(IndexError/,
  );
  const sound = spawnSync(
    process.execPath,
    [cli, 'fuzz', 'agent/hooks/tool_hooks.py::guard_delete', '--runs', '80', '--seed', '1'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  assert.equal(sound.status, 0, sound.stdout + sound.stderr);
  assert.match(sound.stdout, /returned 80,/);
  assert.match(sound.stdout, /no failure found/);
  const bad = spawnSync(process.execPath, [cli, 'fuzz', 'agent/hooks/model_hooks.py::nope'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(bad.status, 2);
});
