// Dispatching one tool call of a batch that passed preflight (spec "Multi-tool batches",
// "modify_tool_result", "Knowledge search"; Cayu before/after_tool_call).
//
// Order around one call, innermost first (a Hooksmith choice: the two engines never run in one
// process; README "Simulate a turn"): Cayu's tool policy (a mock tool's `denied`) → Cayu
// before_tool_call → the tool body (mock tool, or the knowledge search with its
// knowledge_query/knowledge_results points) → Cayu after_tool_call (sim-cayu.ts) → Mantle
// tool_result, whose payload is what is persisted and replayed to the model.
import { SAFE_EMPTY_RESULT_NOTE } from '../../catalogue';
import type { CayuToolResult } from '../cayu-context';
import { cloneJson } from '../../json/json-equal';
import type { Scenario } from '../scenario-schema';
import { failedClosed, firePoint, type SimContext } from './sim-points';
import { afterToolCall, beforeToolCall, CayuRunEnded, type BeforeOutcome } from './sim-cayu';
import { TurnEnd } from './sim-turns';
import { stringifyJson } from '../../json/lossless-json';

export interface ToolCallToRun {
  id: string;
  tool_name: string;
  arguments: Record<string, unknown>;
}

export interface Dispatched {
  /** The tool result text persisted on tool_executed and replayed to the model. */
  value: string;
  is_error: boolean;
  arguments: Record<string, unknown>;
}

export interface SimClock {
  scriptedMs: number;
}

export const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve();

function engineNote(ctx: SimContext, text: string): void {
  ctx.transcript.push({ role: 'engine', text });
}

const isMapping = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A tool that raised: Cayu writes the exception's text with its terminal evidence (cayu 0.3.0
 * runtime/_tool_execution.py; a ToolSpec's effect defaults to external, core/tools.py:124).
 */
function raisedResult(message: string): CayuToolResult {
  return {
    content: message,
    structured: {
      terminal_outcome: 'tool_execution_error',
      tool_effect: 'external',
      outcome_unknown: true,
      manual_reconciliation_required: true,
    },
    artifacts: [],
    is_error: true,
  };
}

async function searchKnowledge(
  ctx: SimContext,
  sc: Scenario,
  identity: Record<string, unknown>,
  args: Record<string, unknown>,
  clock: SimClock,
): Promise<CayuToolResult> {
  const query = args.query;
  const safe = { content: SAFE_EMPTY_RESULT_NOTE, artifacts: [], is_error: false };
  if (typeof query !== 'string' || query.trim() === '') {
    engineNote(ctx, 'empty query: the empty-query guard skips the search (knowledge hooks do not run)');
    return safe;
  }
  const q = await firePoint(ctx, 'knowledge_query', { query, ...identity });
  if (failedClosed(q)) {
    engineNote(
      ctx,
      `knowledge query hook failed (${q.modify?.outcome}): the search is skipped and the model receives the safe empty-result note, as when retrieval fails ("${SAFE_EMPTY_RESULT_NOTE}")`,
    );
    return safe;
  }
  const latency = sc.knowledge?.latency_ms ?? 0;
  clock.scriptedMs += latency;
  await sleep(latency);
  const passages = cloneJson(sc.knowledge?.passages ?? []);
  const r = await firePoint(ctx, 'knowledge_results', { query: q.payload.query, passages, ...identity });
  const kept = Array.isArray(r.payload.passages) ? r.payload.passages : passages;
  return {
    content: kept.length ? stringifyJson(kept) : SAFE_EMPTY_RESULT_NOTE,
    artifacts: [],
    is_error: false,
  };
}

async function runTool(
  ctx: SimContext,
  sc: Scenario,
  identity: Record<string, unknown>,
  call: ToolCallToRun,
  args: Record<string, unknown>,
  clock: SimClock,
): Promise<CayuToolResult> {
  if (sc.knowledge && call.tool_name === sc.knowledge.tool)
    return searchKnowledge(ctx, sc, identity, args, clock);
  const mock = mockTool(sc, call.tool_name);
  if (!mock)
    return { content: `no mock tool '${call.tool_name}' in the scenario`, artifacts: [], is_error: true };
  clock.scriptedMs += mock.latency_ms;
  await sleep(mock.latency_ms);
  if (mock.error !== undefined) return { content: mock.error, artifacts: [], is_error: true };
  if (mock.raises !== undefined) return raisedResult(mock.raises);
  // The engine serialises a tool's return value to JSON text for the tool result.
  return {
    content: stringifyJson(mock.value ?? null),
    // ToolResult.structured is a mapping or None.
    ...(isMapping(mock.value) ? { structured: mock.value } : {}),
    artifacts: [],
    is_error: false,
  };
}

/** The scenario's mock of a tool: an own key only (a tool may be named `constructor` or `__proto__`). */
function mockTool(sc: Scenario, name: string): Scenario['tools'][string] | undefined {
  return Object.hasOwn(sc.tools, name) ? sc.tools[name] : undefined;
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
 * blocked, denied by the policy) and for every call of a batch of two or more (cayu 0.3.0 passes
 * the call projected with `arguments={}` there: runtime/_tool_round_executor.py:1893, :5056,
 * :5975; corpus after-args-*); else the arguments the call ran with.
 */
function afterHookArguments(before: BeforeOutcome, denied: boolean, batchSize: number) {
  return denied || before.result !== undefined || batchSize > 1 ? {} : before.args;
}

async function playCall(
  ctx: SimContext,
  sc: Scenario,
  identity: Record<string, unknown>,
  call: ToolCallToRun,
  clock: SimClock,
  batchSize: number,
): Promise<CallRound> {
  const cayu = ctx.hooks.hasCayu;
  const appHooks = sc.cayu?.app_hooks ?? [];
  const denied = cayu ? mockTool(sc, call.tool_name)?.denied : undefined;
  let before: BeforeOutcome = { args: call.arguments };
  if (denied !== undefined) {
    // The policy is asked before any hook: the before-hooks never see a denied call.
    before.result = { content: denied, artifacts: [], is_error: true };
    engineNote(ctx, `Cayu: the tool policy denied ${call.tool_name}: ${denied}`);
  } else if (cayu) before = await beforeToolCall(ctx, call, appHooks);
  const args = before.args;
  const skipped = before.result !== undefined;
  let result = before.result ?? (await runTool(ctx, sc, identity, call, args, clock));
  if (!skipped)
    ctx.tools.push({ tool_name: call.tool_name, arguments: cloneJson(args), is_error: result.is_error });
  if (cayu && skipped && denied === undefined)
    engineNote(
      ctx,
      `Cayu: ${call.tool_name} did not run (${before.blocked ? 'blocked' : 'short-circuited'} by a before_tool_call hook)`,
    );
  const raised = !skipped && mockTool(sc, call.tool_name)?.raises !== undefined;
  const observeOnly =
    denied !== undefined
      ? 'the call was denied by the tool policy'
      : before.blocked
        ? 'the call was blocked'
        : raised
          ? 'the tool raised (its effect is external: the outcome is unknown)'
          : undefined;
  const original = result;
  if (cayu) {
    const seen = afterHookArguments(before, denied !== undefined, batchSize);
    result = await afterToolCall(ctx, call, seen, result, appHooks, observeOnly);
  }
  return { call, args, result, ...(result.is_error !== original.is_error ? { flipped: true } : {}) };
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
  for (const call of calls) {
    try {
      const round = await playCall(ctx, sc, identity, call, clock, calls.length);
      rounds.push({ round, ...(mantleHooked ? { hooked: await hookResult(ctx, identity, round) } : {}) });
    } catch (err) {
      if (!(
        err instanceof CayuRunEnded &&
        err.exceptionType === 'CancelledError' &&
        err.phase === 'before_tool_call'
      ))
        throw err;
      // A lone call: its interrupted result is saved, then the run raises; in a batch the session fails.
      if (calls.length > 1)
        throw sessionFails(ctx, `${err.message.split(':')[0]}: the tool round was cancelled`);
      await saveCall(ctx, identity, { call, args: call.arguments, result: INTERRUPTED_RESULT });
      throw err;
    }
  }
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

function sessionFails(ctx: SimContext, reason: string): TurnEnd {
  engineNote(ctx, `Cayu: the session fails (ValueError: ${reason}); no result of this batch is saved`);
  return new TurnEnd('error', `the Cayu session failed: ${reason}`);
}
