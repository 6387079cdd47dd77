// The anchor row: ruff's WebAssembly build (@astral-sh/ruff-wasm-nodejs, pinned in package.json)
// checking the same text in this process with its default rules, so each run prints how our
// parse + rules compare with a linter people know, on the machine's speed of the moment.
// Not bundled (scripts/build.mjs keeps it external): it reads its .wasm beside its own file.
import { performance } from 'node:perf_hooks';
import type * as Ruff from '@astral-sh/ruff-wasm-nodejs';
import { percentile } from './stats';

let workspace: Ruff.Workspace | undefined;

function ruff(): Ruff.Workspace {
  if (workspace) return workspace;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const r = require('@astral-sh/ruff-wasm-nodejs') as typeof Ruff;
  return (workspace = new r.Workspace(r.Workspace.defaultSettings(), r.PositionEncoding.Utf16));
}

/** ruff's version, for the row's label. */
export function ruffVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('@astral-sh/ruff-wasm-nodejs') as typeof Ruff).Workspace.version();
}

/** Median wall and CPU time (ms) of a full ruff check of `text`. */
export function ruffCheck(text: string, runs: number, warmup = 3): { wall: number; cpu: number } {
  const ws = ruff();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs + warmup; i++) {
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    ws.check(text);
    const c = process.cpuUsage(c0);
    if (i < warmup) continue;
    walls.push(performance.now() - t0);
    cpus.push((c.user + c.system) / 1000);
  }
  return { wall: percentile(walls, 50), cpu: percentile(cpus, 50) };
}
