// Measures the Python host: cold start (spawn → hello) and the warm invoke round trip of a
// trivial hook, with the hook body's own time (measured in the host) for comparison.
// Called by the lead's `npm run bench`; returns numbers, prints nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PythonHost } from '../runtime/host/python-host';

export interface HostBenchOptions {
  python?: string;
  /** Warm calls to time (default 1000). */
  calls?: number;
}

export interface HostBenchResult {
  python: string;
  /** Spawn → hello of the first start (includes any launcher such as a pyenv shim). */
  coldStartMs: number;
  /** Spawn → hello of a restart, which runs the resolved interpreter directly. */
  restartMs: number;
  /** First invoke of the hook (module import included). */
  firstInvokeMs: number;
  calls: number;
  warmP50Ms: number;
  warmP99Ms: number;
  warmMeanMs: number;
  /** The hook body as timed inside the host (p50). */
  hookBodyP50Ms: number;
  /** Round trip minus body, p50 and p99: the host's own overhead. */
  overheadP50Ms: number;
  overheadP99Ms: number;
  /** The same for the later calls of one app (`app`: a scenario's, a fuzz batch's). */
  appCallOverheadP50Ms: number;
  appCallOverheadP99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

export async function benchHost(options: HostBenchOptions = {}): Promise<HostBenchResult> {
  const calls = options.calls ?? 1000;
  const root = mkdtempSync(join(tmpdir(), 'hooksmith-bench-'));
  writeFileSync(
    join(root, 'hooks.py'),
    'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started()\nasync def trivial(payload) -> None:\n    return None\n',
  );
  const host = new PythonHost({ python: options.python });
  try {
    let t0 = performance.now();
    const info = await host.start();
    const coldStartMs = performance.now() - t0;
    const req = {
      agentRoot: root,
      file: 'hooks.py',
      handler: 'trivial',
      kind: 'mantle' as const,
      payloadType: 'TurnStartedPayload' as const,
      payload: { sender_id: 'bench' },
      timeoutMs: 1000,
    };
    t0 = performance.now();
    await host.invoke(req);
    const firstInvokeMs = performance.now() - t0;
    for (let i = 0; i < 50; i++) await host.invoke(req); // warm-up
    const rtt: number[] = [];
    const body: number[] = [];
    const overhead: number[] = [];
    for (let i = 0; i < calls; i++) {
      const s = performance.now();
      const r = await host.invoke(req);
      const ms = performance.now() - s;
      if (r.status !== 'returned') throw new Error(`bench hook did not return: ${r.status}`);
      rtt.push(ms);
      body.push(r.durationMs);
      overhead.push(ms - r.durationMs);
    }
    const appCall: number[] = [];
    for (let i = 0; i < calls; i++) {
      const s = performance.now();
      const r = await host.invoke({ ...req, app: 'bench' });
      appCall.push(performance.now() - s - r.durationMs);
    }
    await host.dispose();
    t0 = performance.now();
    await host.start();
    const restartMs = performance.now() - t0;
    const sort = (a: number[]): number[] => [...a].sort((x, y) => x - y);
    const [sr, sb, so, ss] = [sort(rtt), sort(body), sort(overhead), sort(appCall)];
    return {
      python: `${info.python} (${info.executable})`,
      coldStartMs: round(coldStartMs),
      restartMs: round(restartMs),
      firstInvokeMs: round(firstInvokeMs),
      calls,
      warmP50Ms: round(percentile(sr, 50)),
      warmP99Ms: round(percentile(sr, 99)),
      warmMeanMs: round(rtt.reduce((a, b) => a + b, 0) / rtt.length),
      hookBodyP50Ms: round(percentile(sb, 50)),
      overheadP50Ms: round(percentile(so, 50)),
      overheadP99Ms: round(percentile(so, 99)),
      appCallOverheadP50Ms: round(percentile(ss, 50)),
      appCallOverheadP99Ms: round(percentile(ss, 99)),
    };
  } finally {
    await host.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

// Run directly (not when bundled into dist/bench/run.js, where every module is the main one).
if (require.main === module && /host-timings\.[jt]s$/.test(process.argv[1] ?? '')) {
  benchHost({ python: process.argv[2] }).then(
    (r) => process.stdout.write(JSON.stringify(r, null, 2) + '\n'),
    (e: unknown) => {
      process.stderr.write(`${String(e)}\n`);
      process.exit(1);
    },
  );
}
