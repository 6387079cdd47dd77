// A model request repeats the whole history: the timeline shows only what is new since the
// previous request's event, and says which event holds the rest.
import type { TimelineEvent } from '../api';
import { stringifyJson } from '../../json/lossless-json';

/** The previous model request's event and how many messages it carried. */
export interface LastRequest {
  seq: number;
  length: number;
}

/** The request events from `from` on leave out the history the previous request already showed. */
export function elideHistory(
  all: TimelineEvent[],
  from: number,
  messageCount: number,
  prev: LastRequest | undefined,
): LastRequest | undefined {
  const events = all.slice(from).filter((e) => e.point === 'model_request');
  const last = events[0] ? { seq: events[0].seq, length: messageCount } : prev;
  if (!prev?.length) return last;
  const n = prev.length;
  for (const e of events) {
    const before = e.before as Record<string, unknown> | undefined;
    const after = e.after as Record<string, unknown> | undefined;
    const kept = before?.messages;
    const out = after?.messages;
    if (!Array.isArray(kept) || kept.length < n) continue;
    // A hook that rewrote the history: that event is shown whole.
    if (Array.isArray(out) && out !== kept && !samePrefix(out, kept, n)) continue;
    e.before = { ...before, messages: kept.slice(n) };
    if (Array.isArray(out)) e.after = { ...after, messages: out.slice(n) };
    e.elided = { messages: n, sameAs: prev.seq };
    e.notes = [
      ...e.notes,
      `messages: the first ${n} (the history) are those of event #${prev.seq}, not repeated here`,
    ];
  }
  return last;
}

function samePrefix(a: unknown[], b: unknown[], n: number): boolean {
  if (a.length < n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i] && stringifyJson(a[i]) !== stringifyJson(b[i])) return false;
  return true;
}
