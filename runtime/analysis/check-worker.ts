// A check worker (worker_threads): boots its own tree-sitter, then claims agents from the shared
// queue one at a time (an Atomics counter the main thread claims from too), parses them, waits
// for CPython's verdicts, runs the rules and posts each agent's diagnostics back.
// Protocol: runtime/analysis/check-pool.ts.
import { parentPort } from 'node:worker_threads';
import { defaultBackend } from './default-backend';
import { checkAgent, parseAgent, type ParsedFile } from './agent-check';
import { claimNext, type FromWorker, type ToWorker, type WorkerJobs } from './check-protocol';

const port = parentPort;
if (port) {
  const post = (m: FromWorker) => port.postMessage(m);
  const log = (message: string) => post({ type: 'log', message });
  // Start loading the WASM at once: the main thread is still discovering and reading files.
  const ready = defaultBackend.init();
  let jobs: WorkerJobs | undefined;
  let parsed: Promise<Map<number, ParsedFile[]>> | undefined;

  const parseClaimed = async (w: WorkerJobs): Promise<Map<number, ParsedFile[]>> => {
    await ready;
    const mine = new Map<number, ParsedFile[]>();
    const counter = new Int32Array(w.counter);
    for (let i = claimNext(counter); i < w.jobs.length; i = claimNext(counter)) mine.set(i, parseAgent(w.jobs[i]!, defaultBackend, log));
    return mine;
  };

  port.on('message', (m: ToWorker) => {
    if (m.type === 'jobs') {
      jobs = m;
      parsed = parseClaimed(m);
      // A failed init is reported as the worker's error: the main thread checks what it claimed.
      parsed.catch((err: unknown) => post({ type: 'failed', message: err instanceof Error ? err.message : String(err) }));
    } else if (m.type === 'verdicts' && jobs && parsed) {
      const w = jobs;
      void parsed.then((mine) => {
        for (const [index, files] of mine) {
          post({ type: 'result', index, result: checkAgent(w.jobs[index]!, files, m.verdicts, { ...w.options, logger: log }) });
        }
        post({ type: 'done' });
      }, () => undefined);
    }
  });
}
