// A conversation (`turns:`) as the simulator plays it: each turn is the scenario with that
// turn's user message, completions, tools and passages; the played entries are tagged with
// their turn, and a turn's view is the result cut down to it (what its `expect:` is checked on).
import type { SimulationResult, TurnSummary } from './api';
import type { Scenario, ScenarioTurn } from './scenario-schema';

/** How a turn ended: thrown from deep in the turn, caught where the turn is played. */
export class TurnEnd {
  constructor(
    readonly status: SimulationResult['status'],
    readonly ending: string,
  ) {}
}

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

export const turnName = (sc: Scenario, n: number): string => sc.turns?.[n - 1]?.name ?? `turn ${n}`;

/** Where each list of the result stood when a turn began. */
export interface TurnMark {
  events: number;
  transcript: number;
  tools: number;
}

/** Tags the entries a turn added (from `mark` on) with its number. */
export function tagTurn(
  lists: { events: { turn?: number }[]; transcript: { turn?: number }[]; tools: { turn?: number }[] },
  mark: TurnMark,
  turn: number,
): void {
  for (const e of lists.events.slice(mark.events)) e.turn = turn;
  for (const e of lists.transcript.slice(mark.transcript)) e.turn = turn;
  for (const e of lists.tools.slice(mark.tools)) e.turn = turn;
}

/** A turn's failure ends that turn, not the conversation: the user may write again. */
export function conversationStatus(turns: readonly TurnSummary[]): SimulationResult['status'] {
  if (turns.some((t) => t.status === 'error')) return 'error';
  return turns[turns.length - 1]?.status ?? 'completed';
}

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
