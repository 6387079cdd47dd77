// A Cayu run that a hook's BaseException (not an Exception) ended: the runtime does not catch it,
// the run raises it, and the session is left as the store keeps it. Read from cayu 0.3.0 and
// 0.15.0 (`session` of the ended_by cases in test/fixtures/cayu-corpus, recorded from the store
// after the run raised): a CancelledError or GeneratorExit from a tool hook ends the session
// interrupted (for a lone call's before-hook, after saving "Tool call interrupted before
// completion."); any other BaseException from a tool hook leaves it running — started, with no
// terminal event and no session hook, never failed; from a session hook, the session had already
// ended with its status. Shared by both players (neither imports the other). Pure.

export type SessionLeft = 'running' | 'interrupted' | 'completed' | 'failed';

/** The session's state after `exceptionType` left a hook of `phase` (the emulation's reading). */
export function sessionLeftBy(exceptionType: string, phase?: string): SessionLeft {
  if (phase?.startsWith('after_session_')) return phase.slice('after_session_'.length) as SessionLeft;
  return exceptionType === 'CancelledError' || exceptionType === 'GeneratorExit' ? 'interrupted' : 'running';
}

/** What the session is, in words, once the run raised. */
function sessionWords(left: string | undefined): string {
  if (left === 'running')
    return 'the session did not end: the runtime leaves it started (running), with no terminal event and no session hook — it is not failed';
  if (left === 'interrupted') return 'the runtime marked the session interrupted before the run raised';
  if (left) return `the session had already ended (${left}) before this session hook ran`;
  return 'the session was left as the runtime had it';
}

/** The transcript's line for the run's end. */
export function runEndedText(exceptionType: string, hook: string, left: string | undefined): string {
  return `${exceptionType} raised by ${hook} is not an Exception: the runtime does not catch it, so the run raised it; ${sessionWords(left)}`;
}

/** The short ending (result, turn summary). */
export function runEndedEnding(exceptionType: string, left: string | undefined): string {
  const session =
    left === 'running'
      ? 'the session did not end (left running)'
      : left
        ? `session ${left}`
        : 'session left as it was';
  return `the run raised ${exceptionType}; ${session}`;
}
