// An LLM-played user (`user_simulation`, Mantle's simulation_context): before each turn the user's
// model writes the next user message from what was said so far; the turn is then played as any
// conversation's. The conversation ends when the simulated user says its goal is reached, at
// the turn limit, or when a turn stops it (Hooksmith failed, the cassette cannot answer).
import type { TurnSummary } from '../api';
import type { Scenario } from '../scenario-schema';
import { CassetteMismatch, type SimModels } from '../model-step';
import type { SimContext } from './sim-points';
import { tagTurn } from './sim-turns';

type Played = TurnSummary & { internalError?: string; endedBy?: string };

export interface SimulatedConversation<T extends Played> {
  played: T[];
  ending: string;
  /** The cassette could not answer the user's model request. */
  cassetteFailure?: string;
}

const note = (ctx: SimContext, text: string) => ctx.transcript.push({ role: 'engine', text });

export async function playSimulatedUser<T extends Played>(
  ctx: SimContext,
  sc: Scenario,
  models: SimModels,
  play: (turn: Scenario, n: number) => Promise<T>,
  stopped: (r: T) => boolean,
): Promise<SimulatedConversation<T>> {
  const sim = sc.user_simulation!;
  const played: T[] = [];
  const stop = (ending: string, n: number, extra: Partial<SimulatedConversation<T>> = {}) => {
    if (!played.length)
      // Nothing was played: the conversation is one failed turn, so it has a status and an ending.
      played.push({ turn: n, name: `turn ${n}`, user: '', status: 'error', ending, iterations: 0 } as T);
    return { played, ending, ...extra };
  };
  for (let n = 1; n <= sim.max_turns; n++) {
    const said = ctx.transcript.filter((e) => e.role === 'user' || e.role === 'bot');
    const mark = { events: ctx.events.length, transcript: ctx.transcript.length, tools: ctx.tools.length };
    let move;
    try {
      move = await models.userMove(sim, said, n);
    } catch (err) {
      if (!(err instanceof CassetteMismatch)) throw err;
      note(ctx, `the cassette cannot answer: ${err.message}`);
      tagTurn(ctx, mark, n);
      return stop('the cassette cannot answer the simulated user’s model request', n, {
        cassetteFailure: err.message,
      });
    }
    if ('done' in move) {
      note(ctx, `the simulated user ends the conversation: ${sim.stop_when ?? 'its goal is reached'}`);
      tagTurn(ctx, mark, Math.max(1, n - 1));
      return stop('the simulated user reached its goal', n);
    }
    if ('error' in move) {
      note(ctx, `the simulated user's model failed: ${move.error}`);
      tagTurn(ctx, mark, Math.max(1, n - 1));
      return stop(`the simulated user's model failed: ${move.error}`, n);
    }
    const { user_simulation: _sim, ...rest } = sc;
    const r = await play({ ...rest, user: move.text, completions: [] }, n);
    tagTurn(ctx, mark, n);
    played.push({ ...r, name: `turn ${n}` });
    if (stopped(r)) return { played, ending: r.ending };
  }
  note(ctx, `the turn limit of the simulated user is reached (${sim.max_turns})`);
  return { played, ending: `turn limit reached (${sim.max_turns} turns)` };
}
