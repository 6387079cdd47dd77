// Benchmark of `hooksmith test` and `hooksmith fuzz` (npm run bench):
// - 24 scenarios across two agents (a copy of examples/clean-agent, its scenarios repeated, and
//   an agent of one trivial hook per point): the cost of a case with a warm host beyond the
//   turn's scripted latency and hook time (target ≤ 20 ms);
// - fuzz through a trivial hook: payloads per second (target ≥ 500).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hooksModule } from './engine';
import { createHookRunner } from '../runtime/engine/runner';
import { discoverCases } from '../runtime/testing/discover-cases';
import { fuzzHook } from '../runtime/testing/fuzz-run';
import { runCases } from '../runtime/testing/run-cases';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

const TRIVIAL_SCENARIO = (i: number) => `name: trivial ${i}
user: question ${i}
fire_unwired: true
completions:
  - tool_calls: [{ tool_name: search_knowledge, tool_args: { query: q${i} } }, { tool_name: lookup, tool_args: { id: ${i} } }]
  - text: answer ${i}
tools:
  lookup: { value: { id: ${i} } }
knowledge: { passages: [{ text: p, score: 0.9 }] }
expect:
  status: completed
  transcript: { equals: answer ${i} }
  tool_called: [{ tool_name: lookup, arguments: { id: ${i} } }, { tool_name: search_knowledge }]
  hook_outcome: { point: tool_call, outcome: returned }
  payload_after: { point: tool_result, where: { tool_name: lookup }, not_contains: secret }
  within_budget: true
  no_crashes: true
  order: { first: tool_call, then: tool_result }
`;

export async function benchTesting(repoRoot: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-bench-test-'));
  try {
    const clean = join(dir, 'clean-agent');
    cpSync(join(repoRoot, 'examples/clean-agent'), clean, { recursive: true });
    for (const f of [
      'order-pizza.scenario.yaml',
      'guarded-tools.scenario.yaml',
      'provider-error.scenario.json',
    ])
      for (let i = 2; i <= 4; i++) {
        const [base, ext] = [f.slice(0, f.indexOf('.')), f.slice(f.indexOf('.'))];
        writeFileSync(join(clean, `${base}-${i}${ext}`), readFileSync(join(clean, f)));
      }
    const trivial = join(dir, 'trivial-agent');
    mkdirSync(trivial);
    writeFileSync(join(trivial, 'hooks.py'), hooksModule());
    for (let i = 0; i < 12; i++) writeFileSync(join(trivial, `t${i}.scenario.yaml`), TRIVIAL_SCENARIO(i));
    const { cases } = discoverCases([clean, trivial]);
    const scenarios = cases.filter((c) => c.kind === 'scenario');
    // Warm: one run starts the hosts and checks the agents; the second is measured.
    await runCases(scenarios);
    const runners = new Map<string, ReturnType<typeof createHookRunner>>();
    const runnerFor = (root: string) => {
      let r = runners.get(root);
      if (!r) runners.set(root, (r = createHookRunner()));
      return r;
    };
    await runCases(scenarios, { runnerFor });
    const t0 = performance.now();
    const results = await runCases(scenarios, { runnerFor });
    const wall = performance.now() - t0;
    for (const r of runners.values()) await r.dispose();
    const overhead = results.map(
      (r) => r.durationMs - (r.simulation?.hookMs ?? 0) - (r.simulation?.scriptedMs ?? 0),
    );
    const failed = results.filter((r) => r.status !== 'passed').length;
    const expectations = results.reduce((n, r) => n + r.expectations.length, 0);
    const fuzz = await benchFuzz(dir);
    return [
      `hooksmith test, ${results.length} scenarios (${expectations} expectations) across 2 agents, warm hosts: ${r1(wall)} ms wall, ${failed} not passed`,
      `per scenario beyond scripted latency and hook time: median ${r1(pct(overhead, 50))} ms, p95 ${r1(pct(overhead, 95))} ms, max ${r1(Math.max(...overhead))} ms (target ≤ 20 ms)`,
      `fuzz through a trivial hook: ${fuzz.perSecond} payloads/s over ${fuzz.runs} payloads, p50 ${fuzz.p50Ms} ms, p99 ${fuzz.p99Ms} ms per run (target ≥ 500/s)`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchFuzz(dir: string) {
  const agent = join(dir, 'fuzz-agent');
  mkdirSync(join(agent, 'hooks'), { recursive: true });
  writeFileSync(
    join(agent, 'hooks', 't.py'),
    'from rasa.mantle.hooks import ToolResultPayload, modify_tool_result\n\n\n@modify_tool_result()\nasync def same(payload: ToolResultPayload) -> ToolResultPayload:\n    return payload\n',
  );
  const runner = createHookRunner();
  try {
    const file = join(agent, 'hooks', 't.py');
    await fuzzHook(runner, file, 'same', { runs: 100, seed: 1 });
    return await fuzzHook(runner, file, 'same', { runs: 1000, seed: 2 });
  } finally {
    await runner.dispose();
  }
}
