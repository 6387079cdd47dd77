// #34 item 15: a `run --debug` whose CLI is killed (SIGKILL) after a debugger attached and continued
// must not leave its Python host running parentless: the host ends with its CLI, in debug mode too.
// The built CLI, a real Python with debugpy and the test's minimal DAP client (dap-client.ts).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DapClient } from './dap-client';
import { pythonWith } from '../python-envs';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const found = process.env.HOOKSMITH_DEBUG_PYTHON
  ? { python: process.env.HOOKSMITH_DEBUG_PYTHON }
  : pythonWith(['debugpy'], { envs: ['tools'] });
const python = found.python;
const skip = found.skip ?? false;

const HOOKS = `import asyncio
import time

from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def slow(payload: ToolCallPayload) -> ToolCallPayload:
    await asyncio.sleep(0)  # BREAK
    time.sleep(600)  # blocks the loop: nothing reads the closed stdin
    return payload
`;

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-orphan-'));
  writeFileSync(join(dir, 'hooks.py'), HOOKS);
  writeFileSync(join(dir, 'payload.json'), JSON.stringify({ tool_name: 't', arguments: {}, sender_id: 'u' }));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const children = (pid: number) =>
  spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);

test(
  'a debugged run whose CLI is killed after the debugger continued: its host ends too',
  { skip },
  async () => {
    const child = spawn(
      process.execPath,
      [cli, 'run', 'hooks.py::slow', '--payload', 'payload.json', '--python', python!, '--debug', '0'],
      { cwd: dir },
    );
    let stderr = '';
    const address = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /waiting for a debugger to attach at (\S+):(\d+)/.exec(stderr);
        if (m) resolve(`${m[1]}:${m[2]}`);
      });
      child.on('close', (code) => reject(new Error(`the CLI ended (${code}): ${stderr}`)));
    });
    const hosts = children(child.pid!);
    assert.ok(hosts.length >= 1, 'the CLI started its host');
    const dap = await DapClient.open(
      address.slice(0, address.lastIndexOf(':')),
      Number(address.split(':').pop()),
    );
    try {
      await dap.request('initialize', {
        clientID: 't',
        adapterID: 'debugpy',
        linesStartAt1: true,
        pathFormat: 'path',
      });
      const attached = dap.request('attach', { justMyCode: true });
      await dap.event('initialized');
      const line = HOOKS.split('\n').findIndex((l) => l.includes('# BREAK')) + 1;
      await dap.request('setBreakpoints', {
        source: { path: join(dir, 'hooks.py') },
        breakpoints: [{ line }],
      });
      await dap.request('configurationDone');
      await attached;
      const stopped = await dap.event('stopped');
      void dap.request('continue', { threadId: stopped.body!.threadId }).catch(() => undefined);
      // The hook now sleeps; the editor (or a terminal) goes away without a word.
      await new Promise((r) => setTimeout(r, 500));
      child.kill('SIGKILL');
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && hosts.some(alive)) await new Promise((r) => setTimeout(r, 200));
      const left = hosts.filter(alive);
      for (const pid of left) process.kill(pid, 'SIGKILL');
      assert.deepEqual(left, [], 'no host outlives its CLI by 10 s');
    } finally {
      dap.close?.();
    }
  },
);
