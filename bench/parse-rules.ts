// Parse + model + every rule, per file, on a 160-line and a 3,000-line hook module:
// cold (a file seen for the first time, as `hooksmith check` sees it: the model's
// function cache is emptied before each run) and after a one-character edit inside one
// function (as the language server re-analyses a buffer: unchanged functions are reused).
// Beside the cold numbers, tree-sitter's parse alone of the same text (the floor under any model
// and rules) and, in pairs timed back to back, what model + rules add to it: this project's share,
// told apart from the machine's speed of the moment (it drifts by more than half on the shared VM).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { analyseModule } from '../runtime/analysis';
import { parseModule } from '../runtime/analysis';
import { initParser, parse } from '../runtime/python/parser';
import { clearFunctionCache } from '../runtime/python/function-cache';
import { hookModuleSource } from './generate';
import { line, ms, percentile } from './stats';

type Mode = 'cold' | 'edit';
const WARMUP = 20;

/** Wall samples, and CPU time per iteration (on a loaded machine wall time mostly measures the others). */
function timeModule(lines: number, iterations: number, mode: Mode): { samples: number[]; cpuMs: number } {
  const base = hookModuleSource(lines);
  const path = '/bench/agent/hooks/generated.py';
  const samples: number[] = [];
  let cpu0 = process.cpuUsage();
  for (let i = 0; i < iterations + WARMUP; i++) {
    if (i === WARMUP) cpu0 = process.cpuUsage();
    // The edit mode types one more character into the first hook's log message each time.
    const text = mode === 'edit' ? base.replace('"according to"', `"according to${'x'.repeat(i)}"`) : base;
    if (mode === 'cold') clearFunctionCache();
    const t0 = performance.now();
    const module = parseModule(text, path);
    analyseModule({ path, text, module, agentModules: [module], isMantleModule: true });
    const dt = performance.now() - t0;
    if (i >= WARMUP) samples.push(dt); // the first runs warm up the JIT and the WASM heap
  }
  const cpu = process.cpuUsage(cpu0);
  return { samples, cpuMs: (cpu.user + cpu.system) / 1000 / iterations };
}

/**
 * Pairs, back to back: tree-sitter's parse alone, then a cold parse + model + rules of the same
 * text. Medians of the parse alone and of each pair's difference.
 */
function timeBeyondParse(lines: number, iterations: number): { parse: number; beyond: number } {
  const text = hookModuleSource(lines);
  const path = '/bench/agent/hooks/generated.py';
  const alone: number[] = [];
  const beyond: number[] = [];
  for (let i = 0; i < iterations + WARMUP; i++) {
    const t0 = performance.now();
    parse(text).delete();
    const t1 = performance.now();
    clearFunctionCache();
    const module = parseModule(text, path);
    analyseModule({ path, text, module, agentModules: [module], isMantleModule: true });
    const t2 = performance.now();
    if (i < WARMUP) continue;
    alone.push(t1 - t0);
    beyond.push(t2 - t1 - (t1 - t0));
  }
  return { parse: percentile(alone, 50), beyond: percentile(beyond, 50) };
}

export async function benchParseRules(): Promise<string[]> {
  await initParser();
  const out: string[] = [
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  ];
  for (const [lines, iterations, target] of [
    [160, 500, '≤ 2 ms'],
    [3000, 100, '≤ 20 ms'],
  ] as const) {
    for (const mode of ['cold', 'edit'] as const) {
      const { samples: s, cpuMs } = timeModule(lines, iterations, mode);
      const what = `parse+rules, ${lines}-line module, ${mode === 'cold' ? 'cold' : 'after an edit'}`;
      out.push(line(`${what}, median`, ms(percentile(s, 50)), mode === 'cold' ? target : undefined));
      out.push(line(`${what}, p99`, ms(percentile(s, 99))));
      out.push(line(`${what}, CPU (mean)`, ms(cpuMs)));
      if (mode !== 'cold') continue;
      const floor = timeBeyondParse(lines, iterations);
      out.push(line(`  tree-sitter's parse alone, same text, median`, ms(floor.parse)));
      out.push(line(`  model + rules beyond it, median of back-to-back pairs`, ms(floor.beyond)));
    }
  }
  return out;
}
