// The main thread's side of a parallel check: starts check workers early (they boot their own
// tree-sitter while the main thread discovers and reads), hands them every agent through a shared
// claim counter, forwards CPython's verdicts and collects per-agent results. Workers that cannot
// start or that fail leave their agents without a result; the caller checks those itself.
import type { Worker } from 'node:worker_threads';
import type { AgentJob, AgentResult, Verdicts } from './agent-check';
import type { FromWorker, ToWorker } from './check-protocol';
import type { AnalysisOptions } from './options';
import { findWorkerScript, startWorker } from './worker-script';

/** dist/check-worker.js beside the bundle, or check-worker.ts from source (see findWorkerScript). */
export function workerScript(dir = __dirname): string | undefined {
  return findWorkerScript('check-worker', dir);
}

export class CheckPool {
  private readonly workers: Worker[] = [];
  private readonly finished: Promise<void>[] = [];
  readonly results = new Map<number, AgentResult>();

  constructor(
    script: string,
    count: number,
    private readonly log: (m: string) => void,
  ) {
    for (let i = 0; i < count; i++) {
      const worker = startWorker(script);
      this.workers.push(worker);
      this.finished.push(
        new Promise<void>((resolve) => {
          let settled = false;
          const fail = (why: string) => {
            if (settled) return;
            settled = true;
            log(`[hooksmith] check worker failed (its agents are checked on the main thread): ${why}`);
            resolve();
          };
          worker.on('message', (m: FromWorker) => {
            if (m.type === 'log') {
              log(m.message);
            } else if (m.type === 'result') {
              this.results.set(m.index, m.result);
            } else if (m.type === 'done') {
              settled = true;
              resolve();
            } else {
              fail(m.message);
            }
          });
          worker.on('error', (err) => fail(err.message));
          worker.on('exit', (code) => fail(`exited with code ${code}`)); // no-op once settled
        }),
      );
    }
  }

  /** Hands over every agent; threads claim them through `counter`. */
  start(jobs: AgentJob[], counter: SharedArrayBuffer, options: AnalysisOptions | undefined): void {
    const { logger: _logger, ...plain } = options ?? {};
    this.post({ type: 'jobs', jobs, counter, options: plain });
  }

  /** Sends CPython's verdicts for agent `index`; the worker that parsed it then runs its rules. */
  verdicts(index: number, verdicts: Verdicts): void {
    this.post({ type: 'verdicts', index, verdicts });
  }

  /** Waits until every worker has answered or failed, then stops them. */
  async close(): Promise<void> {
    await Promise.all(this.finished);
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  /** Stops every worker at once (after close(), or when the check failed). */
  terminate(): void {
    for (const w of this.workers) void w.terminate();
  }

  private post(m: ToWorker): void {
    for (const w of this.workers) {
      try {
        w.postMessage(m);
      } catch {
        // A worker that already died: its 'error'/'exit' handler has resolved it.
      }
    }
  }
}
