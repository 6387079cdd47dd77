// Wall time of `hooksmith check` on a generated tree of 1,000 hook modules, cold:
// a fresh process each run, process start included (CPython syntax confirmation included).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hookModuleSource } from './generate';
import { line, ms, percentile } from './stats';

// The repository root: bench/ from source, dist/bench/ when bundled.
const ROOT = [join(__dirname, '..'), join(__dirname, '..', '..')].find((d) => existsSync(join(d, 'package.json'))) ?? join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function makeTree(files: number): string {
  const root = mkdtempSync(join(tmpdir(), 'hooksmith-bench-'));
  // 50 agents × 20 modules; each agent has exactly one module with modify hooks.
  const observers = hookModuleSource(160).replace(/\n\n@modify_[\s\S]*?(?=\n\n@on_)/, '\n');
  for (let i = 0; i < files; i++) {
    const agent = join(root, `agent-${Math.floor(i / 20)}`, 'hooks');
    mkdirSync(agent, { recursive: true });
    writeFileSync(join(agent, `module_${i % 20}.py`), i % 20 === 0 ? hookModuleSource(160) : observers);
  }
  return root;
}

/** Median wall time of 3 cold runs, with what --verbose said about threads on the last one. */
function measure(root: string, extra: string[]): { median: number; note: string; mode: string } {
  const runs: number[] = [];
  let last = { status: 0 as number | null, stderr: '' };
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'check', root, '--format', 'json', '--verbose', ...extra], { encoding: 'utf8', maxBuffer: 256 << 20 });
    runs.push(performance.now() - t0);
    last = { status: r.status, stderr: r.stderr };
  }
  const lines = last.stderr.trim().split('\n');
  const mode = lines.find((l) => /checking \d+ file/.test(l))?.replace(/^\[hooksmith\] checking \d+ file(\(s\)|s)? /, '') ?? '';
  const problem = lines.find((l) => !/checking \d+ file/.test(l) && l.trim());
  const note = last.status === 0 ? '' : ` [exit ${last.status}${problem ? ': ' + problem : ''}]`;
  return { median: percentile(runs, 50), note, mode };
}

export async function benchCheckTree(): Promise<string[]> {
  const root = makeTree(1000);
  try {
    const auto = measure(root, []);
    // The same with one check worker forced (the default starts one only when a core is idle).
    const worker = measure(root, ['--jobs', '1']);
    return [
      `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
      line('check, 1,000 modules, cold process, median of 3', ms(auto.median) + auto.note, '≤ 1.5 s'),
      `  (default mode: ${auto.mode})`,
      line('  same, --jobs 1 (main thread + 1 worker)', ms(worker.median) + worker.note),
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
