// Benchmark: a 20-turn conversation against a one-turn scenario, both firing one hook per
// Mantle point per turn, on a warm runner. Overhead = wall time − hook durations − scripted
// latency; the target: the conversation's at most 20× the turn's (no host start per turn, no
// history copied per turn).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulationResult } from '../runtime/engine/api';
import { createHookRunner } from '../runtime/engine/runner';
import { hooksModule } from './engine';

const TURNS = 20;
const completions = (n: number) => [
  { tool_calls: [{ tool_name: 'search_knowledge', tool_args: { query: `q${n}` } }] },
  { text: `answer ${n}` },
];
const base = { fire_unwired: true, knowledge: { passages: [{ text: 'p', score: 0.9 }] } };
const ONE_TURN = { ...base, user: 'bench', completions: completions(0) };
const CONVERSATION = {
  ...base,
  turns: Array.from({ length: TURNS }, (_, i) => ({ user: `message ${i}`, completions: completions(i) })),
};

const overhead = (r: SimulationResult) => (r.durationMs ?? 0) - (r.hookMs ?? 0) - (r.scriptedMs ?? 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function benchConversation(runs = 7): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-bench-conv-'));
  const runner = createHookRunner();
  try {
    writeFileSync(join(dir, 'hooks.py'), hooksModule());
    await runner.simulate(ONE_TURN, dir);
    const one: number[] = [];
    const conv: number[] = [];
    let last: SimulationResult | undefined;
    for (let i = 0; i < runs; i++) {
      one.push(overhead(await runner.simulate(ONE_TURN, dir)));
      last = await runner.simulate(CONVERSATION, dir);
      conv.push(overhead(last));
    }
    const ratio = median(conv) / median(one);
    return [
      `${TURNS}-turn conversation (${last?.events.filter((e) => e.hook).length} hook runs, ${runs} runs): overhead beyond hook time median ${r1(median(conv))} ms`,
      `one-turn scenario: overhead median ${r1(median(one))} ms; conversation / turn = ${r1(ratio)}× (target ≤ ${TURNS}×)`,
    ];
  } finally {
    await runner.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
