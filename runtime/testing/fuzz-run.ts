// `hooksmith fuzz`: a hook run on generated payloads for its point (fuzz-arbitraries.ts) under
// the engine's rules. Counts outcomes, times the runs against the budget, and shrinks the
// smallest payload that makes the hook misbehave (crash, time out, invalid return, ignored
// signal, over budget) with fast-check.
import fc from 'fast-check';
import * as path from 'node:path';
import { OUTCOMES, type Outcome, type RunResult } from '../engine/api';
import { describeTarget, locateHook, type HookTarget } from '../engine/hook-locator';
import { formatDiagnostic, ModuleChecker } from '../engine/module-check';
import { validateCayuContext } from '../engine/cayu-context';
import { validatePayload } from '../engine/payload-input';
import { RunInputError } from '../engine/run-hook';
import type { HookRunner } from '../engine/runner';
import { cayuContextArbitrary, payloadArbitrary } from './fuzz-arbitraries';
import { crashField } from './fuzz-cause';
import { FAILED_OUTCOMES } from './outcomes';
import { stringifyJson } from '../json/lossless-json';

export interface FuzzOptions {
  runs: number;
  seed: number;
  onProgress?: (done: number, total: number) => void;
}

export interface FuzzReport {
  target: string;
  /** "model_response modify", "before_tool_call". */
  point: string;
  runs: number;
  seed: number;
  counts: Record<Outcome, number>;
  overBudget: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  budgetMs: number;
  perSecond: number;
  /** The smallest payload that made the hook misbehave (shrunk), and what happened. */
  smallest?: FuzzFailure;
  /** The first failing payloads of the run as generated (at most FAILING_KEPT), in run order. */
  failing?: (FuzzFailure & { index: number })[];
  /** Cayu: who played the calls (the emulation, and why). */
  playedBy?: string;
}

export interface FuzzFailure {
  /** The whole payload the hook got (the generated one with the engine's defaults filled in). */
  payload: Record<string, unknown>;
  outcome: Outcome;
  overBudget: boolean;
  error?: string;
  /** A crash: the payload field its line read (fuzz-cause.ts). */
  field?: string;
}

/** How many failing payloads a report lists (the count is always whole). */
export const FAILING_KEPT = 20;

function failureOf(generated: Record<string, unknown>, r: RunResult): FuzzFailure {
  const given = r.inputPayload;
  const payload =
    typeof given === 'object' && given !== null && !Array.isArray(given)
      ? (given as Record<string, unknown>)
      : generated;
  const field = r.outcome === 'crashed' ? crashField(r.error, payload) : undefined;
  return {
    payload,
    outcome: r.outcome,
    overBudget: r.overBudget === true,
    ...(r.error ? { error: `${r.error.type}: ${r.error.message}` } : {}),
    ...(field ? { field } : {}),
  };
}

/** "the crash read text (null)": what the panel and the CLI say beside the error. */
export function fieldNote(f: FuzzFailure): string | undefined {
  if (!f.field) return undefined;
  return `the crash read ${f.field} (${stringifyJson(f.payload[f.field]) ?? 'missing'})`;
}

export const misbehaves = (r: RunResult) => FAILED_OUTCOMES.has(r.outcome) || r.overBudget === true;

function percentile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export async function locateFuzzTarget(
  file: string,
  handler: string,
  safetyStopMs?: number,
): Promise<{ target: HookTarget; agentRoot: string }> {
  const checked = await new ModuleChecker().check(file);
  if (checked.errors.length)
    throw new RunInputError(
      'check',
      `${file} has ${checked.errors.length} error(s) the engine rejects at train/load time; fix them first`,
      checked.errors.map((d) => formatDiagnostic(d)),
    );
  const located = locateHook(checked.module, handler, safetyStopMs);
  if (!located.ok) throw new RunInputError('handler', located.message);
  return { target: located.target, agentRoot: checked.agentRoot };
}

type PlayedHook = Awaited<ReturnType<HookRunner['invoke']>>;

/** Every payload through the hook, in order: the outcomes counted, the durations, the first failures. */
async function playAll(
  payloads: Record<string, unknown>[],
  run: (payload: Record<string, unknown>) => Promise<PlayedHook>,
  opts: FuzzOptions,
) {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const durations: number[] = [];
  let overBudget = 0;
  let failures = 0;
  const failing: NonNullable<FuzzReport['failing']> = [];
  let playedBy: string | undefined;
  for (const [i, p] of payloads.entries()) {
    const r = await run(p);
    playedBy ??= r.playedBy;
    counts[r.outcome]++;
    durations.push(r.durationMs);
    if (r.overBudget) overBudget++;
    if (misbehaves(r)) {
      failures++;
      if (failing.length < FAILING_KEPT) failing.push({ index: i + 1, ...failureOf(p, r) });
    }
    opts.onProgress?.(i + 1, payloads.length);
  }
  return { counts, durations, overBudget, failures, failing, playedBy };
}

export async function fuzzHook(
  runner: HookRunner,
  file: string,
  handler: string,
  opts: FuzzOptions,
): Promise<FuzzReport> {
  const abs = path.resolve(file);
  const { target, agentRoot } = await locateFuzzTarget(abs, handler, runner.safetyStopMs());
  const arb =
    target.engine === 'mantle'
      ? payloadArbitrary(target.point.payloadType)
      : cayuContextArbitrary(target.phase);
  // The module is checked once (locateFuzzTarget); each payload is validated like `run` does.
  const run = async (payload: Record<string, unknown>) => {
    const check =
      target.engine === 'mantle'
        ? validatePayload(target.point.payloadType, payload)
        : validateCayuContext(target.phase, payload);
    if (!check.ok) throw new RunInputError('payload', 'a generated payload is not valid', check.errors);
    return runner.invoke(abs, agentRoot, target, check.payload);
  };
  const t0 = performance.now();
  const payloads = fc.sample(arb, { numRuns: opts.runs, seed: opts.seed });
  // The payloads and the shrinking are one run of the host: ended however they end.
  try {
    const { counts, durations, overBudget, failures, failing, playedBy } = await playAll(payloads, run, opts);
    const elapsed = performance.now() - t0;
    durations.sort((a, b) => a - b);
    const report: FuzzReport = {
      target: `${path.relative(process.cwd(), abs) || abs}::${handler}`,
      point: describeTarget(target),
      runs: payloads.length,
      seed: opts.seed,
      counts,
      overBudget,
      failures,
      p50Ms: percentile(durations, 0.5),
      p99Ms: percentile(durations, 0.99),
      budgetMs: target.timeoutMs,
      perSecond: Math.round((payloads.length / elapsed) * 1000),
    };
    if (playedBy) report.playedBy = playedBy;
    if (failing.length) report.failing = failing;
    if (failures) report.smallest = await shrink(arb, run, opts);
    return report;
  } finally {
    runner.endRuns();
  }
}

/** fast-check finds a failing payload again from the same seed and shrinks it. */
async function shrink(
  arb: fc.Arbitrary<Record<string, unknown>>,
  run: (p: Record<string, unknown>) => Promise<RunResult>,
  opts: FuzzOptions,
): Promise<FuzzReport['smallest']> {
  const found = await fc.check(
    fc.asyncProperty(arb, async (p) => !misbehaves(await run(p))),
    { seed: opts.seed, numRuns: Math.max(opts.runs, 100), interruptAfterTimeLimit: 30_000 },
  );
  const payload = found.counterexample?.[0];
  if (!payload) return undefined;
  return failureOf(payload, await run(payload));
}

export function formatFuzzText(r: FuzzReport): string {
  const c = r.counts;
  const lines = [
    `fuzz ${r.target} (${r.point}): ${r.runs} payloads, seed ${r.seed}, ${r.perSecond} payloads/s`,
    `  returned ${c.returned}, retry-model ${c['retry-model']}, hook-rejection ${c['hook-rejection']}`,
    `  crashed ${c.crashed}, timed-out ${c['timed-out']}, invalid-return ${c['invalid-return']}, ignored-signal ${c['ignored-signal']}, over budget ${r.overBudget}`,
    `  latency p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms (budget ${r.budgetMs} ms)`,
    ...(r.playedBy ? [`  played by ${r.playedBy}`] : []),
  ];
  if (r.smallest) {
    lines.push(
      '',
      `smallest failing payload (shrunk): ${r.smallest.outcome}${r.smallest.overBudget ? ' (over budget)' : ''}${r.smallest.error ? ` — ${r.smallest.error}` : ''}${fieldNote(r.smallest) ? `; ${fieldNote(r.smallest)}` : ''}`,
      stringifyJson(r.smallest.payload, 2),
    );
  } else
    lines.push('', r.failures ? 'failures found, but none reproduced while shrinking' : 'no failure found');
  return lines.join('\n') + '\n';
}

/** The payload case that keeps a fix tested: the shrunk payload, its hook, `expect: {outcome: returned}`. */
export function payloadCaseText(r: FuzzReport, agentRoot: string, file: string, handler: string): string {
  const hook = `${path.relative(agentRoot, path.resolve(file)).split(path.sep).join('/')}::${handler}`;
  return stringifyJson({ hook, expect: { outcome: 'returned' }, ...r.smallest!.payload }, 2) + '\n';
}
