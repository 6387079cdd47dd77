// Cayu's hook rounds in a simulated turn, as the runtime runs them (cayu v0.3.0,
// runtime/_tool_round_executor.py and _session_engine.py; README "Cayu semantics"; recorded
// in test/fixtures/cayu-corpus): one hook after another, app scope then agent scope, in
// registration order, no timeout. A failed hook (an Exception, a wrong return type, an invalid
// decision, a sync method) is recorded and the loop goes on — fail-open. A BaseException that is
// not an Exception ends the run. block / short_circuit stop the later before-hooks; after-hooks
// still run (observe-only after a block or a policy denial), and `modify` chains.
import type { CayuPhaseId } from '../../catalogue';
import type { RunResult } from '../api';
import type { CayuToolResult } from '../cayu-context';
import { cayuDelayNote } from '../cayu-outcome';
import { runEndedText, sessionLeftBy } from '../cayu-run-ended';
import { cloneJson } from '../../json/json-equal';
import type { AgentHook } from '../agent-hooks';
import { firePhaseHook, pushIdlePhase, type SimContext } from './sim-points';
import { stringifyJson } from '../../json/lossless-json';

/** A hook raised a BaseException that is not an Exception: the runtime does not catch it. */
export class CayuRunEnded extends Error {
  constructor(
    readonly exceptionType: string,
    readonly hook: string,
    readonly phase?: CayuPhaseId,
  ) {
    super(runEndedText(exceptionType, hook, sessionLeftBy(exceptionType, phase)));
    this.name = 'CayuRunEnded';
  }

  /** The session as the runtime leaves it once the run raised. */
  get sessionLeft(): string {
    return sessionLeftBy(this.exceptionType, this.phase);
  }
}

export interface CayuCall {
  id: string;
  tool_name: string;
  arguments: Record<string, unknown>;
}

export interface BeforeOutcome {
  args: Record<string, unknown>;
  /** The call's result when the tool is skipped (block / short_circuit). */
  result?: CayuToolResult;
  /** A block: the after-hooks observe only. */
  blocked?: boolean;
}

/** RuntimeHook methods overriding a phase: app scope (listed order) then agent scope (file/class order). */
export function phaseHooks(
  ctx: SimContext,
  phase: CayuPhaseId,
  appHooks: readonly string[] = [],
): AgentHook[] {
  const hooks = ctx.hooks.cayu.get(phase) ?? [];
  const className = (h: AgentHook) => (h.target.engine === 'cayu' ? h.target.className : '');
  const app = appHooks.flatMap((name) => hooks.filter((h) => className(h) === name));
  return [...app, ...hooks.filter((h) => !appHooks.includes(className(h)))];
}

export function toolResult(data: unknown): CayuToolResult {
  const d = (data && typeof data === 'object' ? data : {}) as Partial<CayuToolResult>;
  return {
    content: typeof d.content === 'string' ? d.content : '',
    structured: d.structured,
    artifacts: Array.isArray(d.artifacts) ? d.artifacts : [],
    is_error: d.is_error === true,
  };
}

const failed = (r: RunResult) => r.outcome !== 'returned';

function endIfBaseException(r: RunResult, hook: AgentHook, phase: CayuPhaseId): void {
  if (r.error?.baseException) throw new CayuRunEnded(r.error.type, r.hookName ?? hook.label, phase);
}

function delayNote(r: RunResult, what: string): string[] {
  return r.outcome === 'timed-out' ? [] : cayuDelayNote(r.durationMs, what);
}

function callContext(call: CayuCall, args: Record<string, unknown>) {
  return {
    tool_name: call.tool_name,
    tool_call_id: call.id,
    arguments: args,
    task_id: null,
    session: { id: 'session-1', status: 'running' },
  };
}

/** before_tool_call round; a failed guard lets the call go on unguarded. */
export async function beforeToolCall(
  ctx: SimContext,
  call: CayuCall,
  appHooks: readonly string[],
): Promise<BeforeOutcome> {
  let args = call.arguments;
  const hooks = phaseHooks(ctx, 'before_tool_call', appHooks);
  if (!hooks.length) pushIdlePhase(ctx, 'before_tool_call', callContext(call, args));
  for (const h of hooks) {
    const r = await firePhaseHook(ctx, h, callContext(call, args), (res) => {
      res.notes.unshift(...delayNote(res, `the ${call.tool_name} call`));
      if (failed(res) && !res.error?.baseException)
        res.effect = `${res.effect}: ${call.tool_name} runs unguarded with ${stringifyJson(args)} unless a later hook decides otherwise`;
    });
    endIfBaseException(r, h, 'before_tool_call');
    if (failed(r)) continue;
    const d = r.payload as Record<string, unknown>;
    if (d.action === 'proceed_modified') args = cloneJson(d.modified_arguments as Record<string, unknown>);
    if (d.action === 'short_circuit') return { args, result: toolResult(d.synthetic_result) };
    if (d.action === 'block')
      return {
        args,
        blocked: true,
        result: { content: String(d.block_reason), artifacts: [], is_error: true },
      };
  }
  return { args };
}

/**
 * after_tool_call round: on executed, failed, short-circuited, blocked and policy-denied calls.
 * `observeOnly` (a block, a policy denial, a tool that raised): a modify is ignored. `args`: what
 * the hooks see as `context.arguments` (sim-dispatch.ts afterHookArguments).
 */
export async function afterToolCall(
  ctx: SimContext,
  call: CayuCall,
  args: Record<string, unknown>,
  result: CayuToolResult,
  appHooks: readonly string[],
  observeOnly: string | undefined,
): Promise<CayuToolResult> {
  const hooks = phaseHooks(ctx, 'after_tool_call', appHooks);
  if (!hooks.length) pushIdlePhase(ctx, 'after_tool_call', { ...callContext(call, args), result });
  for (const h of hooks) {
    const r = await firePhaseHook(ctx, h, { ...callContext(call, args), result }, (res) => {
      res.notes.unshift(...delayNote(res, `the ${call.tool_name} result`));
      const d = res.payload as Record<string, unknown> | null;
      if (observeOnly && !failed(res) && d?.action === 'modify')
        res.effect = `${observeOnly}: after_tool_call observes only; the modify is ignored`;
    });
    endIfBaseException(r, h, 'after_tool_call');
    const d = r.payload as Record<string, unknown> | null;
    if (!observeOnly && !failed(r) && d?.action === 'modify') result = toolResult(d.modified_result);
  }
  return result;
}

/** after_session_* round: a failure leaves the session's status. */
export async function afterSessionPhase(
  ctx: SimContext,
  phase: CayuPhaseId,
  input: Record<string, unknown>,
  appHooks: readonly string[],
): Promise<void> {
  const hooks = phaseHooks(ctx, phase, appHooks);
  if (!hooks.length) pushIdlePhase(ctx, phase, input);
  for (const h of hooks) {
    const r = await firePhaseHook(ctx, h, input, (res) => {
      res.notes.unshift(...delayNote(res, 'the end of the session'));
    });
    endIfBaseException(r, h, phase);
  }
}
