// The state PythonHost keeps per host process and per call, and who is to blame when a call's
// deadline passes: the call itself, another call holding the loop, a cancelled hook that kept
// running, or an import. The host's watchdog says which call's code holds a stalled loop.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { CrashedResult, InvokeRequest, InvokeResult } from './protocol';

/** The options of PythonHost (python-host.ts). */
export interface PythonHostOptions {
  /** Interpreter to run; default `python3`. */
  python?: string;
  /** Sink for the host's stderr (hook-module stderr, tracebacks of stray tasks) and lifecycle lines. */
  log?: (line: string) => void;
  /** Added to each request's timeoutMs before the process is killed (default 250 ms). */
  graceMs?: number;
  /** Time allowed for importing a hook module (default 30 s). */
  loadBudgetMs?: number;
  /** Time allowed from spawn to the hello answer (default 15 s). */
  startTimeoutMs?: number;
  /** Path of hooksmith_host.py; default: found beside the bundle or the source. */
  hostScript?: string;
  /** Longest protocol line accepted from the host (default: room for a value and a payload at the size limit). */
  maxLineBytes?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The host's address-space limit in MiB (RLIMIT_AS, set before any user code; 0: none). Default 4096. */
  memoryLimitMb?: number;
  /** A debug run (debug.ts): the host waits for a DAP client at this address; no deadline applies. */
  debug?: DebugListen;
}

export interface DebugListen {
  /** `host:port` for debugpy.listen (port 0: any free port). */
  address: string;
  /** The address debugpy listens at, once it does (the host then waits for the client). */
  onListening?: (address: string) => void;
}

/** A log sink whose failures never reach the protocol handlers. */
export function safeSink(sink?: (line: string) => void): (line: string) => void {
  return (line) => {
    try {
      sink?.(line);
    } catch {
      // a failing log sink must not break the protocol handlers
    }
  };
}

export interface ExitStatus {
  code: number | null;
  signal: string | null;
}

export function crashedResult(
  proc: Proc,
  reason: string,
  durationMs: number,
  exit?: ExitStatus,
): CrashedResult {
  const stderrTail = proc.stderrTail.join('\n');
  const { code: exitCode = null, signal = null } = exit ?? {};
  return { status: 'crashed', exitCode, signal, reason, stderrTail, durationMs, output: empty };
}

/** Milliseconds since the request was written, to the microsecond. */
export const elapsedMs = (p: Pending): number => Math.round((performance.now() - p.sentAt) * 1000) / 1000;

const STDERR_TAIL_LINES = 40;

/** Keeps the host's last stderr lines, for crash reports. */
export function keepStderrLine(proc: Proc, line: string): void {
  proc.stderrTail.push(line);
  if (proc.stderrTail.length > STDERR_TAIL_LINES) proc.stderrTail.shift();
}

/** The last stderr lines, as a suffix for an error message. */
export const stderrTailText = (proc: Proc): string =>
  proc.stderrTail.length ? `:\n${proc.stderrTail.slice(-10).join('\n')}` : '';

export const empty = { text: '', droppedChars: 0 };
export const label = (req: InvokeRequest): string => `${req.file}::${req.handler}`;

export interface Pending {
  id: number;
  req: InvokeRequest;
  line: string;
  resolve: (r: InvokeResult) => void;
  reject: (e: unknown) => void;
  sentAt: number;
  timer?: NodeJS.Timeout;
  loading: boolean;
  /** Its deadline passed while an import or another hook held the loop: re-armed when that ends. */
  deferred: boolean;
  /** What held the loop while it waited, for the note on its result. */
  starvedBy?: string;
  /** Sent again to a fresh host after a restart it did not cause; why. */
  resent: number;
  resentWhy?: string;
  /** cayu-real (hookTimeoutMs): whether one of its hooks holds the stalled loop; the scenario's deadline. */
  hooks?: { blocked: boolean; deadlineAt: number };
}

export function newPending(
  id: number,
  req: InvokeRequest,
  line: string,
  resolve: Pending['resolve'],
  reject: Pending['reject'],
): Pending {
  return { id, req, line, resolve, reject, sentAt: 0, loading: false, deferred: false, resent: 0 };
}

/** One spawned host process and the requests in flight on it. */
export interface Proc {
  child: ChildProcessWithoutNullStreams;
  pending: Map<number, Pending>;
  loadingCount: number;
  stderrTail: string[];
  /** Request id the host's watchdog says holds the stalled loop (null: no request's code); undefined: not stalled. */
  blocker?: number | null;
  /** Requests answered `timed-out` cooperatively whose cancelled task may still run: id → hook. */
  cancelled: Map<number, string>;
  /** Set when we kill it on purpose, so the exit handler does not report again. */
  killedByUs: boolean;
  exited: boolean;
}

/** A process about to be spawned: its child is set once it is (launch's onSpawn). */
export function newProc(): Proc {
  const proc = {
    pending: new Map(),
    loadingCount: 0,
    stderrTail: [],
    cancelled: new Map(),
    killedByUs: false,
  };
  return { ...proc, exited: false } as Omit<Proc, 'child'> as Proc;
}

export type DeadlineVerdict =
  /** Something else holds the loop within its own budget: wait for its verdict. */
  | { kind: 'defer'; starvedBy: string }
  /** No call in flight is to blame: restart the host and send them all again. */
  | { kind: 'restart'; why: string }
  /** `guilty` blocked the loop (or its import never ended): it times out, the others go again. */
  | { kind: 'kill'; guilty: Pending; why: string };

export function judgeDeadline(proc: Proc, p: Pending, loadBudgetMs: number): DeadlineVerdict {
  const blocker = proc.blocker;
  const holder = typeof blocker === 'number' ? proc.pending.get(blocker) : undefined;
  if (!p.loading && proc.loadingCount > 0)
    return { kind: 'defer', starvedBy: 'another hook module’s import' };
  if (holder && holder !== p && holder.timer) return { kind: 'defer', starvedBy: label(holder.req) };
  if (blocker !== undefined && !holder)
    return {
      kind: 'restart',
      why:
        blocker !== null && proc.cancelled.has(blocker)
          ? `${proc.cancelled.get(blocker)} ignored its cancellation after timing out and held the event loop`
          : 'code outside any hook call (a task a hook left behind) held the event loop',
    };
  const guilty = holder ?? p;
  return {
    kind: 'kill',
    guilty,
    why: guilty.loading
      ? `importing ${guilty.req.file} took more than ${loadBudgetMs} ms`
      : `${label(guilty.req)} blocked the event loop past its ${guilty.req.timeoutMs} ms deadline`,
  };
}
