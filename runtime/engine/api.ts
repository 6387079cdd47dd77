// The runtime's public API, shared by the CLI (`hooksmith run|simulate`) and the extension.
// Implemented in this folder (engine) on top of runtime/host (the Python side).
import type { ModelRunOptions } from './model-step';
import type { Lane } from '../catalogue';
import type { DebugListen } from '../host/host-state';
import type { HostCoverage } from '../host/protocol';

/** What became of one hook call, in the order reports list them: the one list (CLI json, expectations, fuzz counts). */
export const OUTCOMES = [
  'returned',
  'retry-model',
  'hook-rejection',
  'crashed',
  'timed-out',
  'invalid-return',
  'ignored-signal',
] as const;

export type Outcome = (typeof OUTCOMES)[number];

export interface TracebackFrame {
  file: string;
  /** 1-based. */
  line: number;
  function: string;
  text?: string;
}

export interface HookError {
  type: string;
  message: string;
  traceback: TracebackFrame[];
  /** The formatted Python traceback, as Python prints it. */
  formatted: string;
  /** A BaseException that is not an Exception (KeyboardInterrupt, SystemExit, …). */
  baseException?: boolean;
  /** A SyntaxError's place (1-based line and column), which its traceback does not hold. */
  syntax?: { file: string; line: number; column: number; text: string };
}

export interface RaisedSignal {
  type: 'RetryModel' | 'HookRejection';
  /** RetryModel feedback. */
  feedback?: string;
  /** HookRejection reason. */
  reason?: string;
  /** HookRejection response_message: the responses.yml name the user receives instead. */
  responseMessage?: string;
  /** The signal is allowed at this point and lane, so it has its meaning. */
  honoured: boolean;
}

/** The result of `hooksmith run` (DESIGN.md, CLI): the JSON fields are a public contract. */
export interface RunResult {
  engine: 'mantle' | 'cayu';
  /** Mantle point id, or Cayu phase id. */
  point: string;
  /** Mantle lane; "phase" for Cayu. */
  lane: Lane | 'phase';
  handler: string;
  file: string;
  outcome: Outcome;
  /** The payload the engine carries on with (after the payload wall), or the Cayu decision. */
  payload: unknown;
  /** The input, for diffs. */
  inputPayload: unknown;
  signal: RaisedSignal | null;
  error: HookError | null;
  durationMs: number;
  timeoutMs: number;
  /** Fail policy of the point for modify hooks; "observe" for observers; "cayu" for Cayu phases. */
  policy: 'fail-open' | 'fail-closed' | 'observe' | 'cayu';
  /** In words, what the engine does next. */
  effect: string;
  /** Notes: identity restored, model_settings keys dropped, not wired, … */
  notes: string[];
  /** What the hook printed (bounded). */
  output: string;
  /** Cayu context actions recorded (emit_custom_event, dispatch, …). */
  actions?: unknown[];
  /**
   * A Mantle hook that finished (returned or raised) after its budget: it never yielded to the
   * event loop in time, so the real engine's whole loop stalled that long. A failure (exit 1).
   */
  overBudget?: boolean;
  /** A debug run: no budget enforced; durationMs leaves out `pausedMs` (null: not counted, durationMs is `wallMs`). */
  debug?: DebugRunTiming;
  /** Cayu: the hook's `name` (a property; the class name by default), as the runtime's events name it. */
  hookName?: string;
  /** Who played the hook: "cayu 0.3.0 runtime", "rasa-pro 3.21.0 hook runner", or an emulation with why. */
  playedBy?: string;
}

export interface DebugRunTiming {
  budgetEnforced: false;
  pausedMs: number | null;
  wallMs: number;
}

export interface RunRequest {
  /** Hook module file. */
  file: string;
  /** Function name, or `Class.method` for a Cayu phase. */
  handler: string;
  payload: unknown;
}

export interface TimelineEvent {
  seq: number;
  /** Mantle: who played this call ("rasa-pro 3.21.0 hook runner", or the emulation with why). */
  playedBy?: string;
  /** Mantle point id or Cayu phase id. */
  point: string;
  lane: Lane | 'phase';
  /** "hooks/guard.py::normalize" — absent when the point fired with no hook registered. */
  hook?: string;
  outcome?: Outcome;
  durationMs?: number;
  timeoutMs?: number;
  before?: unknown;
  after?: unknown;
  signal?: RaisedSignal | null;
  error?: HookError | null;
  effect?: string;
  /** Unwired points fire only when the scenario asks, labelled so. */
  wired: boolean;
  /** A Mantle point's: on whose word it is (not) wired, "rasa-pro 3.21" (runtime/catalogue/wiring.ts). */
  wiredBy?: string;
  /** Quiet call this fired on (rephrase, confirm_rephrase, set_fields), or the main-loop iteration. */
  context?: string;
  notes: string[];
  /** What the hook printed (bounded). */
  output?: string;
  /** Cayu context actions recorded. */
  actions?: unknown[];
  /** See RunResult.overBudget. */
  overBudget?: boolean;
  /** See RunResult.debug. */
  debug?: DebugRunTiming;
  /** Cayu: the hook's `name` (a property; the class name by default), as the runtime's events name it. */
  hookName?: string;
  /** An observer: scheduled concurrently, not awaited on the turn path (its time is not the turn's). */
  offTurnPath?: boolean;
  /**
   * model_request: `before.messages` (and `after.messages` when the hook kept them) leave out
   * their first `messages` entries, the same as those of event `sameAs`'s `before.messages`:
   * each request repeats the history, and repeating it would make output grow quadratically.
   */
  elided?: { messages: number; sameAs: number };
  /** A conversation's: the 1-based turn this fired in. */
  turn?: number;
}

export interface TranscriptEntry {
  role: 'user' | 'bot' | 'tool' | 'engine';
  text: string;
  /** The bot line came from a fallback response (utter_…). */
  fallback?: string;
  /** A conversation's: the 1-based turn. */
  turn?: number;
}

/** A tool that really ran (not blocked or short-circuited by a hook), with the arguments it ran with. */
export interface ToolRun {
  tool_name: string;
  arguments: Record<string, unknown>;
  is_error: boolean;
  /** A conversation's: the 1-based turn. */
  turn?: number;
}

/** One played turn of a conversation (a `turns:` scenario). */
export interface TurnSummary {
  /** 1-based. */
  turn: number;
  /** The turn's `name`, else "turn N". */
  name: string;
  user: string;
  status: 'completed' | 'cancelled' | 'error';
  ending: string;
  iterations: number;
}

export interface SimulationResult {
  scenario: string;
  events: TimelineEvent[];
  transcript: TranscriptEntry[];
  /** The tools that ran, in order. */
  tools?: ToolRun[];
  status: 'completed' | 'cancelled' | 'error';
  /** Agent root the hooks came from. */
  agentRoot?: string;
  /** Main-loop iterations played (RetryModel re-entries included). */
  iterations?: number;
  /** Wall time of the turn path, scripted latencies included; observers still running are not in it. */
  durationMs?: number;
  /** Sum of the durations of the hooks on the turn path (observers excluded). */
  hookMs?: number;
  /** Sum of scripted LLM and tool latencies. */
  scriptedMs?: number;
  /** Why the turn ended, in words ("text answer emitted", "iteration cap reached", …). */
  ending?: string;
  /** Hooksmith itself failed mid-turn (not a hook, not the scenario): status is `error`. */
  internalError?: string;
  /**
   * The installed engine's own work did not finish the scenario within Hooksmith's deadline (no
   * hook ran past its safety stop): status `error`, no verdict, and not Hooksmith's failure.
   */
  engineUnfinished?: string;
  /**
   * A conversation (`turns:`): its turns in order. `events`, `transcript` and `tools` hold the
   * whole conversation, each entry tagged with its `turn`; `status` is `error` when a turn
   * failed, else the last turn's; `iterations` and the times are the conversation's totals.
   */
  turns?: TurnSummary[];
  /** Cayu: the BaseException (not an Exception) a hook raised, which ended the run uncaught. */
  endedBy?: string;
  /**
   * Cayu, with `endedBy`: the session's state once the run raised (runtime/engine/cayu-run-ended.ts):
   * `running` (not ended, not failed), `interrupted` (a CancelledError), or the status it had already
   * ended with (a session hook's BaseException).
   */
  sessionLeft?: string;
  /** Who played the Cayu phases ("cayu 0.3.0 runtime" or the emulation, with why); absent without Cayu hooks. */
  playedBy?: string;
  /**
   * Who played the Mantle hook calls: "rasa-pro 3.21.0 hook runner" (each call through the engine's
   * runner; the turn around them is Hooksmith's) or the emulation, with why; absent without Mantle hooks.
   */
  mantlePlayedBy?: string;
  /** Real-engine mode: each tool call's result as the runtime kept it (its tool.call.* event), in order. */
  toolResults?: { tool_name: string; content: string; is_error: boolean; event: string; turn?: number }[];
  /**
   * Real-engine mode: the tool results the session's transcript kept (what the model saw next), by
   * call id, in order. A result the runtime reported but did not save (the session failed: an
   * after-hook's modify conflicted with the terminal event; the run ended) is not here.
   */
  savedResults?: { id: string; tool_name: string; content: string; is_error: boolean }[];
  /** Real models played a part (scenario `model:`, `user_simulation:`): who, the recording, each exchange. */
  models?: ModelsPlayed;
}

export interface PlayedModel {
  provider: string;
  model: string;
  base_url: string;
}

export interface ModelsPlayed {
  /** The model that played the agent (absent: scripted completions played it). */
  agent?: PlayedModel;
  /** The model that played the user (`user_simulation`). */
  user?: PlayedModel;
  record: 'missing' | 'all' | 'none';
  /** The cassette file (absent for an inline scenario). */
  cassette?: string;
  /** The cassette was written by this run (by the command that owns it: testing/save-cassette.ts). */
  saved?: boolean;
  /**
   * The cassette this run recorded, not yet written: the command that owns the run writes it
   * atomically (saveCassette), which removes this and sets `saved`.
   */
  unsaved?: { file: string; text: string };
  exchanges: {
    role: 'agent' | 'user';
    turn: number;
    latencyMs: number;
    /** replayed from the cassette, or called: a fresh call to the model. */
    source: 'replayed' | 'called';
    fault?: string;
  }[];
  /** The cassette could not answer: an exchange it lacks, or a request that differs from the recorded one. */
  failure?: string;
  /** The variables holding the models' keys (api_key_env), and whether each is set here. */
  keys?: { env: string; set: boolean }[];
}

export interface HookRunnerOptions {
  /** Python interpreter; default python3. */
  python?: string;
  /** Log sink for the host's stderr and lifecycle lines. */
  log?: (line: string) => void;
  /** Folders a scenario's `agent:` may name besides the scenario's own folder tree (the workspace; the CLI's cwd). */
  workspaceRoots?: () => readonly string[];
  /** The hooksmith.mantle.wiredPoints setting (null/undefined: follow the installed rasa-pro). */
  wiredPoints?: () => readonly string[] | null | undefined;
  /** Who lists `wiredPoints` (default: the setting); the CLI says its option. */
  wiredBy?: string;
  /** A debug run: the host waits for a DAP client at this address first and enforces no budget. */
  debug?: DebugListen;
  /** The Python host's memory limit in MiB (0: none; default 4096): a hook over it gets MemoryError. */
  memoryLimitMb?: number;
  /**
   * Who plays Cayu phases (auto, real, emulation: engine-mode.ts), read at each run: the editor's
   * hooksmith.cayu.engine, the CLI's --cayu-engine; unset or not a mode: HOOKSMITH_CAYU_ENGINE, else auto.
   */
  cayuEngine?: () => string | undefined;
  /**
   * Hooksmith's safety stop for a Cayu hook that never returns, in seconds (cayu-safety-stop.ts),
   * read at each run: the editor's hooksmith.cayu.safetyStopSeconds, the CLI's --cayu-safety-stop;
   * unset or out of range: HOOKSMITH_CAYU_SAFETY_STOP_S, else 120.
   */
  cayuSafetyStopS?: () => number | undefined;
  /**
   * Who plays Mantle hook calls (auto, real, emulation: mantle-engine.ts), read at each call: the
   * editor's hooksmith.mantle.engine, the CLI's --mantle-engine; unset or not a mode:
   * HOOKSMITH_MANTLE_ENGINE, else auto.
   */
  mantleEngine?: () => string | undefined;
  /**
   * The Mantle API line the host speaks (HOOKSMITH_MANTLE_LINE; the caller selected it in this
   * process with selectEngineLine). Default: the environment's (the CLI sets it).
   */
  mantleLine?: string;
  /** How real models are played (--record, --model, repeats). */
  models?: ModelRunOptions;
  /**
   * Measure line and branch coverage (runtime/testing/coverage): the host starts coverage.py before
   * any user code, and each answer's coverage of the call's agent goes here.
   */
  coverage?: (answer: HostCoverage, agentRoot: string) => void;
}
