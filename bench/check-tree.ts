// `hooksmith check --no-cache` against the floor CPython itself sets, in CPU time (user + sys,
// node and its python3), so that a busy shared machine changes the numbers little:
//  - the bench's 1,000-file tree against `python3 -m compileall -q -f` on the same tree (a
//    syntax-only pass: the least any check that confirms syntax with CPython can cost);
//  - the bundled example agent against one `python3 -c pass` (an interpreter's start).
// The four commands run interleaved, round after round; medians of RUNS rounds. Wall times are
// printed beside for reference.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hookModuleSource } from './generate';
import { line, ms, percentile } from './stats';

// The repository root: bench/ from source, dist/bench/ when bundled.
const ROOT =
  [join(__dirname, '..'), join(__dirname, '..', '..')].find((d) => existsSync(join(d, 'package.json'))) ??
  join(__dirname, '..');
/** As users start it (`npx hooksmith`). */
const CLI = join(ROOT, 'bin', 'hooksmith.js');
const EXAMPLE = join(ROOT, 'examples', 'clean-agent');
const RUNS = 7;

/** The bench's tree: 50 agents × 20 modules of 160 lines, each agent with one module of modify hooks. */
export function makeTree(files: number): string {
  const root = mkdtempSync(join(tmpdir(), 'hooksmith-bench-'));
  const observers = hookModuleSource(160).replace(/\n\n@modify_[\s\S]*?(?=\n\n@on_)/, '\n');
  for (let i = 0; i < files; i++) {
    const agent = join(root, `agent-${Math.floor(i / 20)}`, 'hooks');
    mkdirSync(agent, { recursive: true });
    // Every file a different text, as in a real tree.
    const text = i % 20 === 0 ? hookModuleSource(160) : observers;
    writeFileSync(
      join(agent, `module_${i % 20}.py`),
      text.replace('Generated benchmark hook module.', `Generated benchmark hook module ${i}.`),
    );
  }
  return root;
}

interface Sample {
  /** CPU seconds of the command and its waited-for children. */
  cpu: number;
  wall: number;
}

/** One run of a command under child_cpu.py (microsecond CPU accounting of the whole tree). */
function run(command: string[], expect: number[] = [0]): Sample {
  const t0 = performance.now();
  const r = spawnSync('python3', [join(ROOT, 'bench', 'child_cpu.py'), ...command], { encoding: 'utf8' });
  const wall = performance.now() - t0;
  const [code, cpu] = r.stdout.trim().split(' ').map(Number);
  if (r.status !== 0 || !expect.includes(code as number))
    throw new Error(`${command.join(' ')}: exit ${code ?? r.status} ${r.stderr.trim()}`);
  return { cpu: (cpu as number) * 1000, wall };
}

const median = (xs: Sample[], k: keyof Sample) =>
  percentile(
    xs.map((x) => x[k]),
    50,
  );

export async function benchCheckTree(): Promise<string[]> {
  if (spawnSync('python3', ['-c', 'pass']).status !== 0) return ['skipped: no python3'];
  const tree = makeTree(1000);
  const env = { ...process.env };
  delete env.HOOKSMITH_NO_CACHE;
  try {
    const runs: Record<'check' | 'compileall' | 'example' | 'pass', Sample[]> = {
      check: [],
      compileall: [],
      example: [],
      pass: [],
    };
    for (let i = 0; i <= RUNS; i++) {
      const round = {
        check: run([process.execPath, CLI, 'check', tree, '--no-cache', '--format', 'json']),
        compileall: run(['python3', '-m', 'compileall', '-q', '-f', tree]),
        example: run([process.execPath, CLI, 'check', EXAMPLE, '--no-cache', '--format', 'json']),
        pass: run(['python3', '-c', 'pass']),
      };
      if (i === 0) continue; // the first round warms the disk cache and Node's compile cache
      for (const k of Object.keys(round) as (keyof typeof round)[]) runs[k].push(round[k]);
    }
    const treeRatio = median(runs.check, 'cpu') / median(runs.compileall, 'cpu');
    const exampleRatio = median(runs.example, 'cpu') / median(runs.pass, 'cpu');
    const each = (k: keyof typeof runs) =>
      `CPU ${ms(median(runs[k], 'cpu'))}, wall ${ms(median(runs[k], 'wall'))}`;
    return [
      `medians of ${RUNS} interleaved rounds; CPU = user + sys of the process and its python3`,
      line('check --no-cache, 1,000 modules (160 lines each)', each('check')),
      line('python3 -m compileall -q -f, same tree', each('compileall')),
      line('  ratio of CPU times', treeRatio.toFixed(2), '≤ 4.0'),
      line('check --no-cache, examples/clean-agent', each('example')),
      line('python3 -c pass', each('pass')),
      line('  ratio of CPU times', exampleRatio.toFixed(2), '≤ 6'),
    ];
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
