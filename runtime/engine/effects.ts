// Sentences a person reads: what the engine does next. Failure and signal effects come from
// the catalogue (runtime/catalogue/mantle-points.ts); these are the happy-path ones and the
// observe lane's, which the catalogue does not carry.
import type { PointId } from '../catalogue';
import { notInvokedBy, type Wiring } from '../catalogue/wiring';

/** What the engine does with a payload a modify hook returned (after the payload wall). */
export const CONTINUE_EFFECT: Record<PointId, string> = {
  turn_started: 'no effect on the turn',
  turn_finished: 'no effect on the turn',
  incoming_message: 'the engine handles this message',
  model_request: 'the LLM is called with this request (allow-listed model_settings only)',
  model_response: 'the engine uses this response: its text is emitted and its tool calls go to preflight',
  tool_call: 'preflight continues with this call; the batch is dispatched once every call in it passes',
  tool_result: 'this result is persisted on tool_executed and replayed to the model',
  knowledge_query: 'the references index is searched with this query',
  knowledge_results: 'these passages are serialized back to the model',
  outgoing_text: 'this text is stored and sent to the user',
};

/** Observers: "their mutations, errors, timeouts, or control signals have no effect on the turn". */
export const OBSERVE_EFFECT = {
  returned: 'no effect on the turn: observers get an independent copy and are not awaited',
  ignoredReturn: 'no effect on the turn: an observer’s return value and mutations are discarded',
  crashed: 'no effect on the turn: the observer’s error is logged and discarded',
  timedOut: 'no effect on the turn: the observer is cancelled at its deadline and the timeout is logged',
  signal: 'no effect on the turn: observers cannot signal; the exception is logged and discarded',
} as const;

/** The note of a run at a point the engine does not invoke (whose word: runtime/catalogue/wiring.ts). */
export function notWiredNote(w: Wiring): string {
  return `${notInvokedBy(w.by)}: this is what the engine would do once the point is wired`;
}

/** The note of a simulated event at such a point: it fired only because the scenario asked. */
export function firedUnwiredNote(w: Wiring): string {
  return `${notInvokedBy(w.by)} (fired because the scenario sets fire_unwired)`;
}
export const HARD_KILL_NOTE =
  'the hook blocked the event loop past its deadline: the host was killed and restarted';

/** A hook that finished past its budget without the cooperative timeout firing: it held the loop. */
export function overBudgetNote(durationMs: number, timeoutMs: number): string {
  return `ran ${Math.round(durationMs)} ms against its ${timeoutMs} ms budget without yielding: it blocked the event loop, so the real engine's turn (and every conversation on that process) stalled that long; its result was used only because it arrived before the engine could cancel it`;
}

/** A debug run: no budget was enforced; the time it measured, pauses left out where they were counted. */
export function debugRunNote(wallMs: number, pausedMs: number | null, timeoutMs: number): string {
  const budget = `debug run: the ${timeoutMs} ms budget was not enforced (a hook paused at a breakpoint is not timed out)`;
  if (pausedMs === null)
    return `${budget}; ${Math.round(wallMs)} ms measured includes any time paused in the debugger (the pauses could not be counted)`;
  const active = Math.max(0, wallMs - pausedMs);
  const over =
    active > timeoutMs ? `, over its budget: without the debugger it would not have finished in time` : '';
  return `${budget}; the hook ran ${active.toFixed(1)} ms excluding ${Math.round(pausedMs)} ms paused in the debugger${over}`;
}
