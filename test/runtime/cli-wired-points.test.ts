// `--wired-points`: the CLI's word on which Mantle points the engine invokes, as the editor's
// hooksmith.mantle.wiredPoints setting is (so CI and the editor can judge alike): check's
// not-wired findings, the simulator's [not wired] labels and a test run follow it; an unknown
// point is a usage error (exit 2). The built CLI, spawned, with a real python3.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const agent = 'examples/clean-agent';

function hooksmith(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const notWired = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.includes(' not-wired '))
    .map((l) => /`(\w+)` will not run/.exec(l)?.[1]);

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
});

test('check follows --wired-points, and says so; without it, the installed rasa-pro / the catalogue', () => {
  const plain = hooksmith('check', agent, '--format', 'text');
  assert.equal(plain.code, 0, plain.stderr);
  // rasa-pro 3.21 invokes every point (engine-lines/rasa-pro-3.21.json): nothing is not wired.
  assert.deepEqual(notWired(plain.stdout), []);
  const listed = hooksmith('check', agent, '--wired-points', 'incoming_message, outgoing_text, tool_call');
  assert.equal(listed.code, 0, listed.stderr);
  const unwired = notWired(listed.stdout);
  assert.ok(!unwired.includes('drop_spam') && !unwired.includes('guard_orders'), listed.stdout);
  assert.ok(unwired.includes('redact_pii') && unwired.includes('cool_down'), listed.stdout);
  assert.match(listed.stdout, /are not invoked by the --wired-points option: `redact_pii`/);
  // Without an interpreter (--no-cpython) the listed points still decide.
  const none = hooksmith('check', agent, '--no-cpython', '--wired-points', '');
  assert.ok(notWired(none.stdout).includes('guard_orders'), none.stdout);
});

test('an unknown point is a usage error naming it and the points, for every command that takes it', () => {
  for (const args of [
    ['check', agent],
    ['simulate', `${agent}/order-pizza.scenario.yaml`],
    ['test', agent],
    ['run', `${agent}/hooks/tool_hooks.py::guard_orders`, '--payload', '-'],
  ]) {
    const r = hooksmith(...args, '--wired-points', 'tool_cal');
    assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /--wired-points: unknown point 'tool_cal' \(points: turn_started, /);
  }
});

test('simulate labels the points --wired-points leaves out, and only those', () => {
  const r = hooksmith('simulate', `${agent}/order-pizza.scenario.yaml`, '--wired-points', 'outgoing_text');
  assert.equal(r.code, 0, r.stderr);
  const labelled = new Set([...r.stdout.matchAll(/ (\w+) \[not wired\]/g)].map((m) => m[1]));
  assert.ok(labelled.has('tool_call') && labelled.has('incoming_message'), r.stdout);
  assert.ok(!labelled.has('outgoing_text'), r.stdout);
});
