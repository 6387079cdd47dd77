// Wall time of `hooksmith check` on a generated tree of 1,000 hook modules, cold:
// a fresh process each run, process start included (CPython syntax confirmation included):
// once with every file new to CPython, once with its verdicts remembered from the last check.
// Beside the wall time: the CPU time the run used (node and its python3, Linux), and how many
// cores' worth other programs used meanwhile — on a shared machine the wall time means little
// without it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { processCpuMs } from '../runtime/analysis/cpu-load';
import { hookModuleSource } from './generate';
import { line, ms, percentile } from './stats';

// The repository root: bench/ from source, dist/bench/ when bundled.
const ROOT =
  [join(__dirname, '..'), join(__dirname, '..', '..')].find((d) => existsSync(join(d, 'package.json'))) ??
  join(__dirname, '..');
// As users start it (`npx hooksmith`): bin/hooksmith.js runs dist/cli.js from its V8 code cache,
// which the first run of `check` writes. That run is not measured (see benchCheckTree).
const CLI = join(ROOT, 'bin', 'hooksmith.js');
const RUNS = 5;

function makeTree(files: number): string {
  const root = mkdtempSync(join(tmpdir(), 'hooksmith-bench-'));
  // 50 agents × 20 modules; each agent has exactly one module with modify hooks.
  const observers = hookModuleSource(160).replace(/\n\n@modify_[\s\S]*?(?=\n\n@on_)/, '\n');
  for (let i = 0; i < files; i++) {
    const agent = join(root, `agent-${Math.floor(i / 20)}`, 'hooks');
    mkdirSync(agent, { recursive: true });
    // Every file a different text, as in a real tree (CPython's verdicts are remembered by text).
    const text = i % 20 === 0 ? hookModuleSource(160) : observers;
    writeFileSync(
      join(agent, `module_${i % 20}.py`),
      text.replace('Generated benchmark hook module.', `Generated benchmark hook module ${i}.`),
    );
  }
  return root;
}

const busyMs = () => cpus().reduce((n, c) => n + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);

interface Measured {
  wall: number;
  /** CPU of the check and its python3 (ms); NaN where /proc is missing. */
  cpu: number;
  /** Cores' worth of CPU other programs used during the run. */
  others: number;
  note: string;
  mode: string;
  python: string;
}

/** Medians of RUNS cold runs, with what --verbose said on the last one. */
function measure(root: string, extra: string[], env: NodeJS.ProcessEnv = {}): Measured {
  const walls: number[] = [];
  const cpuTimes: number[] = [];
  const others: number[] = [];
  let last = { status: 0 as number | null, stderr: '' };
  for (let i = 0; i < RUNS; i++) {
    const [c0, b0, t0] = [processCpuMs(process.pid), busyMs(), performance.now()];
    const r = spawnSync(process.execPath, [CLI, 'check', root, '--format', 'json', '--verbose', ...extra], {
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      env: { ...process.env, ...env },
    });
    const wall = performance.now() - t0;
    // /proc/self/stat counts waited-for children: the check, and the python3 it waited for.
    const cpu = process.platform === 'linux' ? processCpuMs(process.pid) - c0 : NaN;
    walls.push(wall);
    cpuTimes.push(cpu);
    others.push(Math.max(0, (busyMs() - b0 - (Number.isNaN(cpu) ? 0 : cpu)) / wall));
    last = { status: r.status, stderr: r.stderr };
  }
  const lines = last.stderr.trim().split('\n');
  const said = (re: RegExp) => lines.find((l) => re.test(l))?.replace(/^\[hooksmith\] /, '') ?? '';
  const problem = lines.find(
    (l) => !/^\[hooksmith\] (checking \d+ file|python3 used|CPython )/.test(l) && l.trim(),
  );
  const note = last.status === 0 ? '' : ` [exit ${last.status}${problem ? ': ' + problem : ''}]`;
  return {
    wall: percentile(walls, 50),
    cpu: percentile(cpuTimes, 50),
    others: percentile(others, 50),
    note,
    mode: [
      said(/checking \d+ file/).replace(/^checking \d+ file(\(s\)|s)? /, ''),
      said(/a tree worker parses/) && 'and a tree worker',
      said(/share all cores but one/) && "(python3 and V8's threads confined to the other core(s))",
      said(/now yield to it/) && "(V8's threads yielded to a lagging python3)",
    ]
      .filter(Boolean)
      .join(' '),
    python: [said(/^\[hooksmith\] python3 used/), said(/^\[hooksmith\] CPython /)].filter(Boolean).join('; '),
  };
}

const cpuText = (m: Measured) =>
  Number.isNaN(m.cpu) ? 'CPU not measured' : `CPU ${(m.cpu / 1000).toFixed(2)} s`;

/**
 * How fast each CPU runs a fixed loop right now (ms, Linux with taskset): on a virtual machine one
 * virtual CPU can run 1.7 times slower than the other for minutes, and the whole machine drifts.
 * Printed beside the check's times so that a slow phase shows as one. Empty where not measurable.
 */
function cpuSpeeds(): string {
  if (process.platform !== 'linux') return '';
  const loop = 'let n = 0; for (let i = 0; i < 2e8; i++) n = (n + i) | 0; if (n === 1) console.log(n)';
  const times: string[] = [];
  for (let cpu = 0; cpu < Math.min(cpus().length, 8); cpu++) {
    const t0 = performance.now();
    const r = spawnSync('taskset', ['-c', String(cpu), process.execPath, '-e', loop], { stdio: 'ignore' });
    if (r.status !== 0) return '';
    times.push(`${Math.round(performance.now() - t0)}`);
  }
  return `a fixed loop on each CPU: ${times.join(' / ')} ms (equal numbers on an even machine)`;
}

export async function benchCheckTree(): Promise<string[]> {
  const root = makeTree(1000);
  const verdicts = mkdtempSync(join(tmpdir(), 'hooksmith-bench-verdicts-'));
  try {
    // The first use after a build writes the code cache: not what a user waits for every day.
    spawnSync(process.execPath, [CLI, 'check', root, '--format', 'json'], {
      stdio: 'ignore',
      env: { ...process.env, HOOKSMITH_NO_CACHE: '1' },
    });
    const speeds = cpuSpeeds();
    // Every file new to CPython: nothing remembered, nothing written.
    const auto = measure(root, [], { HOOKSMITH_NO_CACHE: '1' });
    // Files unchanged since the last check (pre-commit, a re-run): CPython's verdicts remembered.
    spawnSync(process.execPath, [CLI, 'check', root, '--format', 'json'], {
      stdio: 'ignore',
      env: { ...process.env, HOOKSMITH_CACHE_DIR: verdicts },
    });
    const remembered = measure(root, [], { HOOKSMITH_CACHE_DIR: verdicts });
    // Without CPython a tree worker takes the second core (files.ts treeWorkerPays).
    const noCpython = measure(root, ['--no-cpython']);
    // The same with one check worker forced (the default starts one only on a core nothing else uses).
    const worker = measure(root, ['--jobs', '1'], { HOOKSMITH_NO_CACHE: '1' });
    return [
      ...(speeds ? [`machine: ${speeds}`] : []),
      line(
        `check, 1,000 modules, cold process, all new to CPython, median of ${RUNS}`,
        ms(auto.wall) + auto.note,
        '≤ 1.5 s',
      ),
      `  (${cpuText(auto)}; other programs used ${auto.others.toFixed(1)} cores meanwhile; ${auto.mode})`,
      `  (${auto.python})`,
      line(
        '  same, files unchanged since the last check (verdicts remembered)',
        ms(remembered.wall) + remembered.note,
        '≤ 1.5 s',
      ),
      `  (${cpuText(remembered)}; other programs used ${remembered.others.toFixed(1)} cores meanwhile; ${remembered.mode})`,
      line('  same, --no-cpython', ms(noCpython.wall) + noCpython.note),
      `  (${cpuText(noCpython)}; other programs used ${noCpython.others.toFixed(1)} cores meanwhile; ${noCpython.mode})`,
      line('  same, --jobs 1 (main thread + 1 check worker)', ms(worker.wall) + worker.note),
      `  (${cpuText(worker)}; other programs used ${worker.others.toFixed(1)} cores meanwhile)`,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(verdicts, { recursive: true, force: true });
  }
}
