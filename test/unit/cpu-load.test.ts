// The free-core measurement behind the automatic worker count: other programs' CPU is the
// machine's busy time minus this process's and its python3's.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { othersBusyCores, processCpuMs, sampleCpu, type CpuSample } from '../../runtime/analysis/cpu-load';
import { defaultWorkerCount } from '../../runtime/analysis/files';

const sample = (at: number, busy: number, own: number, children = 0): CpuSample => ({
  at,
  busy,
  own,
  children,
});

it('others = machine busy − own − children, per ms of window; too short a window says nothing', () => {
  assert.equal(othersBusyCores(sample(0, 1000, 50), sample(200, 1300, 150, 100)), 0.5);
  assert.equal(othersBusyCores(sample(0, 1000, 50), sample(200, 1200, 250)), 0);
  assert.equal(othersBusyCores(sample(0, 0, 0), sample(100, 150, 200)), 0, 'never negative');
  assert.equal(othersBusyCores(sample(0, 0, 0), sample(20, 40, 0)), undefined);
});

it(
  'a busy child process is counted as ours, not as another program',
  { skip: process.platform !== 'linux' },
  async () => {
    const child = spawn(process.execPath, ['-e', 'const t = Date.now(); while (Date.now() - t < 400) {}']);
    await new Promise((r) => setTimeout(r, 300));
    const ms = processCpuMs(child.pid);
    assert.ok(ms >= 100, `child used ${ms} ms`);
    await new Promise((r) => child.on('exit', r));
    assert.equal(processCpuMs(child.pid), 0, 'gone: 0');
    assert.equal(processCpuMs(undefined), 0);
    const s = sampleCpu([process.pid]);
    assert.ok(s.busy > 0 && s.own > 0 && s.children > 0);
  },
);

it('workers only on cores left free by other programs, python3 and V8 (one core kept for them)', () => {
  assert.equal(defaultWorkerCount(1000, 2, 0), 0, '2 cores: main thread + python3/V8 background');
  assert.equal(defaultWorkerCount(1000, 4, 0), 2);
  assert.equal(defaultWorkerCount(1000, 4, 0.4), 2);
  assert.equal(defaultWorkerCount(1000, 4, 0.6), 1);
  assert.equal(defaultWorkerCount(1000, 4, 2), 0);
  assert.equal(defaultWorkerCount(1000, 8, 5.2), 1);
  assert.equal(defaultWorkerCount(1000, 8, 0), 3);
  assert.equal(defaultWorkerCount(299, 8, 0), 0);
});
