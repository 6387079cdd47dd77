// The anchor row: ruff's WebAssembly build (@astral-sh/ruff-wasm-nodejs, pinned in package.json)
// checking the same text with its default rules, so each run prints how our parse + rules compare
// with a linter people know, on the machine's speed of the moment.
// Measured in a child node with `--no-liftoff`: ruff's 10 MB of WebAssembly compiled by the
// optimising tier from the start, as a long-running ruff is once V8 has tiered it up. In this
// process the first checks run on the baseline tier (170 ms at 10,000 lines against 21 ms tiered
// up), and how many of them a median caught depended on when V8's background compiles got a core:
// on the loaded machine the anchor came out 2-8× slower than ruff is, flattering every ratio.
// Not bundled (scripts/build.mjs keeps it external): it reads its .wasm beside its own file.
import { spawnSync } from 'node:child_process';

/** Run in the child: checks each text `runs` times after `warmup`; prints medians (ms) as JSON. */
const CHILD = `
const r = require(process.argv[1]);
const texts = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const [runs, warmup] = [Number(process.argv[2]), Number(process.argv[3])];
const ws = new r.Workspace(r.Workspace.defaultSettings(), r.PositionEncoding.Utf16);
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const out = texts.map((text) => {
  const walls = [], cpus = [];
  for (let i = 0; i < runs + warmup; i++) {
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    ws.check(text);
    const c = process.cpuUsage(c0);
    if (i < warmup) continue;
    walls.push(performance.now() - t0);
    cpus.push((c.user + c.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus) };
});
process.stdout.write(JSON.stringify({ version: r.Workspace.version(), out }));
`;

export interface RuffTimes {
  version: string;
  /** Median wall and CPU time (ms) of a full check, per text. */
  times: { wall: number; cpu: number }[];
}

/** ruff's full check of each text, timed in one child process (see above). */
export function ruffChecks(texts: readonly string[], runs: number, warmup = 3): RuffTimes {
  const args = ['--no-liftoff', '-e', CHILD, require.resolve('@astral-sh/ruff-wasm-nodejs'), String(runs)];
  const r = spawnSync(process.execPath, [...args, String(warmup)], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`ruff's timing child failed: ${r.stderr || r.error?.message}`);
  const { version, out } = JSON.parse(r.stdout) as { version: string; out: RuffTimes['times'] };
  return { version, times: out };
}
