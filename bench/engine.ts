// Benchmark: a simulated turn that fires 10 hooks (one per Mantle point), on a warm runner.
// Overhead = wall time − the hooks' own durations − scripted latencies (target ≤ 50 ms).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decoratorName, getPoint, POINT_IDS } from '../runtime/catalogue';
import { createHookRunner } from '../runtime/engine/runner';

export interface EngineBench {
  runs: number;
  hooksPerTurn: number;
  /** Cold: host start, parse/check, module imports included. */
  firstTurnMs: number;
  medianTurnMs: number;
  medianOverheadMs: number;
  p95OverheadMs: number;
  maxOverheadMs: number;
}

/** A hook module with one trivial hook per point (modify where the point has that lane). */
export function hooksModule(): string {
  const lines = ['from rasa.mantle.hooks import *', ''];
  for (const id of POINT_IDS) {
    const p = getPoint(id);
    const lane = p.hasModifyLane ? 'modify' : 'observe';
    lines.push(`@${decoratorName(id, lane)}()`);
    lines.push(
      `async def hook_${id}(payload: ${p.payloadType}) -> ${lane === 'modify' ? p.payloadType : 'None'}:`,
    );
    lines.push(lane === 'modify' ? '    return payload' : '    return None', '');
  }
  return lines.join('\n');
}

const SCENARIO = {
  user: 'bench',
  fire_unwired: true,
  completions: [
    { tool_calls: [{ tool_name: 'search_knowledge', tool_args: { query: 'q' } }] },
    { text: 'done' },
  ],
  knowledge: { passages: [{ text: 'p', score: 0.9 }] },
};

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function measureEngine(runs = 20): Promise<EngineBench> {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-bench-engine-'));
  const runner = createHookRunner();
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'hooks.py'), hooksModule());
    const first = await runner.simulate(SCENARIO, dir);
    const hooksPerTurn = first.events.filter((e) => e.hook).length;
    const turns: number[] = [];
    const overheads: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await runner.simulate(SCENARIO, dir);
      turns.push(r.durationMs ?? 0);
      overheads.push((r.durationMs ?? 0) - (r.hookMs ?? 0) - (r.scriptedMs ?? 0));
    }
    return {
      runs,
      hooksPerTurn,
      firstTurnMs: r1(first.durationMs ?? 0),
      medianTurnMs: r1(pct(turns, 50)),
      medianOverheadMs: r1(pct(overheads, 50)),
      p95OverheadMs: r1(pct(overheads, 95)),
      maxOverheadMs: r1(Math.max(...overheads)),
    };
  } finally {
    await runner.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchEngine(): Promise<string[]> {
  const b = await measureEngine();
  return [
    `simulated turn firing ${b.hooksPerTurn} hooks (warm runner, ${b.runs} runs): median ${b.medianTurnMs} ms`,
    `overhead beyond hook bodies and scripted latency: median ${b.medianOverheadMs} ms, p95 ${b.p95OverheadMs} ms, max ${b.maxOverheadMs} ms (target ≤ 50 ms)`,
    `first turn (host start, check, imports): ${b.firstTurnMs} ms`,
  ];
}
