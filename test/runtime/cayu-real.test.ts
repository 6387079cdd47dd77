// Real-engine mode (#29): where `cayu` is importable, the installed runtime plays Cayu scenarios
// (engine/cayu-real/, host cayu_real.py) and every result names who played. The release is at
// the tests' 'cayu-0.3' environment (test/python-envs.ts), put on python3's PYTHONPATH; the tests
// skip, naming why, where python3 cannot import it from there. Real python3.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SimulationResult } from '../../runtime/engine/api';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import { sitePackagesWith } from '../python-envs';

const root = join(__dirname, '..', '..');
const cayu03 = sitePackagesWith('cayu-0.3', ['cayu'], { dist: 'cayu', is: '0.3.0' });
const REAL_PATH = cayu03.path ?? '';
const skip = cayu03.skip ? { skip: `real-engine mode not tested: ${cayu03.skip}` } : {};

const work = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-real-'));
after(() => rmSync(work, { recursive: true, force: true }));

function agent(name: string, hooks: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'runtime_hooks.py'), hooks);
  return dir;
}

const QUOTA = `from cayu import BeforeToolCallDecision, RuntimeHook


class Quota(RuntimeHook):
    def __init__(self):
        self.calls = 0

    async def before_tool_call(self, context):
        self.calls += 1
        if self.calls >= 3:
            return BeforeToolCallDecision(action="block", block_reason="third call of the conversation")
        return None

    async def after_session_completed(self, context):
        print("completed", context.session.id)
`;

const call = (tool_name: string) => ({ tool_calls: [{ tool_name, tool_args: { n: 1 } }] });
/** Two turns, three tool calls: one in the first turn, two (one batch) in the second. */
const CONVERSATION = {
  turns: [
    { user: 'one', completions: [call('echo'), { text: 'ok' }] },
    {
      user: 'two',
      completions: [
        {
          tool_calls: [
            { tool_name: 'echo', tool_args: { n: 2 } },
            { tool_name: 'other', tool_args: { n: 3 } },
          ],
        },
        { text: 'done' },
      ],
    },
  ],
  tools: { echo: { value: { ok: true } }, other: { value: { ok: true } } },
};

async function withEnv<T>(env: Record<string, string>, body: (r: HookRunner) => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const runner = createHookRunner();
  try {
    return await body(runner);
  } finally {
    await runner.dispose();
    process.env = saved;
  }
}

const sessionEnds = (r: SimulationResult) =>
  r.events.filter((e) => e.point === 'after_session_completed').map((e) => [e.turn, e.outcome]);

test(
  'real-engine mode: one hook object per app, session phases after each run, named in the result',
  skip,
  async () => {
    const dir = agent('quota', QUOTA);
    const r = await withEnv({ PYTHONPATH: REAL_PATH, HOOKSMITH_CAYU_ENGINE: 'auto' }, (runner) =>
      runner.simulate(CONVERSATION, dir),
    );
    assert.equal(r.playedBy, 'cayu 0.3.0 runtime');
    assert.equal(r.status, 'completed');
    // The same Quota instance counted the calls of both turns: the third is blocked.
    assert.deepEqual(
      r.tools?.map((t) => t.tool_name),
      ['echo', 'echo'],
    );
    assert.deepEqual(
      r.toolResults?.map((t) => [t.tool_name, t.event, t.content]),
      [
        ['echo', 'tool.call.completed', '{"ok":true}'],
        ['echo', 'tool.call.completed', '{"ok":true}'],
        ['other', 'tool.call.blocked', 'third call of the conversation'],
      ],
    );
    const guard = r.events.filter((e) => e.point === 'before_tool_call');
    assert.deepEqual(
      guard.map((e) => [e.turn, e.hook, (e.after as { action?: string } | null)?.action ?? null]),
      [
        [1, 'runtime_hooks.py::Quota.before_tool_call', null],
        [2, 'runtime_hooks.py::Quota.before_tool_call', null],
        [2, 'runtime_hooks.py::Quota.before_tool_call', 'block'],
      ],
    );
    // after_session_completed: once per turn (each run / resume ends a run of the session).
    assert.deepEqual(sessionEnds(r), [
      [1, 'returned'],
      [2, 'returned'],
    ]);
    // The model calls the runtime made (a tool round, then the answer) per turn, and the times, as
    // the emulation reports them; every result the session kept, by call id.
    assert.deepEqual(
      r.turns?.map((t) => t.iterations),
      [2, 2],
    );
    assert.equal(r.iterations, 4);
    assert.ok((r.durationMs ?? 0) > 0 && r.hookMs !== undefined && r.scriptedMs === 0, JSON.stringify(r));
    assert.deepEqual(
      r.savedResults?.map((s) => [s.id, s.tool_name, s.is_error]),
      [
        ['call_t1_0_0', 'echo', false],
        ['call_t2_0_0', 'echo', false],
        ['call_t2_0_1', 'other', true],
      ],
    );
  },
);

test('emulation mode: the same conversation, named as the emulation', async () => {
  const dir = agent('quota-emulated', QUOTA);
  const r = await withEnv({ PYTHONPATH: '', HOOKSMITH_CAYU_ENGINE: 'auto' }, (runner) =>
    runner.simulate(CONVERSATION, dir),
  );
  // The module imports the hook API from cayu 0.3's layout, unguarded: the emulation follows that line.
  assert.equal(
    r.playedBy,
    "Hooksmith's Cayu emulation (cayu not installed; following cayu 0.3, as runtime_hooks.py imports its hook API)",
  );
  // One hook object per app (the third call is blocked) and session phases per turn (#29 items 1-2).
  assert.deepEqual(
    r.tools?.map((x) => x.tool_name),
    ['echo', 'echo'],
  );
  assert.deepEqual(sessionEnds(r), [
    [1, 'returned'],
    [2, 'returned'],
  ]);
});

test('hooksmith.cayu.engine emulation forces the emulation where cayu is importable', skip, async () => {
  const dir = agent('forced', QUOTA);
  const r = await withEnv({ PYTHONPATH: REAL_PATH, HOOKSMITH_CAYU_ENGINE: 'emulation' }, (runner) =>
    runner.simulate(
      { user: 'go', completions: [call('echo'), { text: 'ok' }], tools: CONVERSATION.tools },
      dir,
    ),
  );
  assert.equal(r.playedBy, "Hooksmith's Cayu emulation (forced: hooksmith.cayu.engine emulation)");
  assert.equal(r.toolResults, undefined);
});

const HOSTILE = `import asyncio, os, time
from cayu import RuntimeHook


class Stuck(RuntimeHook):
    async def before_tool_call(self, context):
        if context.tool_name == "spin":
            while True:
                pass
        if context.tool_name == "exit":
            os._exit(7)
        if context.tool_name == "wait":
            await asyncio.sleep(3600)
        return None
`;

test(
  'hostile hooks in real-engine mode: the safety stop, a killed host, and the host usable after',
  skip,
  async () => {
    const dir = agent('hostile', HOSTILE);
    const one = (tool: string) => ({
      user: 'go',
      completions: [call(tool), { text: 'ok' }],
      tools: { [tool]: {} },
    });
    await withEnv(
      { PYTHONPATH: REAL_PATH, HOOKSMITH_CAYU_ENGINE: 'real', HOOKSMITH_CAYU_SAFETY_STOP_S: '3' },
      async (runner) => {
        // Awaits forever: Hooksmith's safety stop ends it; the runtime records hook.failed and goes on.
        const waited = await runner.simulate(one('wait'), dir);
        assert.equal(waited.playedBy, 'cayu 0.3.0 runtime');
        const stopped = waited.events.find((e) => e.point === 'before_tool_call')!;
        assert.equal(stopped.outcome, 'timed-out');
        assert.match(stopped.notes.join('\n'), /safety stop/);
        assert.deepEqual(
          waited.tools?.map((x) => x.tool_name),
          ['wait'],
        );
        // Blocks the loop: the host is killed at the deadline, the scenario ends in error.
        const spun = await runner.simulate(one('spin'), dir);
        assert.equal(spun.status, 'error');
        assert.match(spun.ending ?? '', /safety stop.*killed and restarted/);
        // Ends the process: the host died, reported; the next scenario runs on a fresh host.
        const exited = await runner.simulate(one('exit'), dir);
        assert.equal(exited.status, 'error');
        assert.match(exited.ending ?? '', /host died/);
        const fine = await runner.simulate(one('fine'), dir);
        assert.equal(fine.status, 'completed');
        assert.equal(fine.playedBy, 'cayu 0.3.0 runtime');
      },
    );
  },
);

function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

test(
  'the CLI names the mode: simulate text and JSON, test; --cayu-engine real without cayu is exit 2',
  skip,
  async () => {
    const scenario = 'examples/cayu-agent/support.scenario.yaml';
    const text = await cli(['simulate', scenario], { PYTHONPATH: REAL_PATH });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Cayu played by cayu 0\.3\.0 runtime$/m);
    const json = await cli(['simulate', scenario, '--format', 'json', '--cayu-engine', 'emulation'], {
      PYTHONPATH: REAL_PATH,
    });
    assert.equal(
      (JSON.parse(json.stdout) as SimulationResult).playedBy,
      "Hooksmith's Cayu emulation (forced: hooksmith.cayu.engine emulation)",
    );
    const tested = await cli(['test', 'examples/cayu-agent'], { PYTHONPATH: REAL_PATH });
    assert.equal(tested.code, 0, tested.stdout);
    assert.match(tested.stdout, /PASSED .*support conversation .*\[cayu 0\.3\.0 runtime\]/);
    const forced = await cli(['simulate', scenario, '--cayu-engine', 'real'], { PYTHONPATH: '' });
    assert.equal(forced.code, 2);
    assert.match(forced.stderr, /cayu is not importable/);
    const bad = await cli(['simulate', scenario, '--cayu-engine', 'both'], {});
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--cayu-engine takes auto\|real\|emulation/);
  },
);

// One phase call has no runtime entry point (engine-mode.ts SINGLE_CALL): run, fuzz and Run Hook
// are the emulation's even where cayu is importable, and say so, and why.
test('run and fuzz of a Cayu hook name who played the call, and why', skip, async () => {
  const hook = 'examples/cayu-agent/runtime_hooks.py::ToolQuota.before_tool_call';
  const payload = join(work, 'quota-payload.json');
  writeFileSync(payload, JSON.stringify({ tool_name: 'lookup', arguments: { q: 'x' } }));
  const ran = await cli(['run', hook, '--payload', payload], { PYTHONPATH: REAL_PATH });
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(
    ran.stdout,
    /^played by Hooksmith's Cayu emulation \(one phase call on the context you give: the cayu runtime only calls a phase inside its own tool round or session end; /m,
  );
  const json = await cli(['run', hook, '--payload', payload, '--format', 'json'], { PYTHONPATH: '' });
  assert.equal(
    (JSON.parse(json.stdout) as { playedBy?: string }).playedBy,
    "Hooksmith's Cayu emulation (cayu not installed)",
  );
  const fuzzed = await cli(['fuzz', hook, '--runs', '3', '--seed', '1', '--format', 'json'], {
    PYTHONPATH: REAL_PATH,
    HOOKSMITH_CAYU_ENGINE: 'emulation',
  });
  assert.equal(fuzzed.code, 0, fuzzed.stderr);
  assert.equal(
    (JSON.parse(fuzzed.stdout) as { playedBy?: string }).playedBy,
    "Hooksmith's Cayu emulation (forced: hooksmith.cayu.engine emulation)",
  );
});

// An agent with Mantle and Cayu hooks plays in the emulation (no Cayu runtime runs Mantle hooks),
// and says so; its Cayu module must import under the real cayu 0.3 too (`from cayu import …`).
test(
  'a Mantle+Cayu agent with the real cayu importable: check clean, test plays in the emulation and says why',
  skip,
  async () => {
    const checked = await cli(['check', 'examples/clean-agent'], { PYTHONPATH: REAL_PATH });
    assert.match(checked.stdout, /^(0 errors, |no problems in )/m, checked.stdout);
    const tested = await cli(['test', 'examples/clean-agent'], { PYTHONPATH: REAL_PATH });
    assert.equal(tested.code, 0, tested.stdout);
    const scenarios = tested.stdout.split('\n').filter((l) => /\.scenario\.(yaml|json)::/.test(l));
    assert.ok(scenarios.length >= 3, tested.stdout);
    for (const line of scenarios)
      assert.match(
        line,
        /^PASSED .*\[Hooksmith's Cayu emulation \(the agent also has Mantle hooks, which a Cayu runtime does not run\)\]$/,
      );
  },
);
