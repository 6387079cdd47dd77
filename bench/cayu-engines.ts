// Benchmark: the Cayu example conversation (examples/cayu-agent/support.scenario.yaml: two turns,
// three tool calls, a per-app quota) played by the installed cayu 0.3.0 runtime (real-engine
// mode) against Hooksmith's emulation, on warm runners with the same interpreter and PYTHONPATH.
// The runtime: the tests' 'cayu-0.3' environment (npm run test:env) on python3's PYTHONPATH.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHookRunner } from '../runtime/engine/runner';
import { useCayuLine } from '../runtime/catalogue';
import { sitePackagesWith, testEnv } from '../test/python-envs';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function benchCayuEngines(repo: string, runs = 7): Promise<string[]> {
  const cayu = sitePackagesWith('cayu-0.3', ['cayu'], { dist: 'cayu', is: '0.3.0' });
  if (!cayu.path) return [`skipped: ${cayu.skip}`];
  const saved = process.env.PYTHONPATH;
  process.env.PYTHONPATH = cayu.path;
  const scenario = join(repo, 'examples', 'cayu-agent', 'support.scenario.yaml');
  const lines: string[] = [];
  try {
    for (const mode of ['real', 'emulation'] as const) {
      const runner = createHookRunner({ cayuEngine: () => mode });
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
    if (saved === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = saved;
  }
  return lines;
}

/**
 * The same conversation on an installed cayu of the newer layout (the tests' 'engines' environment,
 * cayu 0.15.0, or HOOKSMITH_CAYU_PYTHON): the example (its imports serve both lines), real against emulation.
 */
export async function benchCayu015(repo: string, runs = 3): Promise<string[]> {
  const python = process.env.HOOKSMITH_CAYU_PYTHON ?? testEnv('engines').python;
  if (!python) return [`skipped: ${testEnv('engines').reason} (or set HOOKSMITH_CAYU_PYTHON)`];
  useCayuLine('cayu-newer');
  const lines: string[] = [];
  try {
    for (const mode of ['real', 'emulation'] as const) {
      const runner = createHookRunner({ python, cayuEngine: () => mode });
      try {
        const scenario = join(repo, 'examples', 'cayu-agent', 'support.scenario.yaml');
        const t0 = performance.now();
        const first = await runner.simulate(scenario);
        const cold = performance.now() - t0;
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t1 = performance.now();
          await runner.simulate(scenario);
          times.push(performance.now() - t1);
        }
        lines.push(
          `${mode === 'real' ? 'real-engine mode' : 'emulation      '}: support conversation on ${python} (${runs} runs) first ${r1(cold)} ms, warm median ${r1(median(times))} ms, status ${first.status} — played by ${first.playedBy}`,
        );
      } finally {
        await runner.dispose();
      }
    }
  } finally {
    useCayuLine(undefined);
  }
  return lines;
}
