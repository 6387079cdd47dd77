// Benchmark: a Mantle scenario (examples/clean-agent/order-pizza.scenario.yaml: every point fires,
// 38 timeline events with a hook) with each hook call played by rasa-pro 3.21.0's own runner
// (real-engine mode) against Hooksmith's emulation, on warm runners with the same interpreter (the
// tests' 'engines' environment, npm run test:env). The agent is copied without runtime_hooks.py, its
// Cayu module (the Cayu row measures Cayu). Goal: real-engine mode within 2x of the emulation, warm.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHookRunner } from '../runtime/engine/runner';
import { pythonWith } from '../test/python-envs';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function benchMantleEngines(repo: string, runs = 9): Promise<string[]> {
  const env = pythonWith(['rasa.mantle.hooks'], { envs: ['engines'], onlyEnvs: true });
  if (!env.python) return [`skipped: ${env.skip}`];
  const agent = mkdtempSync(join(tmpdir(), 'hooksmith-mantle-bench-'));
  cpSync(join(repo, 'examples', 'clean-agent'), agent, { recursive: true });
  rmSync(join(agent, 'runtime_hooks.py'));
  const scenario = join(agent, 'order-pizza.scenario.yaml');
  const lines: string[] = [];
  const medians: Record<string, number> = {};
  try {
    for (const mode of ['real', 'emulation'] as const) {
      // The mode as an option (the editor's setting, --mantle-engine): auto plays through rasa-pro here.
      const runner = createHookRunner({
        python: env.python,
        workspaceRoots: () => [agent],
        mantleEngine: () => (mode === 'real' ? 'auto' : 'emulation'),
      });
      try {
        const first = await runner.simulate(scenario); // the host's start, rasa's import, the agent's
        const times: number[] = [];
        let status = first.status;
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          status = (await runner.simulate(scenario)).status;
          times.push(performance.now() - t0);
        }
        medians[mode] = median(times);
        lines.push(
          `${mode === 'real' ? 'real-engine mode' : 'emulation      '}: order-pizza (${first.events.filter((e) => e.hook).length} hook calls, ${runs} runs, warm) median ${r1(medians[mode])} ms, status ${status} — Mantle hooks played by ${first.mantlePlayedBy}`,
        );
      } finally {
        await runner.dispose();
      }
    }
  } finally {
    rmSync(agent, { recursive: true, force: true });
  }
  lines.push(`real / emulation: ${r1(medians.real! / medians.emulation!)}x (goal ≤ 2x)`);
  return lines;
}
