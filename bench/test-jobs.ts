// `hooksmith test -j` (#42 item 1): 8 agents × 9 scenario cases (copies of examples/clean-agent,
// its three scenarios three times each), run cold as the CLI runs them (each run starts its own
// hosts) with -j 1 and -j 2, alternated, best of three each. Target: -j 2 ≤ 0.65× -j 1 on 2 cores.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverCases } from '../runtime/testing/discover-cases';
import { runCases } from '../runtime/testing/run-cases';
import { defaultJobs } from '../runtime/testing/pool';

const r1 = (n: number) => Math.round(n * 10) / 10;

/** CPU ms of the hosts this process started and reaped (/proc's cutime + cstime, 10 ms ticks). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // fields 16 and 17 of proc(5)
  } catch {
    return NaN;
  }
}

function makeAgents(repoRoot: string, dir: string): string[] {
  const roots: string[] = [];
  for (let a = 0; a < 8; a++) {
    const root = join(dir, `agent-${a}`);
    cpSync(join(repoRoot, 'examples/clean-agent'), root, { recursive: true });
    rmSync(join(root, '.hooksmith'), { recursive: true, force: true }); // scenarios only: 9 per agent
    for (const f of readdirSync(root).filter((n) => /\.scenario\.(yaml|json)$/.test(n)))
      for (let i = 2; i <= 3; i++)
        writeFileSync(join(root, f.replace('.scenario', `-${i}.scenario`)), readFileSync(join(root, f)));
    roots.push(root);
  }
  return roots;
}

export async function benchTestJobs(repoRoot: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-bench-jobs-'));
  try {
    const { cases } = discoverCases(makeAgents(repoRoot, dir));
    await runCases(cases, { jobs: 2 }); // warm the disk and the interpreter's caches
    const wall = { 1: Infinity, 2: Infinity };
    const nodeCpu = { 1: Infinity, 2: Infinity };
    const hostCpu = { 1: Infinity, 2: Infinity };
    let failed = 0;
    for (let round = 0; round < 3; round++)
      for (const jobs of [1, 2] as const) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const h0 = childrenCpuMs();
        const results = await runCases(cases, { jobs });
        const cpu = process.cpuUsage(c0);
        wall[jobs] = Math.min(wall[jobs], performance.now() - t0);
        nodeCpu[jobs] = Math.min(nodeCpu[jobs], (cpu.user + cpu.system) / 1000);
        hostCpu[jobs] = Math.min(hostCpu[jobs], childrenCpuMs() - h0);
        failed += results.filter((r) => r.status !== 'passed').length;
      }
    const ratio = wall[2] / wall[1];
    return [
      `hooksmith test, 8 agents × 9 cases (${cases.length}), cold hosts, best of 3: -j 1 ${r1(wall[1])} ms, -j 2 ${r1(wall[2])} ms wall; ${ratio.toFixed(2)}x (target ≤ 0.65x on 2 cores; this machine: ${defaultJobs()} cores)${failed ? `; ${failed} not passed` : ''}`,
      `what limits it: CPU. At -j 1 this process (one thread: it checks the agents and drives every turn) used ${r1(nodeCpu[1])} ms and the hosts ${r1(hostCpu[1])} ms of a ${r1(wall[1])} ms wall; -j 2: ${r1(nodeCpu[2])} + ${r1(hostCpu[2])} ms. On 2 cores the floor is (that CPU) / 2, and the other processes on the machine take their share of the same 2 cores`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
