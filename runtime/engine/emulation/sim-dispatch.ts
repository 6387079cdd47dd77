// Dispatching one tool call of a batch that passed preflight (spec "Multi-tool batches",
// "modify_tool_result", "Knowledge search"; Cayu before/after_tool_call).
//
// Order around one call, innermost first (a Hooksmith choice: the two engines never run in one
// process; README "Simulate a turn"): Cayu's tool policy (a mock tool's `denied`) → Cayu
// before_tool_call → the tool body (mock tool, or the knowledge search with its
// knowledge_query/knowledge_results points) → Cayu after_tool_call (sim-cayu.ts) → Mantle
// tool_result, whose payload is what is persisted and replayed to the model.
import type { CayuToolResult } from '../cayu-context';
import { cloneJson } from '../../json/json-equal';
import { stringifyJson } from '../../json/lossless-json';
import type { Scenario } from '../scenario-schema';
import { firePoint, type SimContext } from './sim-points';
import { engineNote, mockTool, runTool, type SimClock, type ToolCallToRun } from './sim-tool';
import { afterToolCall, beforeToolCall, CayuRunEnded, type BeforeOutcome } from './sim-cayu';
import { TurnEnd } from './sim-turns';
import { cayuRoundBehaviour, type CayuRoundBehaviour } from './cayu-line-behaviour';

export { sleep, type SimClock, type ToolCallToRun } from './sim-tool';

export interface Dispatched {
  /** The tool result text persisted on tool_executed and replayed to the model. */
  value: string;
  is_error: boolean;
  arguments: Record<string, unknown>;
}

/** A call through Cayu's round (policy, before-hooks, tool, after-hooks), not yet saved. */
interface CallRound {
  call: ToolCallToRun;
  args: Record<string, unknown>;
  result: CayuToolResult;
  /** An after-hook's modify changed is_error: the call's terminal event conflicts with its result. */
  flipped?: boolean;
}

/** What cayu 0.3.0 writes for a call whose before-hook raised asyncio.CancelledError. */
export const INTERRUPTED_RESULT: CayuToolResult = {
  content: 'Tool call interrupted before completion.',
  artifacts: [],
  is_error: true,
};

/**
 * What after-hooks see as `context.arguments`: `{}` for a call that did not run (short-circuited,
 * blocked, denied by the policy) and, on cayu 0.3.0, for every call of a batch of two or more (it
 * passes the call projected with `arguments={}` there: runtime/_tool_round_executor.py:1893,
 * :5056, :5975; corpus after-args-*); else the arguments the call ran with (cayu-line-behaviour.ts).
 */
function afterHookArguments(stage: CallStage, batchSize: number, line: CayuRoundBehaviour) {
  const emptyInBatch = batchSize > 1 && line.batchAfterArgumentsEmpty;
  return stage.denied !== undefined || stage.before.result !== undefined || emptyInBatch
    ? {}
    : stage.before.args;
}

/** A call part-way through its round: what the policy and the before-hooks decided, then the tool. */
interface CallStage {
  call: ToolCallToRun;
  denied?: string;
  before: BeforeOutcome;
  result?: CayuToolResult;
  raised?: boolean;
  /** In a batch, a before-hook raised asyncio.CancelledError: this call ends here, its siblings go on. */
  cancelled?: CayuRunEnded;
}

/** The tool policy and the before_tool_call round (Cayu only). */
async function beforeStage(ctx: SimContext, sc: Scenario, call: ToolCallToRun): Promise<CallStage> {
  const cayu = ctx.hooks.hasCayu;
  const denied = cayu ? mockTool(sc, call.tool_name)?.denied : undefined;
  if (denied !== undefined) {
    // The policy is asked before any hook: the before-hooks never see a denied call.
    engineNote(ctx, `Cayu: the tool policy denied ${call.tool_name}: ${denied}`);
    return {
      call,
      denied,
      before: { args: call.arguments, result: { content: denied, artifacts: [], is_error: true } },
    };
  }
  const before = cayu ? await beforeToolCall(ctx, call, sc.cayu?.app_hooks ?? []) : { args: call.arguments };
  return { call, before };
}

/** The tool body, unless the policy or a before-hook settled the call. */
async function toolStage(
  ctx: SimContext,
  sc: Scenario,
  identity: Record<string, unknown>,
  stage: CallStage,
  clock: SimClock,
): Promise<void> {
  const { call, before } = stage;
  if (before.result !== undefined) {
    stage.result = before.result;
    if (ctx.hooks.hasCayu && stage.denied === undefined)
      engineNote(
        ctx,
        `Cayu: ${call.tool_name} did not run (${before.blocked ? 'blocked' : 'short-circuited'} by a before_tool_call hook)`,
      );
    return;
  }
  stage.result = await runTool(ctx, sc, identity, call, before.args, clock);
  stage.raised = mockTool(sc, call.tool_name)?.raises !== undefined;
  ctx.tools.push({
    tool_name: call.tool_name,
    arguments: cloneJson(before.args),
    is_error: stage.result.is_error,
  });
}

/** The after_tool_call round (Cayu only): the call's round, done. */
async function afterStage(
  ctx: SimContext,
  sc: Scenario,
  stage: CallStage,
  batchSize: number,
): Promise<CallRound> {
  const { call, before, denied } = stage;
  const original = stage.result!;
  let result = original;
  if (ctx.hooks.hasCayu) {
    const observeOnly =
      denied !== undefined
        ? 'the call was denied by the tool policy'
        : before.blocked
          ? 'the call was blocked'
          : stage.raised
            ? 'the tool raised (its effect is external: the outcome is unknown)'
            : undefined;
    const seen = afterHookArguments(stage, batchSize, cayuRoundBehaviour(ctx.hooks.cayuLineOfImports?.line));
    result = await afterToolCall(ctx, call, seen, result, sc.cayu?.app_hooks ?? [], observeOnly);
  }
  return {
    call,
    args: before.args,
    result,
    ...(result.is_error !== original.is_error ? { flipped: true } : {}),
  };
}

async function playCall(
  ctx: SimContext,
  sc: Scenario,
  identity: Record<string, unknown>,
  call: ToolCallToRun,
  clock: SimClock,
  batchSize: number,
): Promise<CallRound> {
  const stage = await beforeStage(ctx, sc, call);
  await toolStage(ctx, sc, identity, stage, clock);
  return afterStage(ctx, sc, stage, batchSize);
}

/** Saves a call's result: the Mantle tool_result point, whose payload is what is persisted. */
async function saveCall(
  ctx: SimContext,
  identity: Record<string, unknown>,
  round: CallRound,
): Promise<Dispatched> {
  return recordResult(ctx, round.call, await hookResult(ctx, identity, round));
}

/** The Mantle tool_result point for one call's result: what the engine persists. */
async function hookResult(
  ctx: SimContext,
  identity: Record<string, unknown>,
  { call, args, result }: CallRound,
): Promise<Dispatched> {
  const fired = await firePoint(ctx, 'tool_result', {
    tool_name: call.tool_name,
    arguments: args,
    value: result.content,
    is_error: result.is_error,
    ...identity,
  });
  const p = fired.payload;
  return {
    value: String(p.value),
    is_error: p.is_error === true,
    arguments: (p.arguments as Record<string, unknown>) ?? args,
  };
}

/** The persisted result in the transcript (what the model sees next). */
function recordResult(ctx: SimContext, call: ToolCallToRun, out: Dispatched): Dispatched {
  ctx.transcript.push({
    role: 'tool',
    text: `${call.tool_name}(${stringifyJson(out.arguments)}) → ${out.is_error ? 'error: ' : ''}${out.value}`,
  });
  return out;
}

/**
 * Dispatches a batch that passed preflight. Mantle's tool_result hooks run after each dispatched
 * call returns, before the next is dispatched (rasa-pro 3.21 orchestrator.py:2531-2577), with or
 * without Cayu hooks. Without Cayu hooks each call is saved as it ends. With them, as cayu 0.3.0
 * publishes a tool round, the batch's results are saved together — so a session failure or a
 * BaseException in any call of the batch saves none of them (corpus: after-flip-in-batch,
 * before-base-exception-second-call).
 */
export async function dispatchBatch(
  ctx: SimContext,
  sc: Scenario,
  identity: Record<string, unknown>,
  calls: readonly ToolCallToRun[],
  clock: SimClock,
): Promise<Dispatched[]> {
  const out: Dispatched[] = [];
  if (!ctx.hooks.hasCayu) {
    for (const call of calls)
      out.push(await saveCall(ctx, identity, await playCall(ctx, sc, identity, call, clock, 1)));
    return out;
  }
  // Mantle's tool_result hooks of the agent run as each call returns; with none, the point (shown
  // unhooked) waits for the Cayu round's verdict, as the recorded Cayu corpus has it.
  const mantleHooked = ctx.hooks.modify.has('tool_result') || ctx.hooks.observe.has('tool_result');
  const rounds: { round: CallRound; hooked?: Dispatched }[] = [];
  const line = cayuRoundBehaviour(ctx.hooks.cayuLineOfImports?.line);
  const eventsFrom = ctx.events.length;
  const finish = async (stage: CallStage) => {
    const round = await afterStage(ctx, sc, stage, calls.length);
    rounds.push({ round, ...(mantleHooked ? { hooked: await hookResult(ctx, identity, round) } : {}) });
  };
  // Each call: policy, before-hooks, tool; its after-hooks at once (cayu 0.3.0) or, once every
  // call of the batch has run, in call order (cayu 0.15: cayu-line-behaviour.ts).
  const ran: CallStage[] = [];
  let cancelled: CayuRunEnded | undefined;
  for (const call of calls) {
    const stage = await beforeOrCancelled(ctx, sc, identity, call, calls.length);
    if (stage.cancelled) {
      cancelled = stage.cancelled;
      if (line.deferredAfterHooks) continue;
      break;
    }
    await toolStage(ctx, sc, identity, stage, clock);
    if (line.deferredAfterHooks) ran.push(stage);
    else await finish(stage);
  }
  const raised = ran.find((s) => s.raised);
  if (raised && line.raisedToolInterrupts) throw roundInterrupted(ctx, raised.call, eventsFrom);
  for (const stage of ran) await finish(stage);
  if (cancelled) throw sessionFails(ctx, `${cancelled.message.split(':')[0]}: the tool round was cancelled`);
  const flipped = rounds.find((r) => r.round.flipped);
  if (flipped)
    // cayu 0.3.0 runtime/_tool_round_publication.py:673-682 (_validate_terminal_outcome).
    throw sessionFails(
      ctx,
      `Tool call ${flipped.round.call.id} terminal event type conflicts with its result.`,
    );
  for (const r of rounds)
    out.push(recordResult(ctx, r.round.call, r.hooked ?? (await hookResult(ctx, identity, r.round))));
  return out;
}

/**
 * A before-hook's asyncio.CancelledError: a lone call's interrupted result is saved, then the run
 * raises; in a batch that call's task ends, the calls running beside it finish (a TaskGroup does
 * not cancel siblings for a cancelled child; corpus before-cancelled-in-batch), then the session fails.
 */
async function beforeOrCancelled(
  ctx: SimContext,
  sc: Scenario,
  identity: Record<string, unknown>,
  call: ToolCallToRun,
  batchSize: number,
): Promise<CallStage> {
  try {
    return await beforeStage(ctx, sc, call);
  } catch (err) {
    if (!(
      err instanceof CayuRunEnded &&
      err.exceptionType === 'CancelledError' &&
      err.phase === 'before_tool_call'
    ))
      throw err;
    if (batchSize > 1) return { call, before: { args: call.arguments }, cancelled: err };
    await saveCall(ctx, identity, { call, args: call.arguments, result: INTERRUPTED_RESULT });
    throw err;
  }
}

/**
 * cayu 0.15: a tool raised, so its effect's outcome is unknown and the session is interrupted for
 * reconciliation (cayu-line-behaviour.ts). The round's hooks ran, but the runtime publishes none of
 * their events and saves none of its results: their events leave the trace, and a note names them.
 */
function roundInterrupted(ctx: SimContext, call: ToolCallToRun, eventsFrom: number): TurnEnd {
  const unpublished = ctx.events.slice(eventsFrom).filter((e) => e.lane === 'phase');
  ctx.events.splice(
    eventsFrom,
    ctx.events.length - eventsFrom,
    ...ctx.events.slice(eventsFrom).filter((e) => e.lane !== 'phase'),
  );
  const ran = unpublished.filter((e) => e.hookName).map((e) => `${e.hookName} (${e.point})`);
  engineNote(
    ctx,
    `Cayu: ${call.tool_name} raised; its effect is external, so its outcome is unknown: the session is interrupted for manual reconciliation, no after_tool_call hook runs and no result of this batch is saved${ran.length ? `; the round's hook events are not published (ran: ${ran.join(', ')})` : ''}`,
  );
  return new TurnEnd(
    'cancelled',
    `${call.tool_name} raised: the session is interrupted (tool effect outcome unknown)`,
  );
}

function sessionFails(ctx: SimContext, reason: string): TurnEnd {
  engineNote(ctx, `Cayu: the session fails (ValueError: ${reason}); no result of this batch is saved`);
  return new TurnEnd('error', `the Cayu session failed: ${reason}`);
}
