// The body of one tool call in the emulation: the scenario's mock tool, or the knowledge search
// with its knowledge_query / knowledge_results points (spec "Knowledge search"). sim-dispatch.ts
// runs it inside Cayu's round and Mantle's tool_result.
import { SAFE_EMPTY_RESULT_NOTE } from '../../catalogue';
import type { CayuToolResult } from '../cayu-context';
import { cloneJson } from '../../json/json-equal';
import { stringifyJson } from '../../json/lossless-json';
import type { Scenario } from '../scenario-schema';
import { failedClosed, firePoint, type SimContext } from './sim-points';

/** The call as the model asked for it. */
export interface ToolCallToRun {
  id: string;
  tool_name: string;
  arguments: Record<string, unknown>;
}

export interface SimClock {
  scriptedMs: number;
}

export const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve();

export function engineNote(ctx: SimContext, text: string): void {
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

export async function runTool(
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
export function mockTool(sc: Scenario, name: string): Scenario['tools'][string] | undefined {
  return Object.hasOwn(sc.tools, name) ? sc.tools[name] : undefined;
}
