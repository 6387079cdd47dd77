// Cayu's session end: after the turn (a conversation: after its last turn) the session's
// after_session_* phase runs once, by the session's status.
import type { CayuPhaseId } from '../catalogue';
import type { SimulationResult } from './api';
import { firePhaseHook, phaseHooks, pushIdlePhase, type SimContext } from './sim-points';

type Status = SimulationResult['status'];

const SESSION_PHASE: Record<Status, CayuPhaseId> = {
  completed: 'after_session_completed',
  cancelled: 'after_session_interrupted',
  error: 'after_session_failed',
};

export async function afterSession(ctx: SimContext, status: Status, ending: string): Promise<void> {
  if (!ctx.hooks.hasCayu) return;
  ctx.context = 'session';
  const phase = SESSION_PHASE[status];
  const state = phase.replace('after_session_', '');
  const input = {
    session: { id: 'session-1', status: state },
    terminal_event: { type: `session.${state}`, payload: { reason: ending } },
  };
  const hooks = phaseHooks(ctx, phase);
  if (!hooks.length) pushIdlePhase(ctx, phase, input);
  for (const h of hooks) await firePhaseHook(ctx, h, input);
}
