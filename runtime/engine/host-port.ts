// What the engine needs from the Python host: invoke one hook, get back raw facts.
// The semantics (outcome, policy, effect) live in the engine; the host only reports
// what Python did. `host-adapter.ts` maps runtime/host's PythonHost onto this port, and
// unit tests drive the engine with a scripted port.
import type { ControlSignal, CayuPhaseId, PayloadTypeName } from '../catalogue';
import type { HookError } from './api';
import type { MantleRunnerDecision } from '../host/protocol';

export interface HostCall {
  /** Agent root: on sys.path, and names the module. */
  agentRoot: string;
  /** Absolute path of the hook module. */
  file: string;
  /** `cayu-real`: the whole scenario in the installed Cayu runtime (engine/cayu-real/). */
  engine: 'mantle' | 'cayu' | 'cayu-real';
  /** Mantle: the function name. Cayu: the method name (the phase id). */
  function: string;
  /** Cayu: the RuntimeHook subclass. */
  className?: string;
  /** Mantle: the payload type to build from `payload`. */
  payloadType?: PayloadTypeName;
  /** Cayu: the phase, which decides the context type. */
  phase?: CayuPhaseId;
  /** Mantle: the point and lane (the engine's runner registers the hook with them). */
  point?: string;
  lane?: 'observe' | 'modify';
  /** Mantle: play it through the installed rasa-pro's hook runner where it imports (protocol.ts). */
  mantleRunner?: boolean;
  /** Mantle: the payload fields (identity included). Cayu: the context data (cayu-context.ts). */
  payload: unknown;
  timeoutMs: number;
  /** cayu-real: the safety stop of each hook the runtime calls (protocol.ts hookTimeoutMs). */
  hookTimeoutMs?: number;
  /** The app the call belongs to: its calls share modules and Cayu hook instances (protocol.ts). */
  app?: string;
}

/** What the hook returned, as Python saw it. */
export type ReturnedValue =
  | { kind: 'none' }
  /** An instance of a payload model: its class name and fields (model_dump). */
  | { kind: 'payload'; type: string; data: Record<string, unknown> }
  /** A Cayu decision model instance: its class name and fields. */
  | { kind: 'decision'; type: string; data: Record<string, unknown> }
  /** What the installed Cayu runtime did with a whole scenario (engine/cayu-real/). */
  | { kind: 'cayu-session'; data: unknown }
  /** Anything else: a dict, a str, a list … with its Python type name and repr. */
  | { kind: 'other'; pythonType: string; repr: string };

export interface RaisedFact {
  kind: 'raised';
  error: HookError;
  /** Set when the exception is RetryModel / HookRejection (shim or real class). */
  signal?: { type: ControlSignal; feedback?: string; reason?: string; responseMessage?: string };
  durationMs: number;
  output: string;
  actions?: unknown[];
}

export type HostFact = (
  | { kind: 'returned'; value: ReturnedValue; durationMs: number; output: string; actions?: unknown[] }
  | RaisedFact
  /** The deadline passed: cancelled cooperatively, or the host was killed (`hard`). */
  /** runtime: cayu-real, the installed runtime's own time ran out with no hook running. */
  | { kind: 'timed-out'; durationMs: number; hard: boolean; runtime?: boolean; output: string }
  /** The host process died under the hook (segfault, os._exit, …). */
  | { kind: 'crashed'; message: string; durationMs: number; output: string }
  /** The module could not be imported or the handler is missing. */
  | { kind: 'load-error'; error: HookError; output: string }
) & {
  /** What the host noticed beside the result (payload mutated, sync handler, …), in words. */
  hostNotes?: string[];
  /** A debug run (no budget enforced): the time paused in the debugger, included in durationMs (null: not counted). */
  debug?: { pausedMs: number | null };
  /** Cayu: the hook instance's `name`. */
  hookName?: string;
  /** Mantle: who played the call, as the Mantle player names it (engine/mantle-real/). */
  playedBy?: string;
  /** Mantle: the installed rasa-pro's version, when its runner played the call. */
  rasaPro?: string;
  /** Mantle in real-engine mode: what rasa-pro's runner decided. */
  runner?: MantleRunnerDecision;
};

export interface HostPort {
  invoke(call: HostCall): Promise<HostFact>;
  /** A run or simulation ended: nothing the hooks started may outlive it. */
  endRun?(): void;
  dispose(): Promise<void>;
}

let apps = 0;

/**
 * The port for one app of the engine (a scenario with all its turns, a fuzz batch): every call
 * names the same new app, so they share the agent's modules and the Cayu hook instances, and the
 * first starts from freshly imported modules (host/protocol.ts `app`).
 */
export function oneApp(host: HostPort): HostPort {
  const app = `app-${process.pid}-${++apps}`;
  return {
    invoke: (call) => host.invoke({ ...call, app }),
    endRun: () => host.endRun?.(),
    dispose: () => host.dispose(),
  };
}
