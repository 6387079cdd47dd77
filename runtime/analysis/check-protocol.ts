// Messages between the main thread (check-pool.ts) and check workers (check-worker.ts).
// All plain data: they cross threads by structured clone.
import type { AgentJob, AgentResult, Verdicts } from './agent-check';
import type { AnalysisOptions } from './options';

export interface WorkerJobs {
  type: 'jobs';
  jobs: AgentJob[];
  /** One Int32: the index of the next unclaimed agent, shared by every thread. */
  counter: SharedArrayBuffer;
  /** Rules on/off and severities (the logger stays on the main thread). */
  options: Omit<AnalysisOptions, 'logger'>;
}

/** CPython's verdicts for one agent's files, sent as soon as all of them are in. */
export interface AgentVerdicts {
  type: 'verdicts';
  index: number;
  verdicts: Verdicts;
}

export type ToWorker = WorkerJobs | AgentVerdicts;

export type FromWorker =
  | { type: 'log'; message: string }
  | { type: 'result'; index: number; result: AgentResult }
  /** Every agent the worker claimed has a result. */
  | { type: 'done' }
  /** The worker could not parse (e.g. its WASM failed to load): its claimed agents lack results. */
  | { type: 'failed'; message: string };

/** Claims the next agent index (thread-safe); >= jobs.length means the queue is empty. */
export function claimNext(counter: Int32Array): number {
  return Atomics.add(counter, 0, 1);
}

/** Lets the event loop run (messages, CPython's pipe) between two pieces of synchronous work. */
export function turn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
