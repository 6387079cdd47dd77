// The line-delimited JSON protocol between PythonHost (TypeScript) and hooksmith_host.py.
// One request line in, one response line out (plus `loading`/`started` events when a
// module has to be imported). Every line carries the request `id` as its first key.
// These are RAW results: the engine (runtime/engine) maps them to engine semantics
// (fail policies, payload wall, which signals count where, invalid returns).
import type { CayuPhaseId, PayloadTypeName } from '../catalogue';

/** `cayu-real`: a whole Cayu scenario played by the installed runtime (real-engine mode). */
export type HookKind = 'mantle' | 'cayu' | 'cayu-real';

/**
 * The host's stderr line before an app's first call (hooksmith_host.py): a crash report keeps
 * only the lines after it, so it names what the crashing app printed, not what earlier apps
 * on that host did (which apps a host plays depends on `hooksmith test -j`).
 */
export const APP_START_LINE = '\x1ehooksmith-app-start';

/** What the engine asks the host to run. */
export interface InvokeRequest {
  /** Agent root: put on sys.path (so `lib/` imports work) and used to name the module. */
  agentRoot: string;
  /** Hook module file, absolute or relative to agentRoot. */
  file: string;
  /** `fn` for a Mantle hook, `Class.method` for a Cayu phase (the class is built with no args). */
  handler: string;
  kind: HookKind;
  /** Mantle: payload class name of rasa.mantle.hooks to build the argument from. */
  payloadType?: PayloadTypeName;
  /** Cayu: the phase whose context is built from `payload`. */
  phase?: CayuPhaseId;
  /** Mantle: the point and lane, for the engine's own runner where rasa-pro is importable (mantle_real.py). */
  point?: string;
  lane?: 'observe' | 'modify';
  /**
   * Mantle: play the call through the installed rasa-pro's hook runner where it imports (the
   * Mantle player, engine/mantle-real/, asks); absent: Hooksmith's emulation plays it.
   */
  mantleRunner?: boolean;
  /**
   * Mantle: the payload's fields (identity included). Cayu: the context's data:
   * {tool_name, tool_call_id, arguments, result: ToolResult fields, session, terminal_event, task_id}.
   */
  payload: unknown;
  /** Cooperative timeout inside the host; PythonHost kills the process at timeoutMs + grace. */
  timeoutMs: number;
  /**
   * cayu-real: Hooksmith's safety stop for each hook the runtime calls. The host stops a hook that
   * awaits past it; when the watchdog says a hook of this request holds the stalled loop, PythonHost
   * kills the host past this (+ grace) instead of at the scenario's deadline (`timeoutMs`).
   */
  hookTimeoutMs?: number;
  /**
   * The app this call belongs to (an id the caller picks; none: the call is an app of its own).
   * A call naming another app than the host's current one starts an app, as one start of the
   * engine: the process state put back, the agent's modules imported afresh, new Cayu hook
   * instances. The later calls of the same app share its modules and hook instances.
   */
  app?: string;
}

/**
 * What rasa-pro's hook runner decided for one call (rasa/mantle/hooks/runner.py): its outcome
 * (types.py HookOutcome), the HookExecutionError a fail-closed point raised, the control signal it
 * passed on, and the payload it handed back (identity restored).
 */
export interface MantleRunnerDecision {
  /** The installed rasa-pro's version. */
  rasaPro: string;
  outcome: 'success' | 'timeout' | 'error' | 'rejection' | 'retry';
  executionError: string | null;
  controlFlow: string | null;
  timeoutMs: number;
  payload?: unknown;
}

/** A Python type, for the returned value or a raised exception. */
export interface PyType {
  /** `ModelResponsePayload`, `dict`, `NoneType`. */
  name: string;
  /** `rasa.mantle.hooks`, `builtins`. */
  module: string;
  /** `module.Qualname`, e.g. `rasa.mantle.hooks.RetryModel`. */
  qualname: string;
}

export interface HostTracebackFrame {
  file: string;
  /** 1-based. */
  line: number;
  function: string;
  text?: string;
}

/** A Python exception, described. Host frames are stripped from the traceback. */
export interface PyException {
  type: PyType;
  message: string;
  /** RetryModel feedback (positional or `feedback=`), when the exception carries one. */
  feedback?: string;
  /** HookRejection reason, when the exception carries one. */
  reason?: string;
  /** HookRejection response_message: the responses.yml name the engine sends the user instead. */
  responseMessage?: string;
  /** The exception is one of rasa.mantle.hooks' control signals (real or shim class). */
  signal: 'RetryModel' | 'HookRejection' | null;
  /** Not an Exception subclass (SystemExit, KeyboardInterrupt, bare BaseException). */
  baseException: boolean;
  traceback: HostTracebackFrame[];
  /** As Python prints it. */
  formatted: string;
  /** SyntaxError details (load errors). */
  syntax?: { file: string; line: number; column: number; text: string };
}

/** What the hook printed to sys.stdout (bounded: the first 64 KiB are kept). */
export interface CapturedOutput {
  text: string;
  /** Characters dropped past the bound. */
  droppedChars: number;
}

/** `fn.__hooksmith__` as recorded by a shim decorator (absent under the real rasa). */
export interface DecoratorInfo {
  decorator: string;
  point: string;
  lane: 'observe' | 'modify';
  timeoutMs: number | null;
}

/** A call a Cayu hook made on its context (recorded, answered with a harmless fake). */
export interface CayuContextAction {
  method: 'emit_custom_event' | 'dispatch' | 'dispatch_inline' | 'create_task' | 'fork_session';
  args: unknown[];
  kwargs: Record<string, unknown>;
}

interface ResultBase {
  id?: number;
  /** Measured in the host around the hook body (await included); wall time from PythonHost for kills/crashes. */
  durationMs: number;
  output: CapturedOutput;
  /** The imported module name (`hooks.redact_pii`), when the load got that far. */
  module?: string;
  /** Whether this call imported the module afresh, reused it, or reloaded it after a change. */
  load?: 'fresh' | 'cached';
  decorator?: DecoratorInfo | null;
  /** The handler was a plain function (not async): it ran synchronously, its value was not awaited. */
  handlerWasSync?: boolean;
  /** Mantle: the hook mutated the payload object it received (observe-mutation); its state after the call. */
  payloadMutated?: boolean;
  payloadAfter?: unknown;
  /** Cayu: the class overrides this phase's method (a RuntimeHook takes part only in phases it overrides). */
  overridesPhase?: boolean;
  /** Cayu: `RuntimeHook.name` of the instance. */
  hookName?: string;
  /** Mantle: the installed rasa-pro's version, when its runner played the call (the request asked). */
  rasaPro?: string;
  /** Mantle in real-engine mode: what rasa-pro's runner decided (run_modify / run_observers). */
  mantleRunner?: MantleRunnerDecision;
  /** Cayu: the hook mutated its (read-only) copy of context.arguments — a no-op the engine warns about. */
  argumentsMutated?: boolean;
  /** Cayu: context actions recorded in call order. */
  actions?: CayuContextAction[];
  /** Standard-library names the call rebound or deleted (`asyncio.wait`): the host restarts after it. */
  hostChanged?: string[];
  /** A host started with HOOKSMITH_COVERAGE=1: what ran since its previous answer (host coverage.py). */
  coverage?: HostCoverage;
  /** Another call (or an import) held the event loop while this one waited: its `file::handler`. */
  starvedBy?: string;
  /** The call was sent again to a fresh host after a restart another cause made: that cause. */
  resentAfter?: string;
  /** A debug run (no budget enforced): the time the hook spent paused in the debugger (null: not counted). */
  debug?: { pausedMs: number | null };
}

export interface ReturnedResult extends ResultBase {
  status: 'returned';
  /** JSON of the returned value (`model_dump(mode="json")` for models); a repr string when unserialisable. */
  value: unknown;
  valueType: PyType;
  /** The value could not be serialised to JSON; `value` is its repr. */
  unserialisable?: boolean;
  /** The JSON exceeded the host's bound; `value` is a prefix of the JSON text. */
  truncated?: boolean;
}

export interface RaisedResult extends ResultBase {
  status: 'raised';
  exception: PyException;
}

export interface TimedOutResult extends ResultBase {
  status: 'timed-out';
  /** false: the host cancelled the task (cooperative); true: PythonHost killed the process (blocked loop). */
  killed: boolean;
  timeoutMs: number;
  /**
   * `import`: the module's import did not finish within PythonHost's load budget (only with killed).
   * `runtime`: cayu-real, no hook blocking the loop: the installed runtime's own time ran out.
   */
  during?: 'import' | 'hook' | 'runtime';
  /** With `during: import`: the budget the import exceeded. */
  loadBudgetMs?: number;
}

export interface CrashedResult extends ResultBase {
  status: 'crashed';
  exitCode: number | null;
  signal: string | null;
  /** Why, in words: "the Python host exited with code 3", "host restarted: … blocked the event loop". */
  reason: string;
  /** Last lines of the host's stderr. */
  stderrTail: string;
  /** `import`: the host exited while the module was imported (the module does not load). */
  during?: 'import' | 'hook';
}

export interface LoadErrorResult extends ResultBase {
  status: 'load-error';
  /**
   * import: the module raised or has a syntax error; handler: no such function/class/method; instantiate: the
   * Cayu class raised in __init__.
   */
  stage: 'import' | 'handler' | 'instantiate';
  exception: PyException;
}

/** The request itself was wrong (unknown payload type or phase, payload that does not build). */
export interface InvalidRequestResult extends ResultBase {
  status: 'invalid-request';
  message: string;
}

export type InvokeResult =
  ReturnedResult | RaisedResult | TimedOutResult | CrashedResult | LoadErrorResult | InvalidRequestResult;

export type InvokeStatus = InvokeResult['status'];

/**
 * Line and branch coverage of the agent's files since the host's previous answer (absolute paths).
 * `described`: a file's statements and branch destinations (by its line), sent when first seen or
 * changed. `error`: coverage.py is missing or failed (what to install).
 */
export interface HostCoverage {
  files?: Record<string, { lines: number[]; arcs: [number, number][] }>;
  described?: Record<string, { statements: number[]; branches: [number, number[]][] }>;
  error?: string;
}

/** The host's answer to `hello`. */
export interface HelloInfo {
  python: string;
  executable: string;
  pid: number;
  /** The real `rasa.mantle.hooks` was importable (else the shim serves it). */
  realMantle: boolean;
  /** The real `cayu.observability` was importable (else the shim serves it). */
  realCayu: boolean;
  /** Linux: the host is a child subreaper, so every process a hook starts stays in its tree. */
  subreaper?: boolean;
  /** A debug run: a DAP client attached before the hello. */
  debug?: boolean;
  /** A debug run that could not start (debugpy missing, the port taken): why. */
  debugError?: string;
}

// ---- Wire shapes (PythonHost ↔ hooksmith_host.py) ----

export type HostRequest =
  | { id: number; op: 'hello' }
  /** sentAt: PythonHost's wall clock (ms) when it wrote the request (see HostEvent `started`). */
  | ({ id: number; op: 'invoke'; sentAt?: number } & InvokeRequest)
  | { id: number; op: 'shutdown' };

export interface HostEvent {
  id: number | null;
  /**
   * `loading` before an import; `started` / `ended` around the hook body (its deadline applies
   * between them; `started` only when the body starts more than a few ms after `sentAt`, else
   * the deadline runs from the request); `blocking` (the watchdog: request `id` holds the stalled loop, null: no
   * request's code) and `resumed`; `debug-listening` (a debug run, before the hello: debugpy
   * listens at `address` and the host waits for a client to attach).
   */
  event: 'loading' | 'started' | 'ended' | 'blocking' | 'resumed' | 'debug-listening';
  address?: string;
}

export type HostResponse =
  | ({ id: number; status: 'hello' } & HelloInfo)
  | ({ id: number } & InvokeResult)
  | { id: number; status: 'bye' }
  | { id: number; status: 'protocol-error'; message: string }
  /** An earlier case left the host broken (a thread still running, fds used up): restart, send again. */
  | { id: number; status: 'host-stale'; message: string }
  /** The host's own code failed: PythonHost restarts it and sends the call again. */
  | { id: number; status: 'host-error'; message: string };
