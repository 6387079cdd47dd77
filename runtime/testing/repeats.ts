// `hooksmith test --repeat N`: each case run N times (fresh model calls where recording is on).
// What is flaky shows as a pass rate per case and per expectation; a real model's speed as the
// per-turn model latency (the agent's model time in each played turn), p50 and p95.
import type { CaseResult } from './cases';

export interface Rate {
  passed: number;
  runs: number;
}

export interface RepeatedCase {
  file: string;
  name: string;
  /** Runs that passed, of those that ran (skipped runs are not counted). */
  rate: Rate;
  errors: number;
  expectations: ({ name: string; line: number } & Rate)[];
  /** The agent's model time per played turn, over every run (absent: no model played). */
  latencyMs?: { p50: number; p95: number; turns: number };
}

/** The nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function turnLatencies(r: CaseResult): number[] {
  const byTurn = new Map<number, number>();
  for (const e of r.simulation?.models?.exchanges ?? [])
    if (e.role === 'agent') byTurn.set(e.turn, (byTurn.get(e.turn) ?? 0) + e.latencyMs);
  return [...byTurn.values()];
}

/** `runs[i]` is the i-th run's results, every run listing the same cases in the same order. */
export function summarizeRepeats(runs: readonly CaseResult[][]): RepeatedCase[] {
  const first = runs[0] ?? [];
  return first.map((c, i) => {
    const mine = runs.map((r) => r[i]!).filter((r) => r.status !== 'skipped');
    const expectations = new Map<string, { name: string; line: number } & Rate>();
    for (const r of mine)
      for (const e of r.expectations.filter((x) => !x.skipped)) {
        const key = `${e.line}:${e.name}`;
        const agg = expectations.get(key) ?? { name: e.name, line: e.line, passed: 0, runs: 0 };
        agg.runs++;
        if (e.passed) agg.passed++;
        expectations.set(key, agg);
      }
    const latencies = mine.flatMap(turnLatencies).sort((a, b) => a - b);
    return {
      file: c.case.file,
      name: c.case.name,
      rate: { passed: mine.filter((r) => r.status === 'passed').length, runs: mine.length },
      errors: mine.filter((r) => r.status === 'error').length,
      expectations: [...expectations.values()],
      ...(latencies.length
        ? {
            latencyMs: {
              p50: percentile(latencies, 50),
              p95: percentile(latencies, 95),
              turns: latencies.length,
            },
          }
        : {}),
    };
  });
}

/**
 * A repeated case's verdict (`hooksmith test --repeat`, the Testing view's Run N times): passed
 * only when every run that ran passed; a run that could not run makes it an error.
 */
export function repeatVerdict(c: RepeatedCase): 'passed' | 'failed' | 'error' | 'skipped' {
  if (c.errors) return 'error';
  if (!c.rate.runs) return 'skipped';
  return c.rate.passed === c.rate.runs ? 'passed' : 'failed';
}

const pct = (r: Rate) => (r.runs ? `${Math.round((100 * r.passed) / r.runs)}%` : 'n/a');

export function formatRepeatsText(
  cases: readonly RepeatedCase[],
  n: number,
  relative: (f: string) => string,
): string {
  const out = [`repeated ${n} times`];
  for (const c of cases) {
    const latency = c.latencyMs
      ? `; model latency per turn p50 ${c.latencyMs.p50} ms, p95 ${c.latencyMs.p95} ms (${c.latencyMs.turns} turns)`
      : '';
    const errors = c.errors ? `, ${c.errors} errors` : '';
    out.push(
      `${relative(c.file)}::${c.name}: ${c.rate.passed}/${c.rate.runs} passed (${pct(c.rate)})${errors}${latency}`,
    );
    for (const e of c.expectations) out.push(`  line ${e.line} ${e.name}: ${e.passed}/${e.runs} (${pct(e)})`);
  }
  return out.join('\n') + '\n';
}

export function formatRepeatsJson(
  cases: readonly RepeatedCase[],
  n: number,
  relative: (f: string) => string,
): string {
  return (
    JSON.stringify({ repeat: n, cases: cases.map((c) => ({ ...c, file: relative(c.file) })) }, null, 2) + '\n'
  );
}
