// Issue #24 item 5: one case's process state does not reach the next in a warm host (one host
// per agent runs its cases one after another). Case A changes the process; case B, run next on
// the same host, sees the state it would see first; what cannot be put back makes a fresh host
// run B, and B is never blamed (a real python3 running real hook code).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { expectStatus, makeHost, mantle } from './fixtures/host/helpers';

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-cases-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = `import asyncio
import os
import resource
import signal
import sys
import threading
import time
import types

from rasa.mantle.hooks import TurnStartedPayload, on_turn_started

`;

const observer = (fn: string, code: string) =>
  `@on_turn_started(timeout_ms=2000)\nasync def ${fn}(payload: TurnStartedPayload) -> None:\n${code
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n\n`;

let agents = 0;
/** An agent with a.py (case A's hook `a`) and b.py (case B's hook `b`); returns its root. */
function agent(a: string, b: string): string {
  const root = join(dir, `agent${agents++}`);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'a.py'), HEAD + observer('a', a));
  writeFileSync(join(root, 'b.py'), HEAD + observer('b', b));
  return realpathSync(root);
}

const run = (root: string, file: 'a.py' | 'b.py') =>
  mantle(file, file[0]!, 'TurnStartedPayload', { sender_id: 'u' }, 2000, root);

describe('case B starts from the state case A found', () => {
  const { host } = makeHost();
  after(() => host.dispose());

  async function aThenB(a: string, b: string) {
    const root = agent(a, b);
    expectStatus(await host.invoke(run(root, 'b.py')), 'returned'); // B's module loaded first
    const starts = host.starts;
    expectStatus(await host.invoke(run(root, 'a.py')), 'returned');
    const rb = expectStatus(await host.invoke(run(root, 'b.py')), 'returned');
    return { root, rb, restarted: host.starts > starts };
  }

  test("os.chdir('/') in A: B runs in the agent root", async () => {
    const { root, rb, restarted } = await aThenB("os.chdir('/')", 'print(os.getcwd())');
    assert.equal(rb.output.text, `${root}\n`);
    assert.equal(restarted, false, 'put back in place, no restart needed');
  });

  test('sys.path.insert(0, …) and os.environ in A: B sees neither', async () => {
    const { root, rb } = await aThenB(
      "sys.path.insert(0, '/tmp/evil')\nos.environ['HS_LEAK'] = '1'",
      "print(sys.path[0], '/tmp/evil' in sys.path, os.environ.get('HS_LEAK'))",
    );
    assert.equal(rb.output.text, `${root} False None\n`);
  });

  test('signal.setitimer and a SIGINT handler set by A: B is not killed and has the default handler', async () => {
    const { rb } = await aThenB(
      'signal.setitimer(signal.ITIMER_REAL, 0.3)\nsignal.signal(signal.SIGINT, signal.SIG_IGN)',
      'await asyncio.sleep(0.6)\nprint(signal.getsignal(signal.SIGINT) is signal.default_int_handler)',
    );
    assert.equal(rb.output.text, 'True\n');
  });

  test('a threading.Timer from A that calls os._exit: a fresh host runs B, which is not blamed', async () => {
    const { rb, restarted } = await aThenB(
      'threading.Timer(0.3, os._exit, (3,)).start()',
      'await asyncio.sleep(0.6)',
    );
    assert.equal(restarted, true);
    assert.match(rb.resentAfter ?? '', /a thread an earlier case started is still running/);
  });

  test('a daemon thread from A that later sets asyncio.sleep = None: B is not timed-out', async () => {
    const { rb, restarted } = await aThenB(
      'def later():\n    time.sleep(0.3)\n    asyncio.sleep = None\nthreading.Thread(target=later, daemon=True).start()',
      'await asyncio.sleep(0.6)\nprint("slept")',
    );
    assert.equal(restarted, true);
    assert.equal(rb.output.text, 'slept\n');
  });

  test("sys.modules['rasa.mantle.hooks'] replaced by A: B's module still imports", async () => {
    const root = agent("sys.modules['rasa.mantle.hooks'] = types.ModuleType('fake')", 'print("b ran")');
    const starts = host.starts;
    expectStatus(await host.invoke(run(root, 'a.py')), 'returned');
    const rb = expectStatus(await host.invoke(run(root, 'b.py')), 'returned');
    assert.equal(rb.output.text, 'b ran\n');
    assert.equal(host.starts, starts + 1);
  });

  test("A exhausting file descriptors: B's module still loads", async () => {
    const root = agent(
      'global FDS\nresource.setrlimit(resource.RLIMIT_NOFILE, (128, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n' +
        'FDS = []\ntry:\n    while True:\n        FDS.append(os.open(os.devnull, os.O_RDONLY))\nexcept OSError:\n    pass',
      'print("b ran")',
    );
    expectStatus(await host.invoke(run(root, 'a.py')), 'returned');
    const rb = expectStatus(await host.invoke(run(root, 'b.py')), 'returned');
    assert.equal(rb.output.text, 'b ran\n');
    assert.match(rb.resentAfter ?? '', /used up the file descriptors/);
  });
});

test('CLI: hooksmith test with a Timer-calling-os._exit case before another: only the guilty case can fail', () => {
  const root = agent('threading.Timer(1.0, os._exit, (3,)).start()', 'await asyncio.sleep(1.5)');
  const payload = (hook: string) =>
    JSON.stringify({ hook, expect: { outcome: 'returned' }, sender_id: 'u' }, null, 2) + '\n';
  mkdirSync(join(root, '.hooksmith/payloads'), { recursive: true });
  writeFileSync(join(root, '.hooksmith/payloads/1-a.json'), payload('a.py::a'));
  writeFileSync(join(root, '.hooksmith/payloads/2-b.json'), payload('b.py::b'));
  const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'test', root], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /2 passed, 0 failed/);
});
