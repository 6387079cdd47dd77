// What the host's real driver sends back (host/python/_hooksmith_host/cayu_real.py `play`): the
// runtime's own events, one row each, per turn. Read here into the SimulationResult every
// renderer already shows; nothing is decided here that the runtime decided.
import type { PyException } from '../../host/protocol';

export interface HookRow {
  kind: 'hook';
  phase: string;
  hookName: string;
  scope: 'app' | 'agent';
  /** The runtime's verdict: hook.completed or hook.failed. */
  status: 'completed' | 'failed';
  errorType?: string;
  errorMessage?: string;
  actions?: unknown[];
  /** From the watch on the instance: "runtime_hooks.py::Guard.before_tool_call". */
  label?: string;
  before?: Record<string, unknown>;
  returned?: unknown;
  returnedType?: string;
  raised?: PyException;
  safetyStop?: boolean;
  durationMs?: number;
}

export interface ToolRow {
  kind: 'tool';
  /** tool.call.completed | tool.call.failed | tool.call.blocked … */
  event: string;
  reason?: string | null;
  blockedBy?: string | null;
  result: { content?: string; is_error?: boolean; structured?: unknown };
}

export type Row =
  | HookRow
  | ToolRow
  | { kind: 'text'; text: string }
  | { kind: 'session'; status: 'completed' | 'error' | 'cancelled'; type: string };

export interface PlayedTurn {
  rows: Row[];
  ranFrom: number;
  /** The model calls the runtime made in this turn. */
  iterations?: number;
  endedBy?: string;
  endedByHook?: string | null;
  error?: PyException;
}

export interface SavedResult {
  id: string;
  tool_name: string;
  content: string;
  is_error: boolean;
}

export interface SessionRecord {
  cayu: string;
  turns: PlayedTurn[];
  ran: { tool_name: string; arguments: Record<string, unknown>; is_error?: boolean }[];
  /** The tool results the session's transcript kept, in order (a result it failed to save is not here). */
  saved?: SavedResult[];
  endedBy?: string;
  /** With endedBy: the session's status in the store once the run raised (running, interrupted, …). */
  sessionLeft?: string;
}
