// What the end user of the agent would have seen after one hook run: the text itself (the
// rewritten reply, the original one a failure keeps), the fallback response, or nothing yet.
// The engine's next step is a separate line (RunResult.effect); this is only what reaches a person.
import { FALLBACK_RESPONSES, findPoint } from '../catalogue';
import type { RunResult } from '../engine/api';

export type UserView =
  { kind: 'text'; text: string } | { kind: 'fallback'; response: string } | { kind: 'nothing'; why: string };

const INCOMING_FALLBACK = 'the incoming-message fallback';
const OUTGOING_FALLBACK = 'the outgoing-text fallback';

function textOf(payload: unknown): string | undefined {
  const t = (payload as { text?: unknown } | null)?.text;
  return typeof t === 'string' ? t : undefined;
}

/** A failed modify run: a crash, a timeout or a return the payload wall refused. */
export function isFailure(r: Pick<RunResult, 'outcome'>): boolean {
  return r.outcome === 'crashed' || r.outcome === 'timed-out' || r.outcome === 'invalid-return';
}

export function userView(r: RunResult): UserView {
  if (r.engine === 'cayu') return { kind: 'nothing', why: 'nothing directly: the decision steers the agent' };
  if (r.lane === 'observe')
    return { kind: 'nothing', why: 'the same as without this hook: observers cannot change the turn' };
  const failed = isFailure(r);
  const carried = r.outcome === 'returned' || r.outcome === 'ignored-signal' ? r.payload : undefined;
  switch (findPoint(r.point)?.id ?? r.point) {
    case 'outgoing_text': {
      if (r.outcome === 'hook-rejection') return { kind: 'fallback', response: OUTGOING_FALLBACK };
      const text = textOf(failed ? r.inputPayload : carried);
      return text === undefined ? { kind: 'nothing', why: 'no text' } : { kind: 'text', text };
    }
    case 'model_response': {
      if (r.outcome === 'retry-model')
        return { kind: 'nothing', why: 'nothing: the response is discarded and the model asked again' };
      const text = textOf(failed ? r.inputPayload : carried);
      return text
        ? { kind: 'text', text }
        : { kind: 'nothing', why: 'nothing yet: this response has no text (its tool calls run first)' };
    }
    case 'incoming_message':
      if (r.outcome === 'hook-rejection' || failed) return { kind: 'fallback', response: INCOMING_FALLBACK };
      return { kind: 'nothing', why: 'nothing yet: the reply comes later in the turn' };
    case 'model_request':
      if (failed) return { kind: 'fallback', response: FALLBACK_RESPONSES.model_request };
      return { kind: 'nothing', why: 'nothing yet: the reply comes after the LLM call' };
    case 'tool_call':
      if (failed) return { kind: 'fallback', response: FALLBACK_RESPONSES.tool_call };
      if (r.outcome === 'retry-model')
        return { kind: 'nothing', why: 'nothing: the batch is discarded and the model asked again' };
      return { kind: 'nothing', why: 'nothing yet: the tool runs and the model answers later' };
    default:
      return { kind: 'nothing', why: 'nothing directly: the model reads this before it answers' };
  }
}
