// The built CLI (dist/cli.js), spawned: `hooksmith payload POINT | hooksmith run FILE::HANDLER
// --payload -` for every point and Cayu phase, simulate, and exit codes for bad input.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CAYU_PHASE_IDS, POINT_IDS } from '../../runtime/catalogue';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const agent = join(root, 'examples/clean-agent');
let dir: string;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hooksmith(args: string[], input?: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** One real hook of the example agent per point and phase. */
const HANDLERS: Record<string, string> = {
  turn_started: 'hooks.py::mark_start',
  turn_finished: 'hooks.py::mark_end',
  incoming_message: 'hooks/text_hooks.py::drop_spam',
  model_request: 'hooks/model_hooks.py::cool_down',
  model_response: 'hooks/model_hooks.py::require_grounding',
  tool_call: 'hooks/tool_hooks.py::guard_orders',
  tool_result: 'hooks/tool_hooks.py::redact_pii',
  knowledge_query: 'hooks/knowledge_hooks.py::expand_query',
  knowledge_results: 'hooks/knowledge_hooks.py::drop_low_scores',
  outgoing_text: 'hooks/text_hooks.py::tidy_outgoing',
  before_tool_call: 'runtime_hooks.py::ToolGuard.before_tool_call',
  after_tool_call: 'runtime_hooks.py::ToolGuard.after_tool_call',
  after_session_completed: 'runtime_hooks.py::SessionAudit.after_session_completed',
  after_session_failed: 'runtime_hooks.py::SessionAudit.after_session_failed',
  after_session_interrupted: 'runtime_hooks.py::SessionAudit.after_session_interrupted',
};

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('for every point and phase: hooksmith payload POINT | hooksmith run FILE::HANDLER --payload -', async () => {
  const ids = [...POINT_IDS, ...CAYU_PHASE_IDS];
  const runOne = async (id: string) => {
    const sample = await hooksmith(['payload', id]);
    assert.equal(sample.code, 0, `payload ${id}: ${sample.stderr}`);
    const [file, handler] = HANDLERS[id]!.split('::');
    const r = await hooksmith(
      ['run', `${join(agent, file!)}::${handler}`, '--payload', '-', '--format', 'json'],
      sample.stdout,
    );
    assert.equal(r.code, 0, `run ${id}: exit ${r.code}\n${r.stderr}\n${r.stdout}`);
    const json = JSON.parse(r.stdout);
    for (const key of [
      'point',
      'lane',
      'outcome',
      'payload',
      'signal',
      'error',
      'durationMs',
      'timeoutMs',
      'policy',
      'effect',
    ])
      assert.ok(key in json, `${id}: ${key}`);
    assert.equal(json.point, id);
    return json;
  };
  // Two at a time: the machine has two cores.
  const results: Record<string, { outcome: string; payload: Record<string, unknown> }> = {};
  for (let i = 0; i < ids.length; i += 2) {
    const batch = ids.slice(i, i + 2);
    (await Promise.all(batch.map(runOne))).forEach((j, k) => (results[batch[k]!] = j));
  }
  assert.equal(results.model_response!.outcome, 'retry-model');
  assert.equal(
    results.tool_call!.payload.arguments &&
      (results.tool_call!.payload.arguments as Record<string, unknown>).card_id,
    'card_123',
  );
  assert.equal((results.before_tool_call!.payload as Record<string, unknown>).action, 'proceed');
  assert.equal((results.after_tool_call!.payload as Record<string, unknown>).action, 'modify');
});

test('text output: outcome, duration against budget, effect', async () => {
  const sample = await hooksmith(['payload', 'modify_model_request']);
  const r = await hooksmith(
    ['run', `${join(agent, 'hooks/model_hooks.py')}::cool_down`, '--payload', '-'],
    sample.stdout,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^modify_model_request cool_down/m);
  assert.match(r.stdout, /^outcome: returned in [\d.]+ ms \(budget 800 ms, fail-closed\)$/m);
  assert.match(r.stdout, /^effect: {2}the LLM is called/m);
  assert.match(r.stdout, /model_settings: \{\} → \{"temperature":0.2/);
});

test('exit codes: 1 for a crashed hook, 2 for a malformed payload / unknown handler / unknown point', async () => {
  const a = join(dir, 'crashy');
  mkdirSync(a, { recursive: true });
  writeFileSync(
    join(a, 'hooks.py'),
    'from rasa.mantle.hooks import KnowledgeQueryPayload, modify_knowledge_query\n\n@modify_knowledge_query()\nasync def q(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:\n    raise ValueError("nope")\n',
  );
  const sample = (await hooksmith(['payload', 'knowledge_query'])).stdout;
  const crashed = await hooksmith(['run', `${join(a, 'hooks.py')}::q`, '--payload', '-'], sample);
  assert.equal(crashed.code, 1);
  assert.match(crashed.stdout, /outcome: crashed/);
  assert.match(crashed.stdout, /fail-closed: the search is skipped/);
  const malformed = await hooksmith(
    ['run', `${join(a, 'hooks.py')}::q`, '--payload', '-'],
    '{"query": 42, "sender_id": "u"}',
  );
  assert.equal(malformed.code, 2);
  assert.match(malformed.stderr, /query: expected string, received number/);
  const notJson = await hooksmith(['run', `${join(a, 'hooks.py')}::q`, '--payload', '-'], '{"query": ');
  assert.equal(notJson.code, 2);
  assert.match(notJson.stderr, /not valid JSON/);
  const unknown = await hooksmith(['run', `${join(a, 'hooks.py')}::missing`, '--payload', '-'], sample);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no handler 'missing'.*q/);
  assert.equal((await hooksmith(['payload', 'nope'])).code, 2);
  const noPython = await hooksmith(
    ['run', `${join(a, 'hooks.py')}::q`, '--payload', '-', '--python', join(dir, 'no-such-python')],
    sample,
  );
  assert.equal(noPython.code, 2);
  assert.match(noPython.stderr, /no-such-python/);
  assert.equal((await hooksmith(['run', 'x.py'])).code, 2);
});

test('a crashing Cayu guard: run exits 1 and says the tool runs unguarded; simulate runs the tool (fail-open)', async () => {
  const a = join(dir, 'cayu-crashy');
  mkdirSync(a, { recursive: true });
  writeFileSync(
    join(a, 'guards.py'),
    [
      'from cayu import BeforeToolCallDecision, RuntimeHook',
      '',
      '',
      'class Guard(RuntimeHook):',
      '    async def before_tool_call(self, context):',
      '        raise KeyError(context.tool_name)',
      '',
      '',
      'class SyncGuard(RuntimeHook):  # cayu-sync-method: the runtime still loads the module',
      '    def before_tool_call(self, context):',
      "        return BeforeToolCallDecision(action='block', block_reason='no')",
      '',
    ].join('\n'),
  );
  const payload = JSON.stringify({ tool_name: 'delete_account', arguments: { id: 7 } });
  const crashed = await hooksmith(
    ['run', `${join(a, 'guards.py')}::Guard.before_tool_call`, '--payload', '-', '--format', 'json'],
    payload,
  );
  assert.equal(crashed.code, 1, crashed.stderr);
  const r = JSON.parse(crashed.stdout);
  assert.equal(r.outcome, 'crashed');
  assert.match(r.effect, /the tool runs unguarded with the current arguments/);
  const sync = await hooksmith(
    ['run', `${join(a, 'guards.py')}::SyncGuard.before_tool_call`, '--payload', '-', '--format', 'json'],
    payload,
  );
  assert.equal(sync.code, 1, 'run, not refused (exit 2), for a module the Cayu rules flag');
  const s = JSON.parse(sync.stdout);
  assert.equal(s.error.type, 'TypeError');
  assert.match(s.error.message, /can't be used in 'await' expression/);
  assert.ok(
    s.notes.some((n: string) => /cayu-sync-method/.test(n)),
    'the diagnostic is shown beside the run',
  );
  writeFileSync(
    join(a, 'guarded.scenario.json'),
    JSON.stringify({
      user: 'delete me',
      completions: [
        { tool_calls: [{ tool_name: 'delete_account', tool_args: { id: 7 } }] },
        { text: 'done' },
      ],
      tools: { delete_account: { value: { deleted: true } } },
    }),
  );
  const sim = await hooksmith(['simulate', join(a, 'guarded.scenario.json'), '--format', 'json']);
  const out = JSON.parse(sim.stdout);
  assert.deepEqual(
    out.tools.map((t: { tool_name: string; arguments: unknown }) => [t.tool_name, t.arguments]),
    [['delete_account', { id: 7 }]],
    'both guards failed: the tool ran unguarded',
  );
  const guards = out.events.filter((e: { point: string }) => e.point === 'before_tool_call');
  assert.deepEqual(
    guards.map((e: { outcome: string }) => e.outcome),
    ['crashed', 'crashed'],
  );
  assert.match(guards[0].effect, /delete_account runs unguarded with \{"id":7\}/);
  assert.equal(sim.code, 1, 'a failed hook fails the simulation, as before');
});

test("--cayu-safety-stop: a Cayu hook that never returns is stopped by Hooksmith's safety stop (exit 1); a slow one that returns is its delay", async () => {
  const a = join(dir, 'cayu-slow');
  mkdirSync(a, { recursive: true });
  const file = join(a, 'guards.py');
  writeFileSync(
    file,
    [
      'import asyncio',
      '',
      'from cayu import RuntimeHook',
      '',
      '',
      'class Stuck(RuntimeHook):',
      '    async def before_tool_call(self, context):',
      '        await asyncio.Event().wait()',
      '',
      '',
      'class Slow(RuntimeHook):',
      '    async def before_tool_call(self, context):',
      '        await asyncio.sleep(0.3)',
      '        return None',
      '',
    ].join('\n'),
  );
  const payload = JSON.stringify({ tool_name: 'search', arguments: { q: 'x' } });
  const started = Date.now();
  const stuck = await hooksmith(
    [
      'run',
      `${file}::Stuck.before_tool_call`,
      '--payload',
      '-',
      '--format',
      'json',
      '--cayu-safety-stop',
      '1',
    ],
    payload,
  );
  assert.ok(Date.now() - started < 30_000, 'stopped after about 1 s, not 120 s');
  assert.equal(stuck.code, 1, stuck.stderr);
  const r = JSON.parse(stuck.stdout);
  assert.equal(r.outcome, 'timed-out');
  assert.equal(r.timeoutMs, 1000);
  assert.match(r.effect, /^Hooksmith's own safety stop \(not the engine's\) ended the hook/);
  assert.match(r.effect, /the tool runs unguarded with the current arguments/);
  assert.ok(
    r.notes.some((n: string) => /safety stop ended this one after 1 s/.test(n)),
    r.notes.join('\n'),
  );
  const text = await hooksmith(
    ['run', `${file}::Stuck.before_tool_call`, '--payload', '-', '--cayu-safety-stop=1'],
    payload,
  );
  assert.equal(text.code, 1);
  assert.match(text.stdout, /no timeout in the runtime; Hooksmith's safety stop at 1 s/);

  const slow = await hooksmith(
    [
      'run',
      `${file}::Slow.before_tool_call`,
      '--payload',
      '-',
      '--format',
      'json',
      '--cayu-safety-stop',
      '1',
    ],
    payload,
  );
  assert.equal(slow.code, 0, slow.stderr);
  const s = JSON.parse(slow.stdout);
  assert.equal(s.outcome, 'returned', 'a slow hook is no timeout: the runtime waits for it');
  assert.ok(s.durationMs >= 300, String(s.durationMs));
  assert.ok(
    s.notes.some((n: string) =>
      /^the tool call waited \d+ ms for this hook \(the runtime puts no timeout around a hook\)$/.test(n),
    ),
    s.notes.join('\n'),
  );
  assert.ok(!s.notes.some((n: string) => /safety stop|timed out|timeout budget/.test(n)));

  for (const bad of ['0', '1.5', 'abc', '86401', ' 3']) {
    const r2 = await hooksmith(
      ['run', `${file}::Slow.before_tool_call`, '--payload', '-', '--cayu-safety-stop', bad],
      payload,
    );
    assert.equal(r2.code, 2, bad);
    assert.match(r2.stderr, /--cayu-safety-stop takes whole seconds from 1 to 86400/, bad);
  }
});

test('simulate: text timeline, JSON {events, transcript}, and exit 2 with the JSON path for a bad scenario', async () => {
  const text = await hooksmith(['simulate', join(agent, 'order-pizza.scenario.yaml')]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /: completed \(text answer emitted\)/);
  assert.match(text.stdout, /turn_finished/);
  const json = await hooksmith(['simulate', join(agent, 'provider-error.scenario.json'), '--format', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout);
  assert.ok(Array.isArray(parsed.events) && Array.isArray(parsed.transcript));
  assert.equal(parsed.status, 'error');
  const bad = join(dir, 'bad.scenario.yaml');
  writeFileSync(
    bad,
    `agent: ${agent}\nuser: hi\ncompletions:\n  - text: a\n  - tool_calls:\n      - tool_name: 7\n`,
  );
  const r = await hooksmith(['simulate', bad]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /completions\[1\]\.tool_calls\[0\]\.tool_name: expected string/);
  assert.equal(r.stdout, '');
});
