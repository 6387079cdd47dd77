// A check worker (worker_threads): boots its own tree-sitter, then claims agents from the shared
// queue one at a time (an Atomics counter the main thread claims from too), parses them and runs
// their rules; syntax-error follows once CPython's verdicts for an agent's files have arrived
// (the main thread forwards them agent by agent), and its diagnostics are posted back.
// Protocol: runtime/analysis/check-protocol.ts.
import { parentPort } from 'node:worker_threads';
import { buildEachPathOnce } from '../python/function-cache';
import { defaultBackend } from './default-backend';
import { finishAgent, parseAgent, ruleAgent, type RuledAgent, type Verdicts } from './agent-check';
import { claimNext, turn, type FromWorker, type ToWorker, type WorkerJobs } from './check-protocol';

const port = parentPort;
if (port) {
  buildEachPathOnce(); // a check builds each file once: no def cache (see function-cache.ts)
  const post = (m: FromWorker) => port.postMessage(m);
  const log = (message: string) => post({ type: 'log', message });
  // Start loading the WASM at once: the main thread is still discovering and reading files.
  const ready = defaultBackend.init();
  ready.catch(() => undefined);
  let jobs: WorkerJobs | undefined;
  const verdicts = new Map<number, Verdicts>();
  /** Agents parsed and ruled, still waiting for their verdicts (syntax-error alone needs them). */
  const waiting = new Map<number, RuledAgent>();
  let parsing = true;
  let done = false;

  const checkReady = (w: WorkerJobs) => {
    for (const [index, agent] of waiting) {
      const v = verdicts.get(index);
      if (!v) continue;
      waiting.delete(index);
      post({ type: 'result', index, result: finishAgent(agent, v, { ...w.options, logger: log }) });
    }
    if (!parsing && waiting.size === 0 && !done) {
      done = true;
      post({ type: 'done' });
    }
  };

  const work = async (w: WorkerJobs): Promise<void> => {
    await ready;
    const counter = new Int32Array(w.counter);
    for (let i = claimNext(counter); i < w.jobs.length; i = claimNext(counter)) {
      waiting.set(
        i,
        ruleAgent(w.jobs[i]!, parseAgent(w.jobs[i]!, defaultBackend, log), { ...w.options, logger: log }),
      );
      await turn(); // receive verdicts
      checkReady(w);
    }
    parsing = false;
    checkReady(w);
  };

  port.on('message', (m: ToWorker) => {
    if (m.type === 'jobs') {
      jobs = m;
      // A failed init is reported as the worker's error: the main thread checks what it claimed.
      work(m).catch((err: unknown) =>
        post({ type: 'failed', message: err instanceof Error ? err.message : String(err) }),
      );
    } else if (m.type === 'verdicts') {
      verdicts.set(m.index, m.verdicts);
      if (jobs && !parsing) checkReady(jobs);
    }
  });
}
