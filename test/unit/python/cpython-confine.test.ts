// Real python3 and real threads: confineHelpers moves python3 and the given threads of this
// process onto all usable CPUs but one, and leaves every other thread alone. (This file runs
// in its own process under node --test: its threads stay confined, no other test sees it.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CpythonSyntaxChecker } from '../../../runtime/python/cpython-syntax';

/** A task's allowed CPUs, from /proc (a process or a thread id). */
function allowedCpus(task: string): number[] {
  const list = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${task}/status`, 'utf8'))?.[1] ?? '';
  return list.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number) as [number, number | undefined];
    return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}

/** A worker thread that idles until terminated, and its Linux thread id. */
async function idleThread(): Promise<{ worker: Worker; tid: number }> {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
     parentPort.postMessage(tid);
     setInterval(() => {}, 1000);`,
    { eval: true },
  );
  const tid = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { worker, tid };
}

const linuxMulticore = process.platform === 'linux' && availableParallelism() >= 2;

test(
  'confineHelpers: python3 and the named threads get every usable CPU but one; other threads keep all',
  { skip: !linuxMulticore && 'needs Linux and 2+ CPUs' },
  async () => {
    const usable = allowedCpus('self');
    const { worker, tid } = await idleThread();
    const bystander = await idleThread();
    const checker = new CpythonSyntaxChecker();
    try {
      checker.warm();
      assert.equal(checker.confineHelpers([tid]), true);
      // python3 answers in order: once this verdict is in, the confinement before it was applied.
      const [verdict] = await Promise.all(checker.checkEach([{ path: 'ok.py', text: 'x = 1\n' }]));
      assert.equal(verdict, null, 'still answers after confining');
      // All usable CPUs but one (the fastest when measured, so any one of them).
      const helpers = allowedCpus(`self/task/${tid}`);
      assert.equal(helpers.length, usable.length - 1, 'the named thread: all CPUs but one');
      assert.ok(helpers.every((cpu) => usable.includes(cpu)));
      assert.deepEqual(allowedCpus(String(checker.pid)), helpers, 'python3 itself');
      assert.deepEqual(allowedCpus(`self/task/${process.pid}`), usable, 'the main thread keeps every CPU');
      assert.deepEqual(allowedCpus(`self/task/${bystander.tid}`), usable, 'threads not named keep every CPU');
    } finally {
      checker.close();
      await worker.terminate();
      await bystander.worker.terminate();
    }
  },
);

test(
  "confineHelpers does nothing before python3 is started; ids that are not this process's threads are left alone",
  { skip: !linuxMulticore && 'needs Linux and 2+ CPUs' },
  async () => {
    const usable = allowedCpus('self');
    const checker = new CpythonSyntaxChecker();
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      assert.equal(
        checker.confineHelpers([process.pid]),
        false,
        'not started: python3 is not started for it either',
      );
      assert.equal(checker.pid, undefined);
      checker.warm();
      assert.equal(checker.confineHelpers([0x7fffffff, -1, other.pid!]), true);
      const [verdict] = await Promise.all(checker.checkEach([{ path: 'bad.py', text: 'def f(:\n' }]));
      assert.ok(verdict, 'python3 survives ids it cannot confine and goes on answering');
      assert.deepEqual(allowedCpus(String(other.pid)), usable, 'another process keeps every CPU');
    } finally {
      other.kill();
      checker.close();
    }
  },
);
