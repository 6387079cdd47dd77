// Issue #44 items 1, 2, 15: the verdicts of real-engine mode (the installed Cayu runtime plays)
// through the built CLI. A hook that kills or freezes the host, or a scenario the runtime never
// played, must not pass; a big scenario whose time is Cayu's own is not blamed on a hook.
// The interpreter: HOOKSMITH_CAYU03_PYTHON, else the tests' 'cayu-0.3' environment where it imports
// cayu 0.3.0 (test/python-envs.ts); skipped, saying so, otherwise.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pythonWith } from '../python-envs';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
const found = process.env.HOOKSMITH_CAYU03_PYTHON
  ? { python: process.env.HOOKSMITH_CAYU03_PYTHON }
  : pythonWith(['cayu'], { envs: ['cayu-0.3'], onlyEnvs: true, version: { dist: 'cayu', is: '0.3.0' } });
const python = found.python ?? 'python3';
const skip = found.skip ?? false;
if (skip) process.stderr.write(`# reliability-round5-cayu-real: skipped: ${skip}\n`);

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-r5-cayu-real-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function hooksmith(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args, '--python', python], {
      cwd: dir,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function agent(name: string, hooks: string, tools: string[]): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'runtime_hooks.py'), hooks);
  for (const t of tools)
    writeFileSync(
      join(root, `${t}.scenario.yaml`),
      `user: go\ncompletions:\n  - tool_calls: [{ tool_name: ${t}, tool_args: {} }]\n  - text: ok\ntools:\n  ${t}: { value: 1 }\nexpect:\n  no_crashes: true\n`,
    );
  return name;
}

const HOSTILE = `import os
import time

from cayu import RuntimeHook


class Freeze(RuntimeHook):
    async def before_tool_call(self, context):
        if context.tool_name == "sleep":
            time.sleep(10_000)
        if context.tool_name == "exit":
            os._exit(3)
        return None
`;

test(
  'item 1: a hook that kills (os._exit) or freezes (time.sleep) the host fails: simulate and test exit 1',
  { skip },
  async () => {
    const a = agent('hostile', HOSTILE, ['exit', 'sleep']);
    for (const t of ['exit', 'sleep']) {
      const sim = await hooksmith([
        'simulate',
        `${a}/${t}.scenario.yaml`,
        '--cayu-safety-stop',
        '1',
        '--format',
        'json',
      ]);
      assert.equal(sim.code, 1, `${t}: ${sim.stderr}`);
      const r = JSON.parse(sim.stdout) as {
        playedBy: string;
        events: { outcome?: string; notes: string[] }[];
      };
      assert.match(r.playedBy, /installed cayu runtime/);
      assert.deepEqual(
        r.events.map((e) => e.outcome),
        [t === 'exit' ? 'crashed' : 'timed-out'],
      );
      // Stopped at the hook's safety stop (not the scenario's deadline, which blames no hook).
      if (t === 'sleep') assert.match(sim.stdout, /a hook never returned: Hooksmith's safety stop \(1 s\)/);
      const run = await hooksmith(['test', `${a}/${t}.scenario.yaml`, '--cayu-safety-stop', '1']);
      assert.equal(run.code, 1, `${t}: ${run.stdout}${run.stderr}`);
      assert.match(run.stdout, /no_crashes/);
    }
  },
);

test(
  'item 2: a hook class that cannot be instantiated, or a module that breaks the runtime, never passes',
  { skip },
  async () => {
    const needsArg = agent(
      'needs-arg',
      'from cayu import RuntimeHook\n\n\nclass Guard(RuntimeHook):\n    def __init__(self, limit):\n        self.limit = limit\n\n    async def before_tool_call(self, context):\n        return None\n',
      ['echo'],
    );
    const sim = await hooksmith(['simulate', `${needsArg}/echo.scenario.yaml`]);
    assert.equal(sim.code, 2, sim.stderr);
    assert.match(sim.stderr, /failed to load: TypeError: .*Guard.*limit/);
    assert.doesNotMatch(sim.stderr, /internal error/);
    const t = await hooksmith(['test', `${needsArg}/echo.scenario.yaml`]);
    assert.equal(t.code, 2, t.stdout + t.stderr);
    assert.match(t.stdout, /failed to load: TypeError/);

    const broken = agent(
      'broken-runtime',
      'from cayu import CayuApp, RuntimeHook\n\nCayuApp.run = None\n\n\nclass Guard(RuntimeHook):\n    async def before_tool_call(self, context):\n        return None\n',
      ['echo'],
    );
    const run = await hooksmith(['test', `${broken}/echo.scenario.yaml`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stdout, /the installed cayu runtime did not play the scenario/);
    assert.doesNotMatch(run.stdout, /PASS/);
  },
);

// Item 15: the installed runtime's own work (not a hook) overruns the scenario's deadline. The
// module wraps CayuApp.run so that, once the stream ends (the hook ran and returned), the
// runtime's run blocks the loop: its frames are the runtime's, not a hook's (only the Recorder's
// hook frames name the scenario as a stalled loop's holder). HOOKSMITH_TEST_CAYU_REAL_SLACK_MS
// shrinks the deadline's 30 s allowance to 20 s: it still covers cayu's import (which runs under
// it: 4 s at load 5 here), and the play gets it afresh once started, so the test ends in ~25 s.
const SLOW_RUNTIME = (plays: string, hooks: string) => `import time

from cayu import CayuApp, RuntimeHook

_run = CayuApp.run


def _slow_run(self, *args, **kwargs):
    async def played():
        async for event in _run(self, *args, **kwargs):
            yield event
        with open(${JSON.stringify(plays)}, "a") as f:
            f.write("play\\n")
        time.sleep(120)  # the runtime's own time, past the scenario's deadline

    return played()


CayuApp.run = _slow_run


class Quiet(RuntimeHook):
    async def before_tool_call(self, context):
        with open(${JSON.stringify(hooks)}, "a") as f:
            f.write(context.tool_name + "\\n")
        return None
`;

test(
  "item 15: the runtime's own work past the deadline: exit 2 naming the runtime, no hook blamed, played once",
  { skip },
  async () => {
    const plays = join(dir, 'slow-plays.log');
    const hookRuns = join(dir, 'slow-hook.log');
    const a = agent('slow-runtime', SLOW_RUNTIME(plays, hookRuns), ['echo']);
    const started = Date.now();
    const sim = await hooksmith(
      ['simulate', `${a}/echo.scenario.yaml`, '--cayu-safety-stop', '1', '--format', 'json'],
      { HOOKSMITH_TEST_CAYU_REAL_SLACK_MS: '20000' },
    );
    const wallMs = Date.now() - started;
    assert.equal(sim.code, 2, sim.stdout + sim.stderr);
    const out = sim.stdout + sim.stderr;
    assert.match(
      out,
      /the installed cayu runtime's own work took longer than Hooksmith allows this scenario \(21 s\)/,
    );
    assert.match(out, /no hook ran past its safety stop/);
    // The engine's own slowness is no verdict, not Hooksmith's failure.
    assert.match(
      sim.stderr,
      /^hooksmith simulate: no verdict: the cayu runtime did not finish the scenario within 21 s$/m,
    );
    assert.doesNotMatch(
      out,
      /a hook never returned|a task a hook left behind|blocked the event loop past its safety stop|internal error/,
    );
    // Played once: never resent to a fresh host after the restart.
    assert.deepEqual(readFileSync(plays, 'utf8').split('\n').filter(Boolean), ['play']);
    assert.deepEqual(readFileSync(hookRuns, 'utf8').split('\n').filter(Boolean), ['echo']);
    // Ended near the deadline (21 s, after host start and cayu's import), not after the 120 s block
    // nor after three plays (before the fix: 3 × 21 s and more).
    assert.ok(wallMs < 60_000, `took ${wallMs} ms`);
    // hooksmith test: the same result is an error that proves nothing (exit 2), never a pass or a hook's failure.
    const run = await hooksmith(['test', `${a}/echo.scenario.yaml`, '--cayu-safety-stop', '1'], {
      HOOKSMITH_TEST_CAYU_REAL_SLACK_MS: '20000',
    });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stdout, /the installed cayu runtime's own work took longer than Hooksmith allows/);
    assert.doesNotMatch(run.stdout, /PASS|internal error/);
  },
);
