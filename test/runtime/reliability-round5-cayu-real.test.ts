// Issue #44 items 1, 2, 15: the verdicts of real-engine mode (the installed Cayu runtime plays)
// through the built CLI. A hook that kills or freezes the host, or a scenario the runtime never
// played, must not pass; a big scenario whose time is Cayu's own is not blamed on a hook.
// The interpreter: HOOKSMITH_CAYU03_PYTHON, else the tests' 'cayu-0.3' environment where it imports
// cayu 0.3.0 (test/python-envs.ts); skipped, saying so, otherwise.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

function hooksmith(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args, '--python', python], { cwd: dir });
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
