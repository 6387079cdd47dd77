// runHook: one hook under the engine's rules. Check the module, find the handler, validate the
// payload, invoke it in the host with the hook's timeout, and say what the engine does next.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HookDiagnostic } from '../rules/diagnostics';
import type { HookError, RunRequest, RunResult } from './api';
import { cayuDelayNote, cayuVerdict } from './cayu-outcome';
import { validateCayuContext } from './cayu-context';
import { debugRunNote, overBudgetNote } from './effects';
import { HostInvocationError } from './host-adapter';
import type { HostPort } from './host-port';
import { describeTarget, locateHook, type HookTarget } from './hook-locator';
import { mantleVerdict } from './mantle-outcome';
import { formatDiagnostic, refusing, type ModuleChecker } from './module-check';
import { unfaithfulJson } from '../json/json-faithful';
import { validatePayload } from './payload-input';
import { pointWired, type WiringSource } from '../catalogue/wiring';
import { spelledPoint } from '../catalogue';

/**
 * The run could not start: bad input (exit 2). `details` are one line each; `diagnostics` the errors that
 * block a 'check'.
 */
export class RunInputError extends Error {
  constructor(
    readonly kind: 'file' | 'handler' | 'check' | 'payload' | 'load',
    message: string,
    readonly details: string[] = [],
    readonly diagnostics: HookDiagnostic[] = [],
    /** kind 'load': the exception the module raised while it was imported (its frames, its place). */
    readonly loadError?: HookError,
  ) {
    super(message);
  }
}

export interface RunDeps {
  host: HostPort;
  checker: ModuleChecker;
  /** Whether the engine invokes each point (the installed rasa-pro, the setting); else the catalogue. */
  wiring?: () => Promise<WiringSource | undefined>;
  /** The run's Cayu safety stop (ms): a phase's budget (hook-locator.ts). */
  safetyStopMs?: number;
}

/** Invokes an already located hook with a validated input; the simulator calls this directly. */
export async function invokeHook(
  host: HostPort,
  file: string,
  agentRoot: string,
  target: HookTarget,
  input: Record<string, unknown>,
  wiring?: WiringSource,
): Promise<RunResult> {
  let fact;
  try {
    fact = await host.invoke({
      agentRoot,
      file,
      engine: target.engine,
      function: target.engine === 'cayu' ? target.phase : target.handler,
      ...(target.engine === 'cayu'
        ? { className: target.className, phase: target.phase }
        : { payloadType: target.point.payloadType, point: target.point.id, lane: target.lane }),
      payload: input,
      timeoutMs: target.timeoutMs,
    });
  } catch (err) {
    if (err instanceof HostInvocationError)
      throw new RunInputError('payload', `the host refused the payload: ${err.message}`);
    throw err;
  }
  if (fact.kind === 'load-error') {
    throw new RunInputError(
      'load',
      `${path.basename(file)} failed to load: ${fact.error.type}: ${fact.error.message}`,
      fact.error.formatted ? [fact.error.formatted] : [],
      [],
      fact.error,
    );
  }
  const verdict =
    target.engine === 'mantle'
      ? mantleVerdict(target.point, target.lane, input, fact, pointWired(target.point, wiring))
      : cayuVerdict(target.phase, input, fact);
  // Cayu has no budget (its limit is Hooksmith's safety stop); a Mantle hook past its budget that
  // still finished never let the cooperative timeout run.
  const debug = fact.debug;
  // A debug run enforces no budget: its time (a debugger slows code, pauses stop it) judges nothing.
  const overBudget =
    !debug &&
    target.engine === 'mantle' &&
    (fact.kind === 'returned' || fact.kind === 'raised') &&
    fact.durationMs > target.timeoutMs;
  if (overBudget) verdict.notes.unshift(overBudgetNote(fact.durationMs, target.timeoutMs));
  const wallMs = fact.durationMs;
  if (debug) verdict.notes.unshift(debugRunNote(wallMs, debug.pausedMs, target.timeoutMs));
  const durationMs = debug?.pausedMs != null ? Math.max(0, wallMs - debug.pausedMs) : wallMs;
  return {
    engine: target.engine,
    // The line's spelling (outgoing_message on the newest Mantle line): what the user reads.
    point: target.engine === 'mantle' ? spelledPoint(target.point.id) : target.phase,
    lane: target.engine === 'mantle' ? target.lane : 'phase',
    handler: target.handler,
    file,
    ...verdict,
    inputPayload: input,
    durationMs: Math.round(durationMs * 10) / 10,
    timeoutMs: target.timeoutMs,
    notes: [...verdict.notes, ...(fact.hostNotes ?? [])],
    output: fact.output,
    ...(fact.kind === 'returned' || fact.kind === 'raised'
      ? fact.actions?.length
        ? { actions: fact.actions }
        : {}
      : {}),
    ...(overBudget ? { overBudget } : {}),
    ...(debug ? { debug: { budgetEnforced: false as const, pausedMs: debug.pausedMs, wallMs } } : {}),
    ...(fact.hookName !== undefined ? { hookName: fact.hookName } : {}),
    ...(target.engine === 'mantle' && fact.playedBy ? { playedBy: fact.playedBy } : {}),
  };
}

/** What the runtime holds back while a Cayu phase runs (there is no timeout: it waits). */
const CAYU_WAITER: Partial<Record<string, string>> = {
  before_tool_call: 'the tool call',
  after_tool_call: 'the tool result',
};

export async function runHook(deps: RunDeps, req: RunRequest): Promise<RunResult> {
  const wiring = deps.wiring?.(); // asked beside the check, awaited before the verdict
  wiring?.catch(() => undefined);
  const file = path.resolve(req.file);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile())
    throw new RunInputError('file', `no such file: ${req.file}`);
  const checked = await deps.checker.check(file);
  const refused = refusing(checked.errors);
  if (refused.length) {
    throw new RunInputError(
      'check',
      `${req.file} has ${refused.length} error(s) the engine rejects at train/load time; fix them first`,
      refused.map((d) => formatDiagnostic(d)),
      refused,
    );
  }
  const located = locateHook(checked.module, req.handler, deps.safetyStopMs);
  if (!located.ok) throw new RunInputError('handler', located.message);
  const target = located.target;
  const unfaithful = unfaithfulJson(req.payload);
  if (unfaithful)
    throw new RunInputError('payload', 'the payload holds a value JSON cannot carry faithfully', [
      unfaithful,
    ]);
  const check =
    target.engine === 'mantle'
      ? validatePayload(target.point.payloadType, req.payload)
      : validateCayuContext(target.phase, req.payload);
  if (!check.ok) {
    const what = target.engine === 'mantle' ? target.point.payloadType : `${target.phase} context`;
    throw new RunInputError(
      'payload',
      `the payload is not a valid ${what} (for ${describeTarget(target)})`,
      check.errors,
    );
  }
  const result = await invokeHook(
    deps.host,
    file,
    checked.agentRoot,
    target,
    check.payload,
    await wiring?.catch(() => undefined),
  );
  if (target.engine === 'cayu' && result.outcome !== 'timed-out')
    result.notes.unshift(
      ...cayuDelayNote(result.durationMs, CAYU_WAITER[target.phase] ?? 'the end of the session'),
    );
  for (const d of checked.errors.filter((e) => e.code.startsWith('cayu-')))
    result.notes.push(`check reports (the runtime still loads the module): ${formatDiagnostic(d)}`);
  if (target.engine === 'mantle' && !checked.isMantle) {
    result.notes.push(
      'this file is not where the Mantle loader looks (hooks.py or hooks/**/*.py at an agent root): the engine would never register this hook',
    );
  }
  return result;
}
