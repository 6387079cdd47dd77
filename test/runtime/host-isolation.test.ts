// A warm host no hook can poison, outcomes blamed on their cause, and no process left behind
// (#16 items 4, 6, 7), with a real python3 running real hook code.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { hostPort } from '../../runtime/engine/host-adapter';
import { RunInputError } from '../../runtime/engine/run-hook';
import { createHookRunnerWithHost } from '../../runtime/engine/runner';
import { expectStatus, makeHost, mantle, testPython } from './fixtures/host/helpers';

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-isolation-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = `import asyncio
import json
import os
import subprocess
import sys
import time

from rasa.mantle.hooks import TurnStartedPayload, on_turn_started

`;

/** An agent whose hooks.py holds `body` (observers named as given); returns its root. */
function agentWith(name: string, body: string): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'hooks.py'), HEAD + body);
  return root;
}

const observer = (fn: string, code: string, timeoutMs = 200) =>
  `@on_turn_started(timeout_ms=${timeoutMs})\nasync def ${fn}(payload: TurnStartedPayload) -> None:\n${code
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n\n`;

const call = (root: string, fn: string, timeoutMs = 200) =>
  mantle('hooks.py', fn, 'TurnStartedPayload', { sender_id: 'u' }, timeoutMs, root);

describe('a warm host no hook can poison', () => {
  const { host, logs } = makeHost({ graceMs: 150 });
  after(() => host.dispose());
  const clean = agentWith('clean', observer('fine', 'await asyncio.sleep(0)\nprint("fine")'));

  test('asyncio.wait = None: the run is reported, the host restarted, every later run (any agent) is fine', async () => {
    const poison = agentWith('poison', observer('poison', 'asyncio.wait = None'));
    await host.invoke(call(clean, 'fine'));
    const starts = host.starts;
    const r = expectStatus(await host.invoke(call(poison, 'poison')), 'returned');
    assert.deepEqual(r.hostChanged, ['asyncio.wait']);
    for (let i = 0; i < 2; i++) {
      const next = expectStatus(await host.invoke(call(clean, 'fine')), 'returned');
      assert.equal(next.output.text, 'fine\n');
    }
    assert.equal(host.starts, starts + 1);
    assert.ok(logs.some((l) => /restarting the Python host: .*poison changed what the host runs on/.test(l)));
  });

  test('json.dumps monkeypatched by a hook: its own run still answers (not timed-out)', async () => {
    const patch = agentWith(
      'patch',
      observer('patch', 'json.dumps = lambda *a, **k: 1 / 0\nprint("patched")'),
    );
    const r = expectStatus(await host.invoke(call(patch, 'patch')), 'returned');
    assert.equal(r.output.text, 'patched\n');
    assert.ok(r.hostChanged?.includes('json.dumps'));
    expectStatus(await host.invoke(call(clean, 'fine')), 'returned');
  });
});

describe('the host carries JSON faithfully or says why not', () => {
  test('a request nested past what Python’s json reads is answered (protocol error with its id), not left hanging', async () => {
    const { locateHostScript } = await import('../../runtime/host/python-host');
    const child = spawn(testPython(), ['-u', locateHostScript()], { stdio: ['pipe', 'pipe', 'inherit'] });
    const deep = '{"a": '.repeat(5000) + '1' + '}'.repeat(5000);
    const answer = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const line = out.split('\n').find((l) => l.includes('"id": 7') || l.includes('"id":7'));
        if (line) resolve(line);
      });
      child.stdin.write(`{"id": 7, "op": "invoke", "payload": ${deep}}\n`);
    });
    child.kill('SIGKILL');
    const msg = JSON.parse(answer);
    assert.equal(msg.status, 'protocol-error');
    assert.match(msg.message, /nested too deeply/);
  });

  test('a deep payload is refused by PythonHost naming the path; a returned lone surrogate comes back unchanged', async () => {
    const { host } = makeHost();
    try {
      let deep: unknown = 1;
      for (let i = 0; i < 500; i++) deep = { a: deep };
      const refused = expectStatus(
        await host.invoke({
          ...call(agentWith('plain', observer('x', 'pass')), 'x'),
          payload: { sender_id: 'u', call: deep },
        }),
        'invalid-request',
      );
      assert.match(refused.message, /call\.a\.a.*nested deeper than 100 levels/);
      const root = agentWith(
        'surrogate',
        'from rasa.mantle.hooks import KnowledgeQueryPayload, modify_knowledge_query\n\n@modify_knowledge_query()\nasync def lone(p: KnowledgeQueryPayload) -> str:\n    return "a\\ud800b"\n',
      );
      const r = expectStatus(
        await host.invoke(
          mantle('hooks.py', 'lone', 'KnowledgeQueryPayload', { query: 'q', sender_id: 'u' }, 500, root),
        ),
        'returned',
      );
      assert.equal(r.value, 'a\ud800b');
    } finally {
      await host.dispose();
    }
  });
});

describe('outcomes are blamed on their cause', () => {
  const { host, logs } = makeHost({ graceMs: 150 });
  after(() => host.dispose());

  test('after a hook swallows its cancellation and blocks, the next hook is not timed-out: the host restarts for it', async () => {
    const root = agentWith(
      'straggler',
      observer(
        'stubborn',
        'try:\n    await asyncio.sleep(10)\nexcept asyncio.CancelledError:\n    time.sleep(3)',
        100,
      ) + observer('innocent', 'print("ran")', 300),
    );
    const first = expectStatus(await host.invoke(call(root, 'stubborn', 100)), 'timed-out');
    assert.equal(first.killed, false);
    const t0 = Date.now();
    const next = expectStatus(await host.invoke(call(root, 'innocent', 300)), 'returned');
    assert.equal(next.output.text, 'ran\n');
    assert.ok(Date.now() - t0 < 2500, 'answered long before the stubborn hook woke up');
    assert.ok(
      logs.some((l) => /stubborn ignored its cancellation after timing out and held the event loop/.test(l)),
      logs.join('\n'),
    );
  });

  test('a call queued behind a hook that holds the loop within its own budget still gets its whole budget once its body starts', async () => {
    const root = agentWith(
      'queued',
      observer('holder', 'time.sleep(0.8)\nprint("held")', 2000) +
        observer('queued', 'time.sleep(0.3)\nprint("queued ran")', 400),
    );
    await host.invoke(call(root, 'holder', 2000)); // imported: nothing below waits for an import
    const starts = host.starts;
    // queued is sent while holder holds the loop: its deadline (400 + 150 ms from its request)
    // passes before the host reads it, so it waits for holder; its own 300 ms of blocking then
    // run under its own budget, not under what is left of it.
    const holding = host.invoke(call(root, 'holder', 2000));
    await new Promise((r) => setTimeout(r, 150));
    const [held, queued] = await Promise.all([holding, host.invoke(call(root, 'queued', 400))]);
    assert.equal(expectStatus(held, 'returned').output.text, 'held\n');
    const q = expectStatus(queued, 'returned');
    assert.equal(q.output.text, 'queued ran\n');
    assert.match(q.starvedBy ?? '', /holder/);
    assert.equal(host.starts, starts);
  });

  test('a busy loop at import time is the import’s failure (exit-2 input error), not the hook blocking the loop', async () => {
    const root = join(dir, 'import-loop');
    mkdirSync(root);
    writeFileSync(join(root, 'hooks.py'), HEAD + 'while True:\n    pass\n');
    const { host: h } = makeHost({ loadBudgetMs: 400 });
    const runner = createHookRunnerWithHost(hostPort(h));
    try {
      await assert.rejects(
        runner.run({ file: join(root, 'hooks.py'), handler: 'x', payload: { sender_id: 'u' } }),
        (e: unknown) => e instanceof RunInputError && e.kind !== 'load', // the check stops a missing handler first
      );
      writeFileSync(join(root, 'hooks.py'), HEAD + 'while True:\n    pass\n\n' + observer('x', 'pass'));
      await assert.rejects(
        runner.run({ file: join(root, 'hooks.py'), handler: 'x', payload: { sender_id: 'u' } }),
        (e: unknown) =>
          e instanceof RunInputError &&
          e.kind === 'load' &&
          /importing the module did not finish within 400 ms/.test(e.message) &&
          !/blocked the event loop/.test(e.message),
      );
    } finally {
      await runner.dispose();
    }
  });
});

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 50 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 20));
  return pids.filter(alive);
}

const SPAWNERS = (pidFile: string) => `
def _record(pid):
    with open(${JSON.stringify(pidFile)}, "a") as f:
        f.write(f"{pid}\\n")


def _daemon():
    # setsid + double fork: a classic daemon, out of the host's process group
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            _record(os.getpid())
            time.sleep(300)
        os._exit(0)
    os.waitpid(pid, 0)


_record(subprocess.Popen(["sleep", "300"]).pid)  # at import
`;

describe('no process is left behind', { skip: process.platform !== 'linux' }, () => {
  test('children and setsid daemons from import and hook are gone when `hooksmith run` ends', async () => {
    const pidFile = join(dir, 'pids-run.txt');
    const root = agentWith(
      'spawner',
      SPAWNERS(pidFile) +
        observer(
          'spawn',
          '_record(subprocess.Popen(["sleep", "300"]).pid)\n_daemon()\nprint("spawned")',
          2000,
        ),
    );
    const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
    assert.ok(existsSync(cli), 'npm run build first');
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [
        cli,
        'run',
        `${join(root, 'hooks.py')}::spawn`,
        '--payload',
        '-',
      ]);
      child.stdin.end('{"sender_id": "u"}');
      child.on('close', resolve);
    });
    assert.equal(code, 0);
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    assert.equal(pids.length, 3);
    assert.deepEqual(await gone(pids), []);
  });

  test('a warm runner (the editor’s): a run whose hook left a child ends the host with it; the next run works', async () => {
    const pidFile = join(dir, 'pids-warm.txt');
    const root = agentWith(
      'warm-spawner',
      SPAWNERS(pidFile) + observer('spawn', '_record(subprocess.Popen(["sleep", "300"]).pid)', 2000),
    );
    const { host: h } = makeHost();
    const runner = createHookRunnerWithHost(hostPort(h));
    try {
      const run = () =>
        runner.run({ file: join(root, 'hooks.py'), handler: 'spawn', payload: { sender_id: 'u' } });
      assert.equal((await run()).outcome, 'returned');
      const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      assert.equal(pids.length, 2); // the import's and the hook's
      assert.deepEqual(await gone(pids), []);
      assert.equal((await run()).outcome, 'returned');
      assert.equal(h.starts, 2);
    } finally {
      await runner.dispose();
    }
  });

  test('a warm runner: a run that left only a setsid daemon, or a child started from a thread, ends the host with it; a clean run does not', async () => {
    const pidFile = join(dir, 'pids-warm-daemon.txt');
    const root = agentWith(
      'warm-daemon',
      SPAWNERS(pidFile).replace(/^_record\(subprocess.*$/m, '') +
        'import threading\n\n\ndef _spawn_and_stay(started):\n    _record(subprocess.Popen(["sleep", "300"]).pid)\n    started.set()\n    time.sleep(300)\n\n\n' +
        // returns once the daemon has recorded its pid (it runs on after the hook has returned)
        observer(
          'daemon',
          `_daemon()\nwhile not (os.path.exists(${JSON.stringify(pidFile)}) and open(${JSON.stringify(pidFile)}).read().strip()):\n    time.sleep(0.01)`,
          2000,
        ) +
        observer(
          'threaded',
          // the thread lives on: its child stays in its own children list, not the main thread's
          'started = threading.Event()\nthreading.Thread(target=_spawn_and_stay, args=(started,), daemon=True).start()\nstarted.wait()',
          2000,
        ) +
        observer('clean', 'pass', 2000),
    );
    const { host: h } = makeHost();
    const runner = createHookRunnerWithHost(hostPort(h));
    try {
      const run = (handler: string) =>
        runner.run({ file: join(root, 'hooks.py'), handler, payload: { sender_id: 'u' } });
      assert.equal((await run('clean')).outcome, 'returned');
      assert.equal((await run('clean')).outcome, 'returned');
      assert.equal(h.starts, 1, 'a run that leaves nothing keeps the warm host');
      assert.equal((await run('daemon')).outcome, 'returned');
      const daemon = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      assert.equal(daemon.length, 1);
      assert.deepEqual(await gone(daemon), []);
      assert.equal((await run('threaded')).outcome, 'returned');
      assert.equal(h.starts, 2);
      const all = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      assert.equal(all.length, 2);
      assert.deepEqual(await gone(all), []);
      assert.equal((await run('clean')).outcome, 'returned');
      assert.equal(h.starts, 3);
    } finally {
      await runner.dispose();
    }
  });

  test('a hook that starts a daemon and then blocks: the timeout kill takes the daemon too', async () => {
    const pidFile = join(dir, 'pids-timeout.txt');
    const root = agentWith(
      'spawn-block',
      SPAWNERS(pidFile) + observer('spawn_and_block', '_daemon()\ntime.sleep(30)', 100),
    );
    const { host } = makeHost({ graceMs: 100 });
    try {
      const r = expectStatus(await host.invoke(call(root, 'spawn_and_block', 100)), 'timed-out');
      assert.equal(r.killed, true);
      const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      assert.equal(pids.length, 2);
      assert.deepEqual(await gone(pids), []);
    } finally {
      await host.dispose();
    }
  });
});
