// `hooksmith run|simulate --debug`: the built CLI with a real Python that has debugpy, driven by a
// minimal DAP client (dap-client.ts) as an editor would: attach, a breakpoint in a hook and in the
// agent's lib/, `stopped` there, a local read, continue; the outcome and exit code are those of the
// run without the debugger, a 100 ms budget paused 2 s is not a timeout, Ctrl-C ends it (exit 130).
// The interpreter: HOOKSMITH_DEBUG_PYTHON, else one that imports debugpy (the tests' 'tools'
// environment, else python3: test/python-envs.ts); none: the tests are skipped, saying so.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DapClient, type DapMessage } from './dap-client';
import { pythonWith } from '../python-envs';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');

const found = process.env.HOOKSMITH_DEBUG_PYTHON
  ? { python: process.env.HOOKSMITH_DEBUG_PYTHON }
  : pythonWith(['debugpy'], { envs: ['tools'] });
const python = found.python;
const skip = found.skip ?? false;
if (skip) process.stderr.write(`# cli-debug: skipped: ${skip}\n`);

const HOOKS = `from lib.names import clean
from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call(timeout_ms=100)
async def guard(payload: ToolCallPayload) -> ToolCallPayload:
    tool_name = payload.tool_name
    cleaned = clean(tool_name)  # BREAK
    return payload.model_copy(update={"tool_name": cleaned})
`;
const LIB = `def clean(name):
    trimmed = name.strip()
    return trimmed  # LIB BREAK
`;
const SCENARIO = `name: debug me
user: order a pizza
completions:
  - tool_calls:
      - tool_name: place_order
        tool_args: { size: large }
  - text: Ordered.
tools:
  place_order:
    value: { order_id: o-1 }
`;

/** A modify hook that ends its process on its second call: in turn 2 of CONVERSATION (turn 3 needs a new host). */
const EXITS = `import os

from rasa.mantle.hooks import ModelRequestPayload, modify_model_request

CALLS = 0


@modify_model_request()
async def count(payload: ModelRequestPayload) -> ModelRequestPayload:
    global CALLS
    CALLS += 1
    if CALLS == 2:
        os._exit(3)
    return payload
`;
const CONVERSATION = `name: exits in turn 2
turns:
  - user: hi
    completions:
      - text: Hello
  - user: again
    completions:
      - text: Hello again
  - user: and again
    completions:
      - text: Still here
`;

let dir: string;
const lineOf = (text: string, marker: string) => text.split('\n').findIndex((l) => l.includes(marker)) + 1;

interface Session {
  child: ChildProcess;
  dap: DapClient;
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts the CLI with --debug 0, waits for its address, attaches and sets the breakpoints. */
async function debugSession(args: string[], breakpoints: { path: string; line: number }[]): Promise<Session> {
  const child = spawn(process.execPath, [cli, ...args, '--python', python!, '--debug', '0'], { cwd: dir });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  const address = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /waiting for a debugger to attach at (\S+):(\d+)/.exec(stderr);
      if (m) resolve(`${m[1]}:${m[2]}`);
    });
    void exit.then((r) => reject(new Error(`the CLI ended (${r.code}) before listening: ${r.stderr}`)));
  });
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.split(':').pop())];
  const dap = await DapClient.open(host, port);
  const init = await dap.request('initialize', {
    clientID: 'hooksmith-test',
    adapterID: 'debugpy',
    linesStartAt1: true,
    columnsStartAt1: true,
    pathFormat: 'path',
  });
  assert.equal(init.success, true, init.message);
  const attached = dap.request('attach', { justMyCode: true });
  await dap.event('initialized');
  const byFile = new Map<string, number[]>();
  for (const b of breakpoints) byFile.set(b.path, [...(byFile.get(b.path) ?? []), b.line]);
  for (const [path, lines] of byFile) {
    const set = await dap.request('setBreakpoints', {
      source: { path },
      breakpoints: lines.map((line) => ({ line })),
    });
    assert.equal(set.success, true, set.message);
  }
  assert.equal((await dap.request('configurationDone')).success, true);
  assert.equal((await attached).success, true);
  return { child, dap, exit };
}

/** The `stopped` event, the stack of its thread and the locals of its top frame. */
async function stoppedAt(dap: DapClient) {
  const stopped = await dap.event('stopped');
  const threadId = stopped.body!.threadId as number;
  const trace = await dap.request('stackTrace', { threadId });
  const frames = trace.body!.stackFrames as {
    id: number;
    name: string;
    line: number;
    source?: { path?: string };
  }[];
  const scopes = (await dap.request('scopes', { frameId: frames[0].id })).body!.scopes as {
    name: string;
    variablesReference: number;
  }[];
  const localsRef = scopes.find((s) => /local/i.test(s.name))!.variablesReference;
  const vars = (await dap.request('variables', { variablesReference: localsRef })).body!.variables as {
    name: string;
    value: string;
  }[];
  return { stopped, threadId, frames, locals: new Map(vars.map((v) => [v.name, v.value])) };
}

function plain(args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args, '--python', python!], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout };
}

describe('CLI --debug with a DAP client (debugpy)', { skip }, () => {
  let hooks: string;
  let lib: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hooksmith-debug-'));
    mkdirSync(join(dir, 'lib'));
    hooks = join(dir, 'hooks.py');
    lib = join(dir, 'lib', 'names.py');
    writeFileSync(hooks, HOOKS);
    writeFileSync(join(dir, 'lib', '__init__.py'), '');
    writeFileSync(lib, LIB);
    writeFileSync(
      join(dir, 'payload.json'),
      JSON.stringify({ tool_name: ' place_order ', arguments: {}, sender_id: 'u1' }),
    );
    writeFileSync(join(dir, 'order.scenario.yaml'), SCENARIO);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('run: stops at the hook line, reads tool_name, continues; same outcome and exit code as without', async () => {
    const args = ['run', 'hooks.py::guard', '--payload', 'payload.json', '--format', 'json'];
    const without = plain(args);
    const s = await debugSession(args, [{ path: hooks, line: lineOf(HOOKS, '# BREAK') }]);
    try {
      const at = await stoppedAt(s.dap);
      assert.equal(at.stopped.body!.reason, 'breakpoint');
      assert.equal(at.frames[0].line, lineOf(HOOKS, '# BREAK'));
      assert.equal(at.frames[0].name, 'guard');
      assert.equal(at.frames[0].source?.path, hooks);
      assert.equal(at.locals.get('tool_name'), "' place_order '");
      // justMyCode: the host's own frames (and asyncio's) are hidden
      const foreign = at.frames.filter((f) => f.source?.path !== hooks);
      assert.deepEqual(foreign, [], `frames outside the hook module: ${JSON.stringify(foreign)}`);
      // The run may end (and the host with its connection) before the answer to 'continue' arrives.
      void s.dap.request('continue', { threadId: at.threadId }).catch(() => undefined);
      const r = await s.exit;
      assert.equal(r.code, without.code, r.stderr);
      const debugged = JSON.parse(r.stdout) as { outcome: string; payload: { tool_name: string } };
      const plainRun = JSON.parse(without.stdout) as typeof debugged;
      assert.equal(debugged.outcome, plainRun.outcome);
      assert.equal(debugged.outcome, 'returned');
      assert.deepEqual(debugged.payload, plainRun.payload);
    } finally {
      s.dap.close();
      s.child.kill('SIGKILL');
    }
  });

  test('a hook with a 100 ms budget paused 2 s at a breakpoint is not timed out; its time leaves the pause out', async () => {
    const s = await debugSession(
      ['run', 'hooks.py::guard', '--payload', 'payload.json', '--format', 'json'],
      [{ path: hooks, line: lineOf(HOOKS, '# BREAK') }],
    );
    try {
      const at = await stoppedAt(s.dap);
      await new Promise((r) => setTimeout(r, 2000));
      // The run may end (and the host with its connection) before the answer to 'continue' arrives.
      void s.dap.request('continue', { threadId: at.threadId }).catch(() => undefined);
      const r = await s.exit;
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(r.stdout) as {
        outcome: string;
        overBudget?: boolean;
        durationMs: number;
        timeoutMs: number;
        notes: string[];
        debug: { budgetEnforced: boolean; pausedMs: number | null; wallMs: number };
      };
      assert.equal(result.outcome, 'returned');
      assert.equal(result.timeoutMs, 100);
      assert.equal(result.overBudget, undefined);
      assert.equal(result.debug.budgetEnforced, false);
      assert.ok(result.debug.wallMs >= 2000, `wall ${result.debug.wallMs} ms`);
      assert.ok(
        result.debug.pausedMs !== null && result.debug.pausedMs >= 1900,
        `paused ${result.debug.pausedMs} ms`,
      );
      assert.ok(result.durationMs < 1000, `measured ${result.durationMs} ms`);
      assert.match(result.notes.join('\n'), /debug run: the 100 ms budget was not enforced/);
    } finally {
      s.dap.close();
      s.child.kill('SIGKILL');
    }
  });

  test("simulate: a breakpoint in the agent's lib/ stops under the hook; the turn ends as without", async () => {
    const args = ['simulate', 'order.scenario.yaml', '--format', 'json'];
    const without = plain(args);
    const s = await debugSession(args, [{ path: lib, line: lineOf(LIB, '# LIB BREAK') }]);
    try {
      const at = await stoppedAt(s.dap);
      assert.equal(at.frames[0].source?.path, lib);
      assert.equal(at.frames[0].line, lineOf(LIB, '# LIB BREAK'));
      assert.equal(at.locals.get('trimmed'), "'place_order'");
      assert.deepEqual(
        at.frames.map((f) => f.name),
        ['clean', 'guard'],
      );
      // The run may end (and the host with its connection) before the answer to 'continue' arrives.
      void s.dap.request('continue', { threadId: at.threadId }).catch(() => undefined);
      const r = await s.exit;
      assert.equal(r.code, without.code, r.stderr);
      const strip = (t: string) => (JSON.parse(t) as { status: string; transcript: unknown }).transcript;
      assert.deepEqual(strip(r.stdout), strip(without.stdout));
    } finally {
      s.dap.close();
      s.child.kill('SIGKILL');
    }
  });

  test('simulate: a conversation whose turn-2 hook calls os._exit ends with the verdict it has without --debug', async () => {
    mkdirSync(join(dir, 'exits'));
    writeFileSync(join(dir, 'exits', 'hooks.py'), EXITS);
    writeFileSync(join(dir, 'exits', 'talk.scenario.yaml'), CONVERSATION);
    const args = ['simulate', join('exits', 'talk.scenario.yaml'), '--format', 'json'];
    const without = plain(args);
    const verdict = (t: string) => {
      const r = JSON.parse(t) as { status: string; transcript: unknown };
      return { status: r.status, transcript: r.transcript };
    };
    assert.equal(verdict(without.stdout).status, 'error', without.stdout);
    const s = await debugSession(args, []);
    try {
      // The host's replacement after the crash must not wait for a debugger no one will attach.
      let timer: NodeJS.Timeout | undefined;
      const r = await Promise.race([
        s.exit,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('simulate --debug did not end within 60 s')), 60_000);
        }),
      ]).finally(() => clearTimeout(timer));
      assert.equal(r.code, without.code, r.stderr);
      assert.deepEqual(verdict(r.stdout), verdict(without.stdout));
    } finally {
      s.dap.close();
      s.child.kill('SIGKILL');
    }
  });

  test('Ctrl-C while paused ends the session: exit 130, the host is gone', async () => {
    const s = await debugSession(
      ['run', 'hooks.py::guard', '--payload', 'payload.json'],
      [{ path: hooks, line: lineOf(HOOKS, '# BREAK') }],
    );
    const process_ = await s.dap.event('process').catch(() => undefined);
    await stoppedAt(s.dap);
    s.child.kill('SIGINT');
    const r = await s.exit;
    s.dap.close();
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /interrupted/);
    const pid = process_?.body?.systemProcessId as number | undefined;
    assert.ok(pid, 'debugpy named the host process');
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
  });
});

describe('CLI --debug without debugpy', () => {
  test('a clear message how to install it, nothing started, exit 2', () => {
    // A Python whose debugpy import fails: a module of that name shadows any installed one.
    const shadow = mkdtempSync(join(tmpdir(), 'hooksmith-nodebugpy-'));
    writeFileSync(
      join(shadow, 'debugpy.py'),
      'raise ModuleNotFoundError("No module named \'debugpy\'", name="debugpy")\n',
    );
    try {
      const r = spawnSync(
        process.execPath,
        [cli, 'run', 'x.py::f', '--payload', '-', '--debug', '5678', '--python', python ?? 'python3'],
        { cwd: shadow, encoding: 'utf8', input: '{}', env: { ...process.env, PYTHONPATH: shadow } },
      );
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /debugpy, which is not installed/);
      // The one command for this interpreter's kind (#31 item 10).
      assert.match(r.stderr, /\(sudo apt-get install python3-debugpy\)|-m pip install debugpy\)/);
      assert.doesNotMatch(r.stderr, /waiting for a debugger/);
    } finally {
      rmSync(shadow, { recursive: true, force: true });
    }
  });

  test('a malformed --debug address is a usage error (exit 2)', () => {
    const r = spawnSync(process.execPath, [cli, 'run', 'x.py::f', '--payload', '-', '--debug', 'nope'], {
      encoding: 'utf8',
      input: '{}',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--debug needs \[HOST:\]PORT/);
  });
});

// #34 item 14: an interpreter that hangs (here a wrapper that sleeps) is named as hanging within
// the documented 15 s bound, not blamed on debugpy after 30 s, and nothing it started remains.
describe('--debug with an interpreter that hangs', { skip: process.platform === 'win32' }, () => {
  test('exit 2 within the bound, the interpreter named as hanging, its sleep killed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hooksmith-debug-hang-'));
    try {
      const marker = `hooksmith-debug-hang-${process.pid}`;
      const hang = join(dir, 'hanging-python');
      writeFileSync(hang, `#!/bin/sh\nsleep 1000 # ${marker}\n`);
      chmodSync(hang, 0o755);
      const t0 = performance.now();
      const r = spawnSync(
        process.execPath,
        [cli, 'run', 'x.py::f', '--payload', '-', '--debug', '0', '--python', hang],
        { encoding: 'utf8', input: '{}', cwd: dir, timeout: 60_000 },
      );
      const s = (performance.now() - t0) / 1000;
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /hanging-python did not answer within 15 s of starting/);
      assert.doesNotMatch(r.stderr, /debugpy, which/);
      assert.ok(s < 25, `took ${s.toFixed(1)} s`);
      const left = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.trim();
      assert.equal(left, '', 'the hanging interpreter outlived the command');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

export type { DapMessage };
