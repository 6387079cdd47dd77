// Linear cost (issue #16, item 8): parse + model + every rule per 1,000 lines, on generated hook
// modules of 160, 3,000 and 50,000 lines, cold (as `hooksmith check` sees a file). Linear cost
// means the same time per 1,000 lines at every size; the three must stay within 2× of each
// other. Then `hooksmith check` of one 50,000-line module, process start included.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyseModule, parseModule } from '../runtime/analysis';
import { initParser } from '../runtime/python/parser';
import { clearFunctionCache } from '../runtime/python/function-cache';
import { hookModuleSource } from './generate';
import { line, ms, percentile } from './stats';

const ROOT =
  [join(__dirname, '..'), join(__dirname, '..', '..')].find((d) => existsSync(join(d, 'package.json'))) ??
  join(__dirname, '..');
const CLI = join(ROOT, 'bin', 'hooksmith.js');

/** Medians of parse + model + rules of a module of `lines` lines, cold: wall and CPU time (ms). */
function perModule(lines: number, runs: number): { wall: number; cpu: number; note: string } {
  const text = hookModuleSource(lines);
  const path = '/bench/agent/hooks/generated.py';
  const walls: number[] = [];
  const cpus: number[] = [];
  let note = '';
  for (let i = 0; i < runs + 3; i++) {
    clearFunctionCache();
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    const module = parseModule(text, path);
    analyseModule({ path, text, module, agentModules: [module], isMantleModule: true });
    const c = process.cpuUsage(c0);
    // The first runs warm up the JIT.
    if (i >= 3) {
      walls.push(performance.now() - t0);
      cpus.push((c.user + c.system) / 1000);
    }
    const error = module.syntaxErrors[0]?.message;
    if (error) note = ` [${error}]`;
  }
  return { wall: percentile(walls, 50), cpu: percentile(cpus, 50), note };
}

export async function benchScaling(): Promise<string[]> {
  await initParser();
  perModule(3000, 20); // JIT warm-up for every size
  const sizes = [
    [160, 400],
    [3000, 40],
    [50_000, 5],
  ] as const;
  const out: string[] = [
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (CPU time is what a loaded machine distorts least)`,
  ];
  const per1k: number[] = [];
  for (const [lines, runs] of sizes) {
    const m = perModule(lines, runs);
    const k = lines / 1000;
    per1k.push(m.cpu / k);
    out.push(
      line(
        `parse+model+rules per 1,000 lines, ${lines.toLocaleString('en')}-line module`,
        `CPU ${ms(m.cpu / k)}, wall ${ms(m.wall / k)}${m.note}`,
      ),
    );
  }
  const spread = Math.max(...per1k) / Math.min(...per1k);
  out.push(line('  largest / smallest of the three (CPU)', `${spread.toFixed(2)}×`, '≤ 2×'));

  out.push(...duplicateRegistrations());

  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-bench-scaling-'));
  try {
    mkdirSync(join(dir, 'agent'));
    writeFileSync(join(dir, 'agent', 'hooks.py'), hookModuleSource(50_000));
    const walls: number[] = [];
    let note = '';
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [CLI, 'check', dir, '--format', 'json'], {
        encoding: 'utf8',
        maxBuffer: 256 << 20,
        env: { ...process.env, HOOKSMITH_NO_CACHE: '1' },
      });
      walls.push(performance.now() - t0);
      // Exit 1 is findings in the module; 2 and above, a failed check.
      if ((r.status ?? 2) >= 2) note = ` [exit ${r.status}: ${r.stderr.trim().split('\n')[0] ?? ''}]`;
    }
    out.push(
      line('check, one 50,000-line module, cold process, median of 3', ms(percentile(walls, 50)) + note),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** A module registering `modify_model_request` `n` times (a generated or hostile file). */
function duplicateModifiers(n: number, tag: string): string {
  const body = Array.from(
    { length: n },
    (_, i) =>
      `@modify_model_request()\nasync def ${tag}_${i}(p: ModelRequestPayload) -> ModelRequestPayload:\n    return p\n`,
  );
  return 'from rasa.mantle.hooks import ModelRequestPayload, modify_model_request\n\n' + body.join('\n');
}

/**
 * The agent-wide duplicate-modify-hook check (#34 item 15): the rules of one module of an agent
 * of ten modules that all register one modify point, per registration, at 400 and 4,000
 * registrations a module. Linear: the same time per registration (it was quadratic: an agent of
 * ten 4,000-registration modules took minutes to check).
 */
export function duplicateRegistrations(): string[] {
  const perRegistration: number[] = [];
  const out: string[] = [];
  for (const n of [400, 4000]) {
    const texts = Array.from({ length: 10 }, (_, m) => duplicateModifiers(n, `m${m}`));
    const modules = texts.map((t, m) => parseModule(t, `/bench/agent/hooks/m${m}.py`));
    const mine = modules[0]!;
    const cpus: number[] = [];
    for (let i = 0; i < 5; i++) {
      const c0 = process.cpuUsage();
      analyseModule({
        path: mine.path,
        text: texts[0]!,
        module: mine,
        agentModules: modules,
        isMantleModule: true,
      });
      const c = process.cpuUsage(c0);
      if (i >= 1) cpus.push((c.user + c.system) / 1000);
    }
    const cpu = percentile(cpus, 50);
    perRegistration.push(cpu / (10 * n));
    out.push(
      line(
        `rules of 1 module, agent of 10 × ${n.toLocaleString('en')} duplicate registrations`,
        `CPU ${ms(cpu)}`,
      ),
    );
  }
  const ratio = perRegistration[1]! / perRegistration[0]!;
  out.push(line('  per registration, 4,000 / 400 (CPU)', `${ratio.toFixed(2)}×`, '≤ 2×', ratio <= 2));
  return out;
}
