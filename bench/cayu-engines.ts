// Benchmark: the Cayu example conversation (examples/cayu-agent/support.scenario.yaml: two turns,
// three tool calls, a per-app quota) played by the installed cayu 0.3.0 runtime (real-engine
// mode) against Hooksmith's emulation, on warm runners with the same interpreter and PYTHONPATH.
// The runtime: the tests' 'cayu-0.3' environment (npm run test:env) on python3's PYTHONPATH.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHookRunner } from '../runtime/engine/runner';
import { useCayuLine } from '../runtime/catalogue';
import { sitePackagesWith, testEnv } from '../test/python-envs';
import { discoverCases } from '../runtime/testing/discover-cases';
import { runCases } from '../runtime/testing/run-cases';

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

/**
 * Ten Cayu scenarios in one `hooksmith test` (the example agent, its support conversation ten
 * times over), cayu 0.15 real-engine mode against the emulation: a fresh run (the host's start
 * and imports included) and a warm one (the same runner again), each with one host (-j 1).
 * The goal is real ≤ 2× the emulation; what is Cayu's own cost is said with the number.
 */
export async function benchCayuTenScenarios(repo: string): Promise<string[]> {
  const python = process.env.HOOKSMITH_CAYU_PYTHON ?? testEnv('engines').python;
  if (!python) return [`skipped: ${testEnv('engines').reason} (or set HOOKSMITH_CAYU_PYTHON)`];
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-bench-cayu10-'));
  const agent = join(dir, 'cayu-agent');
  cpSync(join(repo, 'examples', 'cayu-agent'), agent, { recursive: true });
  const support = readFileSync(join(agent, 'support.scenario.yaml'), 'utf8');
  for (let i = 2; i <= 10; i++)
    writeFileSync(
      join(agent, `support-${i}.scenario.yaml`),
      support.replace(/^name: .*$/m, `name: support conversation ${i}`),
    );
  const scenarios = discoverCases([agent]).cases.filter((c) => c.kind === 'scenario');
  useCayuLine('cayu-newer');
  const times: Record<
    string,
    { fresh: number; warm: number; played: number; failed: number; playedBy: string; why?: string }
  > = {};
  try {
    for (const mode of ['real', 'emulation'] as const) {
      const cayuEngine = () => mode;
      let t0 = performance.now();
      await runCases(scenarios, { python, jobs: 1, cayuEngine });
      const fresh = performance.now() - t0;
      const runner = createHookRunner({ python, cayuEngine });
      try {
        await runCases(scenarios, { runnerFor: () => runner });
        t0 = performance.now();
        const results = await runCases(scenarios, { runnerFor: () => runner });
        times[mode] = {
          fresh,
          warm: performance.now() - t0,
          // Real-engine mode: the host's time inside the runtime's play (app, run, resume, events).
          played: results.reduce((n, r) => n + (r.simulation?.durationMs ?? 0), 0),
          failed: results.filter((r) => r.status !== 'passed').length,
          why: results.find((r) => r.status !== 'passed')?.error?.message,
          playedBy: results[0]?.simulation?.playedBy ?? '?',
        };
      } finally {
        await runner.dispose();
      }
    }
  } finally {
    useCayuLine(undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  const { real, emulation } = times as Record<'real' | 'emulation', (typeof times)[string]>;
  const row = (label: string, t: typeof real) =>
    `${label}: ${scenarios.length} scenarios, fresh ${r1(t.fresh)} ms, warm ${r1(t.warm)} ms, ${t.failed} not passed${t.why ? ` (${t.why.slice(0, 160)})` : ''} — played by ${t.playedBy}`;
  // A scenario that did not play (a hook module's import timed out on a loaded machine) makes the ratio meaningless.
  if (real!.failed || emulation!.failed)
    return [
      row('real-engine mode', real!),
      row('emulation      ', emulation!),
      'no ratio: not every scenario passed',
    ];
  return [
    row('real-engine mode', real!),
    row('emulation      ', emulation!),
    `warm ratio real/emulation: ${r1(real!.warm / emulation!.warm)}× (goal ≤ 2×); fresh ${r1(real!.fresh / emulation!.fresh)}×`,
    `real-engine mode, warm: ${r1((real!.played / real!.warm) * 100)}% of the wall time inside the cayu runtime's play (the host's play() of cayu_real.py), ${r1((real!.warm - real!.played) / scenarios.length)} ms a scenario around it (Hooksmith's: the request, the hooks' import, the timeline)`,
    floorRow(repo, python, scenarios.length, emulation!.warm),
  ];
}

/**
 * The installed cayu's own floor in the same run (bench/cayu_floor.py: the same conversation shape
 * with no hook and no Hooksmith code, a fresh app per play): what no change of ours can go below.
 */
function floorRow(repo: string, python: string, plays: number, emulationWarm: number): string {
  try {
    const out = execFileSync(python, [join(repo, 'bench', 'cayu_floor.py'), String(plays)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const { cayu, plays: ms } = JSON.parse(out) as { cayu: string; plays: number[] };
    const total = ms.reduce((a, b) => a + b, 0);
    return `cayu ${cayu}'s own floor: ${plays} plays of the same shape with no hook and no Hooksmith code ${r1(total)} ms (median ${r1(median(ms))} ms a play) = ${r1(total / emulationWarm)}× the emulation's ${plays} scenarios; a ratio below that cannot be reached from outside the engine`;
  } catch (e) {
    return `cayu floor not measured: ${(e as Error).message.split('\n')[0]}`;
  }
}
