// A conversation (`turns:`) as every player reads it: each turn is the scenario with that turn's
// user message, completions, tools and passages, and a turn's view is the result cut down to it
// (what its `expect:` is checked on).
import type { SimulationResult } from './api';
import type { Scenario, ScenarioTurn } from './scenario-schema';

/** The scenario one turn plays: the scenario's settings, the turn's own keys over them. */
export function turnScenario(sc: Scenario, turn: ScenarioTurn): Scenario {
  const knowledge =
    turn.passages === undefined
      ? sc.knowledge
      : { tool: 'search_knowledge', latency_ms: 0, ...sc.knowledge, passages: turn.passages };
  const { turns: _turns, expect: _expect, ...rest } = sc;
  return {
    ...rest,
    user: turn.user,
    completions: turn.completions,
    tools: { ...sc.tools, ...turn.tools },
    ...(knowledge ? { knowledge } : {}),
    ...(turn.interrupt ? { interrupt: turn.interrupt } : {}),
  };
}

/** A turn's user messages: `user` as a list (one, or several the turn starts with together). */
export const userMessages = (user: string | readonly string[] | undefined): string[] =>
  user === undefined ? [''] : typeof user === 'string' ? [user] : [...user];

export const turnName = (sc: Scenario, n: number): string => sc.turns?.[n - 1]?.name ?? `turn ${n}`;

/** The result cut down to turn `n` (1-based): its events, transcript, tools, status. */
export function turnView(sim: SimulationResult, n: number): SimulationResult {
  const summary = sim.turns?.[n - 1];
  if (!summary) return sim;
  return {
    ...sim,
    events: sim.events.filter((e) => e.turn === n),
    transcript: sim.transcript.filter((e) => e.turn === n),
    tools: (sim.tools ?? []).filter((e) => e.turn === n),
    status: summary.status,
    ending: summary.ending,
    iterations: summary.iterations,
  };
}
