// A conversation (`turns:`) as the emulation plays it: the played entries are tagged with their
// turn, a turn's end is thrown from deep in the turn, and a turn's failure ends that turn only.
import type { SimulationResult, TurnSummary } from '../api';

/** How a turn ended: thrown from deep in the turn, caught where the turn is played. */
export class TurnEnd {
  constructor(
    readonly status: SimulationResult['status'],
    readonly ending: string,
  ) {}
}

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
