// Benchmark: the Cayu example conversation (examples/cayu-agent/support.scenario.yaml: two turns,
// three tool calls, a per-app quota) played by the installed cayu 0.3.0 runtime (real-engine
// mode) against Hooksmith's emulation, on warm runners with the same interpreter and PYTHONPATH.
// The release is ../shared/engines/cayu-0.3.0 beside the repository (or HOOKSMITH_CAYU_SRC).
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHookRunner } from '../runtime/engine/runner';
import { configureCayuEngine } from '../runtime/engine/cayu-real/engine-mode';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function benchCayuEngines(repo: string, runs = 7): Promise<string[]> {
  const release = process.env.HOOKSMITH_CAYU_SRC ?? resolve(repo, '..', 'shared', 'engines', 'cayu-0.3.0');
  if (!existsSync(join(release, 'cayu'))) return [`skipped: no real cayu at ${release}`];
  const saved = process.env.PYTHONPATH;
  process.env.PYTHONPATH = [release, '/usr/lib/python3/dist-packages'].join(delimiter);
  const scenario = join(repo, 'examples', 'cayu-agent', 'support.scenario.yaml');
  const lines: string[] = [];
  try {
    for (const mode of ['real', 'emulation'] as const) {
      configureCayuEngine(mode);
      const runner = createHookRunner();
      try {
        const first = await runner.simulate(scenario); // the host's start and the imports
        const times: number[] = [];
        let status = first.status;
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          status = (await runner.simulate(scenario)).status;
          times.push(performance.now() - t0);
        }
        lines.push(
          `${mode === 'real' ? 'real-engine mode' : 'emulation      '}: support conversation (2 turns, 3 tool calls, ${runs} runs, warm) median ${r1(median(times))} ms, status ${status} — played by ${first.playedBy}`,
        );
      } finally {
        await runner.dispose();
      }
    }
  } finally {
    configureCayuEngine(undefined);
    if (saved === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = saved;
  }
  return lines;
}
