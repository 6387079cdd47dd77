// Runs test cases on `jobs` warm Python hosts (-j), each taking the next case of one queue: every
// case is an app of its own in whichever host plays it (the host purges what the previous app of
// any agent imported), so results, reports and snapshots do not depend on which host ran a case.
// A case that cannot run (agent check errors, import failure, bad payload) is an error.
import * as path from 'node:path';
import { RunInputError } from '../engine/run-hook';
import { PythonHostError } from '../host/host-spawn';
import { createHookRunner, listedWiring, type HookRunner } from '../engine/runner';
import { ScenarioError } from '../engine/scenario-load';
import { verdictOf, type CaseResult, type TestCase } from './cases';
import { hookOutsideAgent } from './discover-cases';
import { evaluatePayloadCase } from './evaluate-payload';
import { evaluateScenario } from './evaluate-scenario';
import type { PayloadCaseExpect } from '../engine/expect-schema';
import type { HookRunnerOptions } from '../engine/api';
import { sourceLines, type SourceLines } from './source-lines';
import { loadScenario } from '../engine/scenario-load';
import { mantleKeyPath, TRANSCRIPT_ONLY } from '../engine/mantle-scenario';
import { caseSource, cayuEvalResults, notCheckedResults } from './cayu-eval-cases';
import { CassetteError, type ModelRunOptions } from '../engine/model-step';
import { coverageCaseId, type LineCoverage } from './coverage/line-coverage';
import { parseJson } from '../json/lossless-json';
import { defaultJobs, runPool } from './pool';
import { saveCassette } from './save-cassette';

/** --cayu-engine, --cayu-safety-stop, --mantle-engine: as HookRunnerOptions takes them. */
export type EngineChoices = Pick<HookRunnerOptions, 'cayuEngine' | 'cayuSafetyStopS' | 'mantleEngine'>;

export interface RunCasesOptions extends EngineChoices {
  python?: string;
  /** --memory-limit: the Python host's memory limit in MiB (0: none); default the host's. */
  memoryLimitMb?: number;
  /** --wired-points: the Mantle points the engine invokes, overriding the installed rasa-pro. */
  wiredPoints?: readonly string[];
  /**
   * A runner for an agent (each agent's cases one after another on it; `jobs` is not used).
   * Default: `jobs` runners of this call's own, disposed when the queue is done.
   */
  runnerFor?: (agentRoot: string) => HookRunner;
  /** How many hosts play cases at once (-j); default: the cores. */
  jobs?: number;
  /** Called as each case finishes (progress, the Testing view). */
  onResult?: (r: CaseResult) => void;
  log?: (line: string) => void;
  /** How real models are played (--record, --model). */
  models?: ModelRunOptions;
  /** Measure line and branch coverage into this (the runners this creates start coverage.py). */
  coverage?: LineCoverage;
}

function failure(err: unknown): { message: string; details: string[] } | undefined {
  if (err instanceof RunInputError || err instanceof ScenarioError)
    return { message: err.message, details: err.details };
  if (err instanceof PythonHostError || err instanceof CassetteError)
    return { message: err.message, details: [] };
  return undefined;
}

/** What a case's verdict is made of; runCase adds the case and its duration. */
type CaseOutcome = Omit<CaseResult, 'case' | 'durationMs'>;

/** Plays a scenario case and judges its expectations (kept apart from runCase to keep it short). */
async function playScenarioCase(runner: HookRunner, c: TestCase, lines: SourceLines): Promise<CaseOutcome> {
  // As read when the case was found: its expectations and the turn it plays are one reading.
  const loaded = c.scenario
    ? { scenario: c.scenario, source: caseSource(c), agentRoot: c.agentRoot }
    : loadScenario(c.file);
  const simulation = await runner.simulateLoaded(loaded);
  saveCassette(simulation); // the test run owns the case's run: its recording is written here
  // Hooksmith itself (or the installed runtime's driver) failed mid-turn, or the runtime did not
  // finish: the scenario did not play through, so its expectations prove nothing (simulate exits 2
  // on the same result).
  const unfinished = simulation.internalError ?? simulation.engineUnfinished;
  if (unfinished !== undefined)
    return {
      status: 'error',
      expectations: [],
      error: { message: simulation.ending ?? unfinished, details: [unfinished] },
      simulation,
    };
  const expectations = evaluateScenario(loaded.scenario, simulation, lines);
  const failure = simulation.models?.failure;
  // A model request the cassette cannot answer fails the case, naming the field that drifted.
  if (failure) {
    const at = ['model'];
    expectations.unshift({
      name: 'cassette',
      passed: false,
      expected: 'every model request recorded in the cassette',
      actual: failure,
      path: at,
      line: lines.lineOf(at),
    });
  }
  if (c.mantle && !loaded.scenario.goals && !expectations.length) {
    const at = ['goals'];
    const transcript = { name: 'transcript', passed: false, skipped: TRANSCRIPT_ONLY, path: at };
    expectations.push({ ...transcript, expected: 'goals', actual: '(none)', line: 0 });
  }
  if (c.cayuEval) {
    const judged = cayuEvalResults(c, expectations);
    return { status: verdictOf(judged), expectations: judged, simulation };
  }
  if (c.mantle)
    for (const e of expectations) {
      e.path = mantleKeyPath(e.path);
      e.line = lines.lineOf(e.path);
    }
  return { status: verdictOf(expectations), expectations, simulation };
}

export async function runCase(runner: HookRunner, c: TestCase): Promise<CaseResult> {
  const t0 = performance.now();
  const done = (r: CaseOutcome): CaseResult => ({
    case: c,
    durationMs: Math.round((performance.now() - t0) * 10) / 10,
    ...r,
  });
  const lines = c.lines ?? sourceLines(c.text);
  try {
    if (c.kind === 'scenario' && c.engineOnly && (!runner.modelGiven || (c.cayuEval && !c.scenario))) {
      const path = c.cayuEval ? ['cases', c.cayuEval.index] : ['scenario'];
      const skipped = {
        name: 'scenario',
        passed: false,
        skipped: c.engineOnly,
        path,
        line: lines.lineOf(path),
      };
      const unchecked = c.cayuEval ? notCheckedResults(c) : [];
      return done({
        status: 'skipped',
        expectations: [{ ...skipped, expected: 'a conversation', actual: '(not played)' }, ...unchecked],
      });
    }
    if (c.kind === 'scenario') return done(await playScenarioCase(runner, c, lines));
    const outside = hookOutsideAgent(c.agentRoot, c.hook!);
    if (outside) return done({ status: 'error', expectations: [], error: { message: outside, details: [] } });
    const sep = c.hook!.lastIndexOf('::');
    const run = await runner.run({
      file: path.resolve(c.agentRoot, c.hook!.slice(0, sep)),
      handler: c.hook!.slice(sep + 2),
      payload: c.payload,
    });
    const expect = (parseJson(c.text) as { expect: PayloadCaseExpect }).expect;
    const expectations = evaluatePayloadCase(expect, run, lines);
    return done({ status: verdictOf(expectations), expectations, run });
  } catch (err) {
    const f = failure(err);
    if (!f) throw err;
    return done({ status: 'error', expectations: [], error: f });
  }
}

export async function runCases(
  cases: readonly TestCase[],
  opts: RunCasesOptions = {},
): Promise<CaseResult[]> {
  if (opts.runnerFor) return runPerAgent(cases, opts.runnerFor, opts.onResult);
  const ownRunner = () => {
    const measured = opts.coverage?.agent();
    const runner = createHookRunner({
      python: opts.python,
      memoryLimitMb: opts.memoryLimitMb,
      ...(opts.cayuEngine ? { cayuEngine: opts.cayuEngine } : {}),
      ...(opts.cayuSafetyStopS ? { cayuSafetyStopS: opts.cayuSafetyStopS } : {}),
      ...(opts.mantleEngine ? { mantleEngine: opts.mantleEngine } : {}),
      log: opts.log,
      ...listedWiring(opts.wiredPoints),
      ...(opts.models ? { models: opts.models } : {}),
      ...(measured ? { coverage: measured.sink } : {}),
    });
    return { runner, measured };
  };
  const results = await runPool(
    cases,
    opts.jobs ?? defaultJobs(),
    ownRunner,
    async ({ runner, measured }, c) => {
      measured?.begin(coverageCaseId(c));
      const r = await runCase(runner, c);
      opts.onResult?.(r);
      return r;
    },
    ({ runner }) => runner.dispose(),
  );
  // Per-case coverage in the order of the cases, not of their finishing (the reports list them).
  opts.coverage?.orderCases(cases.map(coverageCaseId));
  return results;
}

/** The runners given per agent: each agent's cases one after another, agents side by side. */
async function runPerAgent(
  cases: readonly TestCase[],
  runnerFor: (agentRoot: string) => HookRunner,
  onResult?: (r: CaseResult) => void,
): Promise<CaseResult[]> {
  const byAgent = new Map<string, TestCase[]>();
  for (const c of cases) {
    const list = byAgent.get(c.agentRoot) ?? [];
    list.push(c);
    byAgent.set(c.agentRoot, list);
  }
  const results = new Map<TestCase, CaseResult>();
  await Promise.all(
    [...byAgent].map(async ([root, list]) => {
      const runner = runnerFor(root);
      for (const c of list) {
        const r = await runCase(runner, c);
        results.set(c, r);
        onResult?.(r);
      }
    }),
  );
  return cases.map((c) => results.get(c)!);
}
