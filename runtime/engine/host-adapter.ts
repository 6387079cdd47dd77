// runtime/host's raw InvokeResult → the engine's HostFact. The only file that knows the
// wire protocol's shapes; everything after it works on HostFact.
import { CAYU_DECISIONS, PAYLOAD_TYPE_NAMES } from '../catalogue';
import type { CapturedOutput, InvokeRequest, InvokeResult, PyException, PyType } from '../host/protocol';
import type { HookError } from './api';
import type { HostCall, HostFact, HostPort, ReturnedValue } from './host-port';
import { stringifyJson } from '../json/lossless-json';

/** What the engine needs of runtime/host's PythonHost. */
export interface RawHost {
  invoke(req: InvokeRequest): Promise<InvokeResult>;
  endRun?(): void;
  dispose(): Promise<void> | void;
}

const DECISION_NAMES = new Set<string>(CAYU_DECISIONS.map((d) => d.name));

export class HostInvocationError extends Error {}

function outputText(o: CapturedOutput | undefined): string {
  if (!o) return '';
  return o.droppedChars ? `${o.text}\n… (${o.droppedChars} more characters dropped)` : o.text;
}

export function hookError(e: PyException): HookError {
  return {
    type: e.type.name,
    message: e.message,
    traceback: e.traceback,
    formatted: e.formatted,
    ...(e.baseException ? { baseException: true } : {}),
    ...(e.syntax ? { syntax: e.syntax } : {}),
  };
}

function repr(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return stringifyJson(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function returnedValue(value: unknown, type: PyType, unserialisable = false): ReturnedValue {
  if (type.name === 'NoneType') return { kind: 'none' };
  if (type.name === 'CayuRealSession') return { kind: 'cayu-session', data: value };
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value) && !unserialisable;
  // The live list: the selected Mantle API line respells it in place (OutgoingMessagePayload).
  if (isObject && (PAYLOAD_TYPE_NAMES as readonly string[]).includes(type.name))
    return { kind: 'payload', type: type.name, data: value as Record<string, unknown> };
  if (isObject && DECISION_NAMES.has(type.name))
    return { kind: 'decision', type: type.name, data: value as Record<string, unknown> };
  return {
    kind: 'other',
    pythonType: type.module === 'builtins' ? type.name : type.qualname,
    repr: repr(value),
  };
}

function notesOf(r: InvokeResult): string[] {
  const notes: string[] = [];
  if (r.handlerWasSync)
    notes.push(
      'the handler is not async: the engine rejects synchronous handlers at validation (sync-handler)',
    );
  if (r.payloadMutated)
    notes.push(
      'the hook mutated the payload object it received in place; the engine only uses a returned payload (copy with model_copy(update=...))',
    );
  if (r.argumentsMutated)
    notes.push('the hook mutated context.arguments: a no-op, the arguments are a read-only copy');
  if (r.hostChanged?.length)
    notes.push(
      `the hook rebound ${r.hostChanged.join(', ')} in the interpreter it shares with every hook: Hooksmith restarted its Python host so that no later run sees it`,
    );
  if (r.resentAfter)
    notes.push(`run again on a fresh Python host, which was restarted because ${r.resentAfter}`);
  if (r.starvedBy)
    notes.push(`${r.starvedBy} held the event loop while this hook waited (one loop runs every hook)`);
  return notes;
}

export function toHostFact(r: InvokeResult): HostFact {
  const fact = factOf(r);
  const withDebug: HostFact = r.debug ? { ...fact, debug: r.debug } : fact;
  if (r.rasaPro !== undefined) withDebug.rasaPro = r.rasaPro;
  if (r.mantleRunner && withDebug.kind !== 'load-error') withDebug.runner = r.mantleRunner;
  return r.hookName !== undefined ? { ...withDebug, hookName: r.hookName } : withDebug;
}

/** The engine signal a hook raised (feedback / reason as it gave them), if its exception is one. */
function signalOf(e: PyException) {
  if (!e.signal) return undefined;
  return {
    type: e.signal,
    ...(e.feedback !== undefined ? { feedback: e.feedback } : {}),
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    ...(e.responseMessage !== undefined ? { responseMessage: e.responseMessage } : {}),
  };
}

function factOf(r: InvokeResult): HostFact {
  const output = outputText(r.output);
  const hostNotes = notesOf(r);
  const actions = r.actions;
  switch (r.status) {
    case 'returned':
      return {
        kind: 'returned',
        value: returnedValue(r.value, r.valueType, r.unserialisable),
        durationMs: r.durationMs,
        output,
        actions,
        hostNotes,
      };
    case 'raised': {
      const signal = signalOf(r.exception);
      return {
        kind: 'raised',
        error: hookError(r.exception),
        ...(signal ? { signal } : {}),
        durationMs: r.durationMs,
        output,
        actions,
        hostNotes,
      };
    }
    case 'timed-out':
      if (r.during === 'import')
        // The module never finished importing: like an import that raised, the engine cannot load it.
        return {
          kind: 'load-error',
          error: {
            type: 'TimeoutError',
            message: `importing the module did not finish within ${r.loadBudgetMs ?? '?'} ms (a loop or a blocking call at import time?)`,
            traceback: [],
            formatted: '',
          },
          output,
          hostNotes,
        };
      return {
        kind: 'timed-out',
        durationMs: r.durationMs,
        hard: r.killed,
        ...(r.during === 'runtime' ? { runtime: true } : {}),
        output,
        hostNotes,
      };
    case 'crashed':
      if (r.during === 'import')
        // Like an import that raised: the engine cannot load a module whose import ends the process.
        return {
          kind: 'load-error',
          error: {
            type: 'HostExit',
            message: `${r.reason} (os._exit or a crash in native code during the import)`,
            traceback: [],
            formatted: r.stderrTail,
          },
          output,
          hostNotes,
        };
      return {
        kind: 'crashed',
        message: r.stderrTail ? `${r.reason}\n${r.stderrTail}` : r.reason,
        durationMs: r.durationMs,
        output,
        hostNotes,
      };
    case 'load-error':
      return { kind: 'load-error', error: hookError(r.exception), output, hostNotes };
    case 'invalid-request':
      throw new HostInvocationError(r.message);
  }
}

export function toInvokeRequest(call: HostCall): InvokeRequest {
  return {
    agentRoot: call.agentRoot,
    file: call.file,
    handler: call.className ? `${call.className}.${call.function}` : call.function,
    kind: call.engine,
    ...(call.payloadType ? { payloadType: call.payloadType } : {}),
    ...(call.phase ? { phase: call.phase } : {}),
    ...(call.point ? { point: call.point, lane: call.lane } : {}),
    ...(call.mantleRunner ? { mantleRunner: true } : {}),
    payload: call.payload,
    timeoutMs: call.timeoutMs,
    ...(call.hookTimeoutMs !== undefined ? { hookTimeoutMs: call.hookTimeoutMs } : {}),
    ...(call.app ? { app: call.app } : {}),
  };
}

export function hostPort(raw: RawHost): HostPort {
  return {
    invoke: async (call) => toHostFact(await raw.invoke(toInvokeRequest(call))),
    endRun: () => raw.endRun?.(),
    dispose: async () => {
      await raw.dispose();
    },
  };
}
