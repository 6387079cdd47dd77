// The turn simulator: plays one Mantle turn from a scenario with a mock LLM and mock tools,
// firing every insertion point in the engine's order (spec "Insertion points", "Multi-tool
// batches", "Knowledge search", "Turn lifecycle", per-point sections):
//
//   turn_started → [incoming_message] → per iteration: model_request → LLM → model_response →
//   tool calls: tool_call preflight once per call, in order → dispatch (sim-dispatch.ts) →
//   next iteration | text: [outgoing_text] → emit → turn_finished (always) → Cayu after_session_*.
//
// A fail-closed stop ends the turn "gracefully" with its fallback and status `error`
// (the turn failed); RetryModel feedback goes to the next request only, as an engine note.
import { performance } from 'node:perf_hooks';
import { FALLBACK_RESPONSES, getPoint, type CayuPhaseId, type PointId } from '../catalogue';
import { pointWired, type WiringSource } from '../catalogue/wiring';
import type { SimulationResult, TranscriptEntry } from './api';
import { oneRun, type HostPort } from './host-port';
import { RunInputError } from './run-hook';
import type { Scenario, ScenarioCompletion } from './scenario-schema';
import type { AgentHooks } from './sim-agent';
import { elideHistory } from './sim-history';
import { dispatchCall, sleep, type SimClock, type ToolCallToRun } from './sim-dispatch';
import {
  failedClosed,
  firePhaseHook,
  firePoint,
  phaseHooks,
  pushIdlePhase,
  settleObservers,
  type SimContext,
} from './sim-points';

type Status = SimulationResult['status'];

export const QUIET_RETRY_EFFECT =
  'on a quiet call RetryModel discards this completion; it does not start another main-loop iteration';

interface Turn {
  ctx: SimContext;
  sc: Scenario;
  identity: Record<string, unknown>;
  clock: SimClock;
  messages: Record<string, unknown>[];
  next: number;
  iteration: number;
  feedback?: string;
  /** The previous main-loop model request: its first event and the history length it carried. */
  lastRequest?: { seq: number; length: number };
}

class TurnEnd {
  constructor(
    readonly status: Status,
    readonly ending: string,
  ) {}
}

const say = (ctx: SimContext, e: TranscriptEntry) => ctx.transcript.push(e);
const note = (ctx: SimContext, text: string) => say(ctx, { role: 'engine', text });

function identityOf(sc: Scenario): Record<string, unknown> {
  const channel = typeof sc.channel === 'string' ? { name: sc.channel, metadata: {} } : sc.channel;
  return { sender_id: sc.sender_id, call: sc.call, channel };
}

function toolNames(sc: Scenario): string[] {
  return [...Object.keys(sc.tools), ...(sc.knowledge ? [sc.knowledge.tool] : [])];
}

function isEmpty(c: ScenarioCompletion): boolean {
  return !c.error && !c.text && c.tool_calls.length === 0;
}

/** model_request: the hooked request, or a graceful stop when the fail-closed hook failed. */
async function hookedRequest(t: Turn, messages: Record<string, unknown>[], tools: string[]): Promise<void> {
  const fired = await firePoint(t.ctx, 'model_request', {
    messages,
    model_settings: {},
    tool_names: tools,
    iteration: t.iteration,
    ...t.identity,
  });
  if (failedClosed(fired)) {
    say(t.ctx, {
      role: 'bot',
      text: FALLBACK_RESPONSES.model_request,
      fallback: FALLBACK_RESPONSES.model_request,
    });
    throw new TurnEnd('error', `model request hook ${fired.modify?.outcome}: the LLM call was skipped`);
  }
}

/** The next scripted completion; empty ones are retried with the same hooked request. */
async function complete(t: Turn): Promise<ScenarioCompletion> {
  for (;;) {
    const c = t.sc.completions[t.next];
    if (!c || c.quiet) throw new TurnEnd('error', 'the scenario has no more scripted main-loop completions');
    t.next++;
    t.clock.scriptedMs += c.latency_ms;
    await sleep(c.latency_ms);
    if (c.error) {
      note(t.ctx, `provider error: ${c.error}`);
      throw new TurnEnd('error', `the provider failed: ${c.error}`);
    }
    if (!isEmpty(c)) return c;
    note(t.ctx, 'empty completion: the engine retries with the same hooked request (hooks are not re-run)');
  }
}

function responsePayload(t: Turn, c: ScenarioCompletion): Record<string, unknown> {
  const calls = c.tool_calls.map((tc, i) => ({
    id: tc.id ?? `call_${t.iteration}_${i}`,
    tool_name: tc.tool_name,
    tool_args: tc.tool_args,
    type: 'function',
  }));
  return { text: c.text ?? null, tool_calls: calls, latency_ms: c.latency_ms, ...t.identity };
}

/** A point fires when the engine invokes it, or when the scenario asks for unwired points too. */
function fires(t: Turn, point: PointId): boolean {
  return t.sc.fire_unwired || pointWired(getPoint(point), t.ctx.wiring).wired;
}

/** Bot text to the user, through outgoing_text when it fires. */
async function emitText(t: Turn, text: string | null | undefined): Promise<void> {
  if (!text) return;
  if (fires(t, 'outgoing_text')) {
    const fired = await firePoint(t.ctx, 'outgoing_text', { text, ...t.identity });
    if (fired.modify?.outcome === 'hook-rejection') {
      note(
        t.ctx,
        `outgoing text rejected (${fired.modify.signal?.reason ?? 'no reason'}): a discarded bot utterance is stored`,
      );
      say(t.ctx, { role: 'bot', text: 'outgoing-text fallback', fallback: 'outgoing-text fallback' });
      return;
    }
    text = String(fired.payload.text ?? text);
  }
  say(t.ctx, { role: 'bot', text });
}

/** A quiet call (rephrase, confirm_rephrase, set_fields): request/response hooks, no iteration. */
async function quietCall(t: Turn, c: ScenarioCompletion): Promise<void> {
  const kind = c.quiet!;
  t.next++;
  t.ctx.context = kind;
  await hookedRequest(
    t,
    [
      { role: 'system', content: `(${kind} prompt)` },
      { role: 'user', content: t.sc.user },
    ],
    [],
  );
  t.clock.scriptedMs += c.latency_ms;
  await sleep(c.latency_ms);
  const fired = await firePoint(t.ctx, 'model_response', responsePayload(t, c));
  if (fired.modify?.outcome === 'retry-model') {
    // Spec: on the three quiet calls RetryModel discards that completion; no new iteration.
    const last = t.ctx.events[t.ctx.events.length - 1];
    if (last) last.effect = QUIET_RETRY_EFFECT;
    note(t.ctx, `${kind}: RetryModel discards this completion (on a quiet call it starts no new iteration)`);
    return;
  }
  const text = fired.payload.text as string | null;
  if (kind === 'set_fields') note(t.ctx, `set_fields fill: ${text ?? '(no text)'}`);
  else await emitText(t, text);
}

/** Preflight every call in batch order; a RetryModel discards the whole batch. */
async function preflight(t: Turn, calls: Record<string, unknown>[]): Promise<ToolCallToRun[] | 'retry'> {
  const out: ToolCallToRun[] = [];
  for (const call of calls) {
    const fired = await firePoint(t.ctx, 'tool_call', {
      tool_name: call.tool_name,
      arguments: call.tool_args ?? {},
      headers: {},
      ...t.identity,
    });
    if (fired.modify?.outcome === 'retry-model') {
      t.feedback = fired.modify.signal?.feedback;
      note(
        t.ctx,
        `RetryModel in tool-call preflight: the whole batch is discarded (no tool ran, its text is not emitted); feedback for the next request only: ${t.feedback ?? '(none)'}`,
      );
      return 'retry';
    }
    if (failedClosed(fired)) {
      say(t.ctx, { role: 'bot', text: FALLBACK_RESPONSES.tool_call, fallback: FALLBACK_RESPONSES.tool_call });
      throw new TurnEnd('error', `tool call hook ${fired.modify?.outcome}: the batch was not dispatched`);
    }
    out.push({
      id: String(call.id),
      tool_name: String(fired.payload.tool_name),
      arguments: (fired.payload.arguments as Record<string, unknown>) ?? {},
    });
  }
  return out;
}

/** One main-loop iteration; true when the turn is done (text answer). */
async function iterate(t: Turn): Promise<boolean> {
  while (t.sc.completions[t.next]?.quiet) await quietCall(t, t.sc.completions[t.next]!);
  t.ctx.context = `iteration ${t.iteration}`;
  const feedback = t.feedback;
  t.feedback = undefined;
  // RetryModel feedback: an engine-only system note on the next request only, never stored.
  const messages = feedback ? [...t.messages, { role: 'system', content: feedback }] : t.messages;
  const from = t.ctx.events.length;
  await hookedRequest(t, messages, toolNames(t.sc));
  t.lastRequest = elideHistory(t.ctx.events, from, t.messages.length, t.lastRequest);
  const completion = await complete(t);
  const fired = await firePoint(t.ctx, 'model_response', responsePayload(t, completion));
  t.iteration++;
  if (fired.modify?.outcome === 'retry-model') {
    t.feedback = fired.modify.signal?.feedback;
    note(
      t.ctx,
      `RetryModel: the response is discarded (no text, no tool dispatch); feedback for the next request only: ${t.feedback ?? '(none)'}`,
    );
    return false;
  }
  const text = fired.payload.text as string | null;
  const calls = (fired.payload.tool_calls as Record<string, unknown>[]) ?? [];
  if (!calls.length) {
    await emitText(t, text);
    t.messages.push({ role: 'assistant', content: text });
    return true;
  }
  const batch = await preflight(t, calls);
  if (batch === 'retry') return false;
  await emitText(t, text);
  const replies: Record<string, unknown>[] = [];
  const replayed: Record<string, unknown>[] = [];
  for (const [i, call] of batch.entries()) {
    const r = await dispatchCall(t.ctx, t.sc, t.identity, call, t.clock);
    // Replayed as persisted on tool_executed: the preflight's tool name and the arguments of the
    // tool-result payload (spec: "arguments used for this call (may be rewritten for
    // persistence/replay)"); the id and type stay the engine's.
    replayed.push({ ...calls[i], tool_name: call.tool_name, tool_args: r.arguments });
    replies.push({ role: 'tool', tool_call_id: call.id, content: r.value });
  }
  t.messages.push({ role: 'assistant', content: text, tool_calls: replayed }, ...replies);
  return false;
}

async function mainLoop(t: Turn): Promise<TurnEnd> {
  const interruptAt = t.sc.interrupt?.after_iteration;
  for (;;) {
    if (interruptAt !== undefined && t.iteration >= interruptAt) {
      note(t.ctx, `the turn is interrupted after ${t.iteration} iteration(s) (e.g. barge-in)`);
      return new TurnEnd('cancelled', 'interrupted');
    }
    if (t.iteration >= t.sc.max_iterations) {
      note(
        t.ctx,
        `iteration cap reached (${t.sc.max_iterations}): the engine returns its max-iterations result`,
      );
      return new TurnEnd('completed', 'iteration cap reached');
    }
    if (await iterate(t)) return new TurnEnd('completed', 'text answer emitted');
  }
}

async function incoming(t: Turn): Promise<TurnEnd | undefined> {
  if (!fires(t, 'incoming_message')) return undefined;
  t.ctx.context = 'incoming';
  const fired = await firePoint(t.ctx, 'incoming_message', { text: t.sc.user, ...t.identity });
  if (fired.modify?.outcome === 'hook-rejection') {
    note(
      t.ctx,
      `incoming message rejected (${fired.modify.signal?.reason ?? 'no reason'}): it is marked discarded and the LLM never sees it`,
    );
    say(t.ctx, { role: 'bot', text: 'incoming-message fallback', fallback: 'incoming-message fallback' });
    return new TurnEnd('completed', 'incoming message rejected');
  }
  if (failedClosed(fired)) {
    say(t.ctx, { role: 'bot', text: 'incoming-message fallback', fallback: 'incoming-message fallback' });
    return new TurnEnd(
      'error',
      `incoming message hook ${fired.modify?.outcome}: the engine does not run on the original message`,
    );
  }
  t.messages[1] = { role: 'user', content: String(fired.payload.text) };
  return undefined;
}

const SESSION_PHASE: Record<Status, CayuPhaseId> = {
  completed: 'after_session_completed',
  cancelled: 'after_session_interrupted',
  error: 'after_session_failed',
};

async function afterSession(t: Turn, status: Status, ending: string): Promise<void> {
  if (!t.ctx.hooks.hasCayu) return;
  t.ctx.context = 'session';
  const phase = SESSION_PHASE[status];
  const state = phase.replace('after_session_', '');
  const input = {
    session: { id: 'session-1', status: state },
    terminal_event: { type: `session.${state}`, payload: { reason: ending } },
  };
  const hooks = phaseHooks(t.ctx, phase);
  if (!hooks.length) pushIdlePhase(t.ctx, phase, input);
  for (const h of hooks) await firePhaseHook(t.ctx, h, input);
}

export async function simulateTurn(
  host: HostPort,
  hooks: AgentHooks,
  sc: Scenario,
  source: string,
  wiring?: WiringSource,
): Promise<SimulationResult> {
  const t0 = performance.now();
  const ctx: SimContext = {
    host: oneRun(host),
    hooks,
    events: [],
    transcript: [],
    tools: [],
    context: 'turn',
    background: [],
    ...(wiring ? { wiring } : {}),
  };
  const identity = identityOf(sc);
  const t: Turn = {
    ctx,
    sc,
    identity,
    clock: { scriptedMs: 0 },
    messages: [
      { role: 'system', content: sc.system_prompt },
      { role: 'user', content: sc.user },
    ],
    next: 0,
    iteration: 0,
  };
  say(ctx, { role: 'user', text: sc.user });
  await firePoint(ctx, 'turn_started', { is_voice: sc.is_voice, turn_id: null, ...identity });
  let end: TurnEnd;
  let internalError: string | undefined;
  try {
    end = (await incoming(t)) ?? (await mainLoop(t));
  } catch (err) {
    // Bad input (a module that fails to import, Python that cannot start) is not a turn outcome.
    if (err instanceof RunInputError || (err instanceof Error && err.name === 'PythonHostError')) throw err;
    if (!(err instanceof TurnEnd)) {
      internalError = err instanceof Error ? err.message : String(err);
      note(ctx, `the turn failed unexpectedly: ${internalError}`);
      end = new TurnEnd('error', 'unexpected failure');
    } else end = err;
  }
  ctx.context = 'turn';
  // Always paired with turn_started, whatever happened.
  await firePoint(ctx, 'turn_finished', { status: end.status, turn_id: null, ...identity });
  await afterSession(t, end.status, end.ending);
  const turnMs = performance.now() - t0;
  await settleObservers(ctx);
  const hookMs = ctx.events.reduce((s, e) => s + (e.offTurnPath ? 0 : (e.durationMs ?? 0)), 0);
  return {
    scenario: source,
    events: ctx.events,
    transcript: ctx.transcript,
    tools: ctx.tools,
    status: end.status,
    agentRoot: hooks.root,
    iterations: t.iteration,
    durationMs: Math.round(turnMs * 10) / 10,
    hookMs: Math.round(hookMs * 10) / 10,
    scriptedMs: t.clock.scriptedMs,
    ending: end.ending,
    ...(internalError !== undefined ? { internalError } : {}),
  };
}
