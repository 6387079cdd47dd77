// Parse + model + every rule, per file, on a 160-line, a 3,000-line and a 10,000-line hook
// module: cold (a file seen for the first time, as `hooksmith check` sees it: the model's
// function cache is emptied before each run) and after a one-character edit inside one
// function, as the language server re-analyses a buffer (server/parsed-text.ts: the edit is
// applied to the tree, re-parsed incrementally, and only the definitions it touched are
// rebuilt). The anchor: ruff's WebAssembly build checking the same text (bench/ruff.ts).
// Beside the cold numbers, tree-sitter's parse alone of the same text (the floor under any model
// and rules) and, in pairs timed back to back, what model + rules add to it: this project's share,
// told apart from the machine's speed of the moment (it drifts by more than half on the shared VM).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { analyseModule } from '../runtime/analysis';
import { parseModule } from '../runtime/analysis';
import { initParser, parse } from '../runtime/python/parser';
import type { HookModule } from '../runtime/python/model';
import { clearFunctionCache } from '../runtime/python/function-cache';
import { ParsedText } from '../server/parsed-text';
import { hookModuleSource } from './generate';
import { ruffChecks } from './ruff';
import { line, ms, percentile } from './stats';

type Mode = 'cold' | 'edit';
const WARMUP = 20;

/** Wall samples, and CPU time per iteration (on a loaded machine wall time mostly measures the others). */
function timeModule(lines: number, iterations: number, mode: Mode): { samples: number[]; cpuMs: number } {
  const base = hookModuleSource(lines);
  const path = '/bench/agent/hooks/generated.py';
  const samples: number[] = [];
  // The edit mode types one more character into the first hook's log message each time.
  const spot = base.indexOf('"according to"') + '"according to'.length;
  const buffer = new ParsedText('file:///bench/agent/hooks/generated.py', 1, base);
  buffer.tree();
  let cpu0 = process.cpuUsage();
  for (let i = 0; i < iterations + WARMUP; i++) {
    if (i === WARMUP) cpu0 = process.cpuUsage();
    if (mode === 'cold') clearFunctionCache();
    const t0 = performance.now();
    let text = base;
    let module;
    if (mode === 'edit') {
      const at = buffer.document.positionAt(spot + i);
      buffer.update([{ range: { start: at, end: at }, text: 'x' }], i + 2);
      text = buffer.text;
      module = editedModel(buffer, path);
    } else module = parseModule(text, path);
    analyseModule({ path, text, module, agentModules: [module], isMantleModule: true });
    const dt = performance.now() - t0;
    if (i >= WARMUP) samples.push(dt); // the first runs warm up the JIT and the WASM heap
  }
  buffer.dispose();
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
  const sizes = [
    [160, 500, 2],
    [3000, 100, 20],
    [10000, 40, undefined],
  ] as const;
  const ruff = ruffChecks(
    sizes.map(([lines]) => hookModuleSource(lines)),
    30,
  );
  for (const [k, [lines, iterations, target]] of sizes.entries()) {
    let coldCpu = NaN;
    let editCpu = NaN;
    for (const mode of ['cold', 'edit'] as const) {
      const { samples: s, cpuMs } = timeModule(lines, iterations, mode);
      const what = `parse+rules, ${lines}-line module, ${mode === 'cold' ? 'cold' : 'after an edit'}`;
      const median = percentile(s, 50);
      const goal = mode === 'cold' && target !== undefined;
      out.push(
        line(
          `${what}, median`,
          ms(median),
          goal ? `≤ ${target} ms` : undefined,
          goal ? median <= target : undefined,
        ),
      );
      out.push(line(`${what}, p99`, ms(percentile(s, 99))));
      out.push(line(`${what}, CPU (mean)`, ms(cpuMs)));
      if (mode === 'edit') {
        editCpu = cpuMs;
        continue;
      }
      coldCpu = cpuMs;
      const floor = timeBeyondParse(lines, iterations);
      out.push(line(`  tree-sitter's parse alone, same text, median`, ms(floor.parse)));
      out.push(line(`  model + rules beyond it, median of back-to-back pairs`, ms(floor.beyond)));
    }
    out.push(line(`  an edit's CPU / a cold run's`, `${(editCpu / coldCpu).toFixed(2)}×`));
    const anchor = ruff.times[k]!.cpu;
    out.push(
      line(
        `anchor: ruff ${ruff.version} (WASM, optimised tier) check, ${lines} lines, CPU median`,
        ms(anchor),
      ),
    );
    out.push(
      line(
        `  ratio to ruff: cold / edit (CPU)`,
        `${(coldCpu / anchor).toFixed(2)}× / ${(editCpu / anchor).toFixed(2)}×`,
      ),
    );
  }
  return out;
}

/** The model the language server builds for the buffer's current text. */
function editedModel(buffer: ParsedText, path: string): HookModule {
  return buffer.model(path);
}
