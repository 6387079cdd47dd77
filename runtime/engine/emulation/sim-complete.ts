// Where a main-loop iteration's completion comes from: the next scripted one, else the real
// model (../model-step.ts) asked with the hooked request. Empty completions are retried with the same
// hooked request; a provider error ends the turn with status error (the engine's fallback).
import type { SimContext } from './sim-points';
import type { Scenario, ScenarioCompletion } from '../scenario-schema';
import { sleep, type SimClock } from './sim-dispatch';
import type { SimModels } from '../model-step';
import { TurnEnd } from './sim-turns';

/** The part of a turn a completion needs. */
export interface CompletingTurn {
  ctx: SimContext;
  sc: Scenario;
  clock: SimClock;
  next: number;
  iteration: number;
  turnNo: number;
  callPrefix: string;
  identity: Record<string, unknown>;
  models?: SimModels;
}

/** A model answering empty again and again: how many times the request is sent before giving up. */
const MODEL_EMPTY_TRIES = 3;

function isEmpty(c: ScenarioCompletion): boolean {
  return !c.error && !c.text && c.tool_calls.length === 0;
}

const note = (ctx: SimContext, text: string) => ctx.transcript.push({ role: 'engine', text });

async function scriptedOrModel(
  t: CompletingTurn,
  request: Record<string, unknown>,
): Promise<ScenarioCompletion> {
  const c = t.sc.completions[t.next];
  if (c && !c.quiet) {
    t.next++;
    t.clock.scriptedMs += c.latency_ms;
    await sleep(c.latency_ms);
    return c;
  }
  if (!t.models || c?.quiet)
    throw new TurnEnd('error', 'the scenario has no more scripted main-loop completions');
  return t.models.complete(request, t.sc, t.turnNo, (text) => note(t.ctx, text));
}

/** The completion for this iteration's hooked request. */
export async function complete(
  t: CompletingTurn,
  request: Record<string, unknown>,
): Promise<ScenarioCompletion> {
  for (let empties = 0; ;) {
    const c = await scriptedOrModel(t, request);
    if (c.error) {
      note(t.ctx, `provider error: ${c.error}`);
      throw new TurnEnd('error', `the provider failed: ${c.error}`);
    }
    if (!isEmpty(c)) return c;
    note(t.ctx, 'empty completion: the engine retries with the same hooked request (hooks are not re-run)');
    if (t.models && t.sc.completions[t.next] === undefined && ++empties >= MODEL_EMPTY_TRIES)
      throw new TurnEnd('error', `the model answered empty ${MODEL_EMPTY_TRIES} times`);
  }
}

export function responsePayload(t: CompletingTurn, c: ScenarioCompletion): Record<string, unknown> {
  const calls = c.tool_calls.map((tc, i) => ({
    id: tc.id ?? `call_${t.callPrefix}${t.iteration}_${i}`,
    tool_name: tc.tool_name,
    tool_args: tc.tool_args,
    type: 'function',
  }));
  return { text: c.text ?? null, tool_calls: calls, latency_ms: c.latency_ms, ...t.identity };
}
