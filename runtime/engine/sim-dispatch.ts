// Dispatching one tool call of a batch that passed preflight (spec "Multi-tool batches",
// "modify_tool_result", "Knowledge search"; Cayu before/after_tool_call).
//
// Order around one call, innermost first (a Hooksmith choice: the two engines never run in one
// process; README "Simulate a turn"): Cayu before_tool_call → the tool body (mock tool, or the
// knowledge search with its knowledge_query/knowledge_results points) → Cayu after_tool_call
// → Mantle tool_result, whose payload is what is persisted and replayed to the model.
import { SAFE_EMPTY_RESULT_NOTE } from '../catalogue';
import type { RunResult } from './api';
import type { CayuToolResult } from './cayu-context';
import { cloneJson } from '../json/json-equal';
import type { Scenario } from './scenario-schema';
import {
  failedClosed,
  firePhaseHook,
  firePoint,
  phaseHooks,
  pushIdlePhase,
  type SimContext,
} from './sim-points';

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

function toolResult(data: unknown): CayuToolResult {
  const d = (data && typeof data === 'object' ? data : {}) as Partial<CayuToolResult>;
  return {
    content: typeof d.content === 'string' ? d.content : '',
    structured: d.structured,
    artifacts: Array.isArray(d.artifacts) ? d.artifacts : [],
    is_error: d.is_error === true,
  };
}

function failed(r: RunResult): boolean {
  return r.outcome !== 'returned';
}

/** Cayu before_tool_call: proceed (maybe with new arguments), or a result that replaces the tool. */
async function beforeToolCall(
  ctx: SimContext,
  call: ToolCallToRun,
): Promise<{ args: Record<string, unknown>; result?: CayuToolResult }> {
  let args = call.arguments;
  const base = {
    tool_name: call.tool_name,
    tool_call_id: call.id,
    task_id: null,
    session: { id: 'session-1', status: 'running' },
  };
  const hooks = phaseHooks(ctx, 'before_tool_call');
  if (!hooks.length) pushIdlePhase(ctx, 'before_tool_call', { ...base, arguments: args });
  for (const h of hooks) {
    const r = await firePhaseHook(ctx, h, { ...base, arguments: args });
    if (failed(r))
      return {
        args,
        result: {
          content: `runtime hook ${h.label} failed: ${r.error?.message ?? r.notes.join('; ')}`,
          artifacts: [],
          is_error: true,
        },
      };
    const d = r.payload as Record<string, unknown>;
    if (d.action === 'proceed_modified') args = cloneJson(d.modified_arguments as Record<string, unknown>);
    if (d.action === 'short_circuit') return { args, result: toolResult(d.synthetic_result) };
    if (d.action === 'block')
      return { args, result: { content: String(d.block_reason), artifacts: [], is_error: true } };
  }
  return { args };
}

async function afterToolCall(
  ctx: SimContext,
  call: ToolCallToRun,
  args: Record<string, unknown>,
  result: CayuToolResult,
): Promise<CayuToolResult> {
  const hooks = phaseHooks(ctx, 'after_tool_call');
  const base = {
    tool_name: call.tool_name,
    tool_call_id: call.id,
    arguments: args,
    task_id: null,
    session: { id: 'session-1', status: 'running' },
  };
  if (!hooks.length) pushIdlePhase(ctx, 'after_tool_call', { ...base, result });
  for (const h of hooks) {
    const r = await firePhaseHook(ctx, h, { ...base, result });
    const d = r.payload as Record<string, unknown> | null;
    if (!failed(r) && d?.action === 'modify') result = toolResult(d.modified_result);
  }
  return result;
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
      `knowledge query hook failed (${q.modify?.outcome}): the search is skipped and the model receives the safe empty-result note`,
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
    content: kept.length ? JSON.stringify(kept) : SAFE_EMPTY_RESULT_NOTE,
    structured: kept,
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
  const mock = sc.tools[call.tool_name];
  if (!mock)
    return { content: `no mock tool '${call.tool_name}' in the scenario`, artifacts: [], is_error: true };
  clock.scriptedMs += mock.latency_ms;
  await sleep(mock.latency_ms);
  if (mock.error !== undefined) return { content: mock.error, artifacts: [], is_error: true };
  // The engine serialises a tool's return value to JSON text for the tool result.
  return {
    content: JSON.stringify(mock.value ?? null),
    structured: mock.value,
    artifacts: [],
    is_error: false,
  };
}

export async function dispatchCall(
  ctx: SimContext,
  sc: Scenario,
  identity: Record<string, unknown>,
  call: ToolCallToRun,
  clock: SimClock,
): Promise<Dispatched> {
  const cayu = ctx.hooks.hasCayu;
  let args = call.arguments;
  let result: CayuToolResult | undefined;
  if (cayu) ({ args, result } = await beforeToolCall(ctx, call));
  const skipped = result !== undefined;
  result ??= await runTool(ctx, sc, identity, call, args, clock);
  if (!skipped)
    ctx.tools.push({ tool_name: call.tool_name, arguments: cloneJson(args), is_error: result.is_error });
  if (cayu && !skipped) result = await afterToolCall(ctx, call, args, result);
  if (cayu && skipped)
    engineNote(
      ctx,
      `Cayu: ${call.tool_name} did not run (${result.is_error ? 'blocked' : 'short-circuited'}); after_tool_call runs only after a tool executes`,
    );
  const fired = await firePoint(ctx, 'tool_result', {
    tool_name: call.tool_name,
    arguments: args,
    value: result.content,
    is_error: result.is_error,
    ...identity,
  });
  const p = fired.payload;
  const out: Dispatched = {
    value: String(p.value),
    is_error: p.is_error === true,
    arguments: (p.arguments as Record<string, unknown>) ?? args,
  };
  ctx.transcript.push({
    role: 'tool',
    text: `${call.tool_name}(${JSON.stringify(out.arguments)}) → ${out.is_error ? 'error: ' : ''}${out.value}`,
  });
  return out;
}
