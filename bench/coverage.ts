// Benchmark: `hooksmith test examples/clean-agent` with and without `--coverage` (line and branch
// coverage by coverage.py plus hook coverage), the built CLI in the interpreter that has
// coverage.py; runs interleaved so the machine's load weighs on both alike. Target: ≤ 2×.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pythonWith } from '../test/python-envs';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The first interpreter that imports coverage.py, or undefined. */
function coveragePython(): string | undefined {
  if (process.env.HOOKSMITH_BENCH_PYTHON) return process.env.HOOKSMITH_BENCH_PYTHON;
  return pythonWith(['coverage'], { envs: ['tools'] }).python;
}

export async function benchCoverage(repo: string, runs = 5): Promise<string[]> {
  const python = coveragePython();
  if (!python) return ['skipped: no interpreter here imports coverage.py (npm run test:env makes one)'];
  const cli = join(repo, 'dist', 'cli.js');
  const agent = join(repo, 'examples', 'clean-agent');
  const time = (extra: string[]) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, 'test', agent, '--python', python, ...extra], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`hooksmith test ${extra.join(' ')} exited ${r.status}: ${r.stderr}`);
    return performance.now() - t0;
  };
  time([]); // warm the file cache and the interpreter's bytecode
  const plain: number[] = [];
  const covered: number[] = [];
  for (let i = 0; i < runs; i++) {
    plain.push(time([]));
    covered.push(
      time([
        '--coverage',
        '--coverage-report',
        'lcov',
        '--coverage-output',
        join(tmpdir(), 'hooksmith-bench-lcov.info'),
      ]),
    );
  }
  const [p, c] = [median(plain), median(covered)];
  return [
    `hooksmith test examples/clean-agent (${python}), median of ${runs} interleaved: without coverage ${Math.round(p)} ms, with --coverage (hook + line + branch, LCOV written) ${Math.round(c)} ms = ${(c / p).toFixed(2)}× (target ≤ 2×)`,
  ];
}
