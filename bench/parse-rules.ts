// Parse + model + every rule, per file, on a 160-line and a 3,000-line hook module.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { analyseModule } from '../runtime/analysis';
import { defaultBackend } from '../runtime/analysis/default-backend';
import { hookModuleSource } from './generate';
import { line, ms, percentile } from './stats';

/** Wall samples, and CPU time per iteration (this process, all threads: on a loaded machine wall time mostly measures the others). */
async function timeModule(lines: number, iterations: number): Promise<{ samples: number[]; cpuMs: number }> {
  const text = hookModuleSource(lines);
  const path = '/bench/agent/hooks/generated.py';
  const samples: number[] = [];
  let cpu0 = process.cpuUsage();
  for (let i = 0; i < iterations + 20; i++) {
    if (i === 20) cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const module = defaultBackend.parseModule(text, path);
    analyseModule({ path, text, module, agentModules: [module], isMantleModule: true });
    const dt = performance.now() - t0;
    if (i >= 20) samples.push(dt); // the first runs warm up the JIT and the WASM heap
  }
  const cpu = process.cpuUsage(cpu0);
  return { samples, cpuMs: (cpu.user + cpu.system) / 1000 / iterations };
}

export async function benchParseRules(): Promise<string[]> {
  await defaultBackend.init();
  const out: string[] = [`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`];
  for (const [lines, iterations, target] of [
    [160, 500, '≤ 2 ms'],
    [3000, 100, '≤ 20 ms'],
  ] as const) {
    const { samples: s, cpuMs } = await timeModule(lines, iterations);
    out.push(line(`parse+rules, ${lines}-line module, median`, ms(percentile(s, 50)), target));
    out.push(line(`parse+rules, ${lines}-line module, p99`, ms(percentile(s, 99))));
    out.push(line(`parse+rules, ${lines}-line module, CPU per file (mean)`, ms(cpuMs)));
  }
  return out;
}
