// Cayu's session end: after each turn (each run / resume of the session: a conversation's every
// turn) the session's after_session_* phase runs, by the turn's status (cayu 0.3.0
// runtime/_session_engine.py runs the runtime hooks at the end of each run and resume).
import type { CayuPhaseId } from '../../catalogue';
import type { SimulationResult } from '../api';
import type { SimContext } from './sim-points';
import { afterSessionPhase, CayuRunEnded } from './sim-cayu';

type Status = SimulationResult['status'];

const SESSION_PHASE: Record<Status, CayuPhaseId> = {
  completed: 'after_session_completed',
  cancelled: 'after_session_interrupted',
  error: 'after_session_failed',
};

/** A session hook's BaseException ended the run (the runtime does not catch it): its type, the session's state. */
export interface SessionHookEnded {
  endedBy: string;
  sessionLeft: string;
}

export async function afterSession(
  ctx: SimContext,
  status: Status,
  ending: string,
  appHooks: readonly string[],
): Promise<SessionHookEnded | undefined> {
  if (!ctx.hooks.hasCayu) return undefined;
  ctx.context = 'session';
  const phase = SESSION_PHASE[status];
  const state = phase.replace('after_session_', '');
  const input = {
    session: { id: 'session-1', status: state },
    terminal_event: { type: `session.${state}`, payload: { reason: ending } },
  };
  try {
    await afterSessionPhase(ctx, phase, input, appHooks);
  } catch (err) {
    if (!(err instanceof CayuRunEnded)) throw err;
    ctx.transcript.push({ role: 'engine', text: err.message });
    return { endedBy: err.exceptionType, sessionLeft: err.sessionLeft };
  }
  return undefined;
}
