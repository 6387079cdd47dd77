// Finding and starting the check's worker threads (check-worker.ts, tree-worker.ts), bundled or
// from source.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A worker script: `<name>.js` beside the bundle (dist/), or `<name>.ts` beside this file when
 * running from source. undefined when neither exists (e.g. a test bundle of the CLI alone).
 */
export function findWorkerScript(name: string, dir = __dirname): string | undefined {
  for (const file of [join(dir, `${name}.js`), join(dir, `${name}.ts`)]) if (existsSync(file)) return file;
  return undefined;
}

/** Starts a worker; from source (tests, tsx) it registers tsx's loader first, which workers do not inherit. */
export function startWorker(script: string): Worker {
  if (!script.endsWith('.ts')) return new Worker(script);
  return new Worker(
    `require(require.resolve('tsx/cjs', { paths: [${JSON.stringify(script)}] })); require(${JSON.stringify(script)});`,
    { eval: true },
  );
}
