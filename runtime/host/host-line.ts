// What one line from the host's protocol channel is: a loop event (the watchdog's blocking /
// resumed), a call's progress, a protocol error, a host that must be replaced, a malformed answer
// (code in the host wrote to the channel) or a call's answer. PythonHost acts on the kind.
import { parseJson } from '../json/lossless-json';
import type { InvokeResult } from './protocol';
import { malformedAnswer } from './wire-checks';

export type HostLine =
  | { kind: 'unparsable' }
  | { kind: 'blocking'; id: number | null }
  | { kind: 'resumed' }
  | { kind: 'progress'; id: number; event: string }
  | { kind: 'protocol-error'; id: number; message: string }
  /** host-error: the host's own code failed; host-stale: an earlier case left it unable to run another. */
  | { kind: 'replace'; id: number; stale: boolean; message: string }
  | { kind: 'malformed'; id: number; why: string }
  | { kind: 'answer'; id: number; result: InvokeResult };

export function readHostLine(line: string): HostLine {
  let msg: Record<string, unknown>;
  try {
    msg = parseJson(line) as Record<string, unknown>;
  } catch {
    return { kind: 'unparsable' };
  }
  const id = typeof msg.id === 'number' ? msg.id : -1;
  if (msg.event === 'blocking') return { kind: 'blocking', id: typeof msg.id === 'number' ? msg.id : null };
  if (msg.event === 'resumed') return { kind: 'resumed' };
  if (msg.event !== undefined) return { kind: 'progress', id, event: String(msg.event) };
  if (msg.status === 'protocol-error') return { kind: 'protocol-error', id, message: String(msg.message) };
  if (msg.status === 'host-error' || msg.status === 'host-stale')
    return { kind: 'replace', id, stale: msg.status === 'host-stale', message: String(msg.message) };
  const malformed = malformedAnswer(msg);
  if (malformed) return { kind: 'malformed', id, why: malformed };
  delete msg.id;
  return { kind: 'answer', id, result: msg as unknown as InvokeResult };
}
