// The turn simulator: plays one Mantle turn from a scenario with a mock LLM and mock tools,
// firing every insertion point in the engine's order (spec "Insertion points", "Multi-tool
// batches", "Knowledge search", "Turn lifecycle", per-point sections):
//
//   turn_started → [incoming_message] → per iteration: model_request → LLM → model_response →
//   tool calls: tool_call preflight once per call, in order → dispatch (sim-dispatch.ts) →
//   next iteration | text: [outgoing_text] → emit → turn_finished (always) → Cayu after_session_*.
//
// A conversation (`turns:`, sim-turns.ts) plays its turns one after another on the same host
// (one app: module state and Cayu hook instances persist) and one history: each turn appends what the engine persists.
//
// A fail-closed stop ends the turn "gracefully" with its fallback and status `error`
// (the turn failed); RetryModel feedback goes to the next request only, as an engine note.
import { performance } from 'node:perf_hooks';
import { FALLBACK_RESPONSES, getPoint, type PointId } from '../../catalogue';
import { pointWired, type WiringSource } from '../../catalogue/wiring';
import type { SimulationResult, TranscriptEntry, TurnSummary } from '../api';
import type { HostPort } from '../host-port';
import { RunInputError } from '../run-hook';
import { PythonHostError } from '../../host/host-spawn';
import type { Scenario, ScenarioCompletion } from '../scenario-schema';
import type { AgentHooks } from '../agent-hooks';
import { elideHistory } from './sim-history';
import { dispatchBatch, sleep } from './sim-dispatch';
import { preflight } from './sim-preflight';
import { failedClosed, firePoint, mantlePlayers, settleObservers } from './sim-points';
import { afterSession } from './sim-session';
import { CayuRunEnded } from './sim-cayu';
import { conversationStatus, tagTurn, TurnEnd } from './sim-turns';
import { turnName, turnScenario, userMessages } from '../scenario-turns';
import { complete, responsePayload } from './sim-complete';
import { playSimulatedUser } from './sim-user';
import { CassetteMismatch, type SimModels } from '../model-step';
import { runEndedEnding } from '../cayu-run-ended';
import { newConversation, note, say, type Conversation, type Turn } from './sim-conversation';

export const QUIET_RETRY_EFFECT =
  'on a quiet call RetryModel discards this completion; it does not start another main-loop iteration';

function toolNames(sc: Scenario): string[] {
  return [...Object.keys(sc.tools), ...(sc.knowledge ? [sc.knowledge.tool] : [])];
}

/** model_request: the hooked request, or a graceful stop when the fail-closed hook failed. */
async function hookedRequest(
  t: Turn,
  messages: Record<string, unknown>[],
  tools: string[],
): Promise<Record<string, unknown>> {
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
  return fired.payload;
}

/** A point fires when the engine invokes it, or when the scenario asks for unwired points too. */
function fires(t: Turn, point: PointId): boolean {
  return t.sc.fire_unwired || pointWired(getPoint(point), t.ctx.wiring).wired;
}

/** Bot text to the user, through outgoing_text when it fires: the text sent (null: none, or rejected). */
async function emitText(t: Turn, text: string | null | undefined): Promise<string | null> {
  if (!text) return null;
  if (fires(t, 'outgoing_text')) {
    // The engine passes the turn's voice flag (outgoing_text.py:64, turn_context.py:417).
    const fired = await firePoint(t.ctx, 'outgoing_text', { text, is_voice: t.sc.is_voice, ...t.identity });
    if (fired.modify?.outcome === 'hook-rejection') {
      note(
        t.ctx,
        `outgoing text rejected (${fired.modify.signal?.reason ?? 'no reason'}): a discarded bot utterance is stored`,
      );
      say(t.ctx, rejectionReply(t, fired.modify.signal?.responseMessage, 'outgoing-text fallback'));
      return null;
    }
    text = String(fired.payload.text ?? text);
  }
  say(t.ctx, { role: 'bot', text });
  return text;
}

/**
 * What the user receives for a HookRejection: the response its `response_message` names (a
 * responses.yml name: rasa/mantle/orchestration/hooks/incoming_message.py:123, outgoing_text.py:63),
 * else the packaged fallback. Hooksmith does not render responses.yml: the line names the response.
 */
function rejectionReply(t: Turn, named: string | undefined, packaged: string): TranscriptEntry {
  if (!named) return { role: 'bot', text: packaged, fallback: packaged };
  note(t.ctx, `HookRejection names the response the user receives instead: ${named} (response_message)`);
  return {
    role: 'bot',
    text: `${named} (the response HookRejection.response_message names)`,
    fallback: named,
  };
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
      { role: 'user', content: userMessages(t.sc.user).join('\n') },
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

/** One main-loop iteration; true when the turn is done (text answer). */
async function iterate(t: Turn): Promise<boolean> {
  while (t.sc.completions[t.next]?.quiet) await quietCall(t, t.sc.completions[t.next]!);
  t.ctx.context = `iteration ${t.iteration}`;
  const feedback = t.feedback;
  t.feedback = undefined;
  // RetryModel feedback: an engine-only system note on the next request only, never stored.
  const messages = feedback ? [...t.messages, { role: 'system', content: feedback }] : t.messages;
  const from = t.ctx.events.length;
  const request = await hookedRequest(t, messages, toolNames(t.sc));
  t.lastRequest = elideHistory(t.ctx.events, from, t.messages.length, t.lastRequest);
  const completion = await complete(t, request);
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
    // Persisted as sent (post-hook); a rejected utterance is discarded, masked from the history.
    const sent = await emitText(t, text);
    if (sent !== null || !text) t.messages.push({ role: 'assistant', content: sent });
    return true;
  }
  const batch = await preflight(t.ctx, t.identity, calls);
  if ('retry' in batch) {
    t.feedback = batch.retry;
    return false;
  }
  if ('failed' in batch) {
    say(t.ctx, { role: 'bot', text: FALLBACK_RESPONSES.tool_call, fallback: FALLBACK_RESPONSES.tool_call });
    throw new TurnEnd('error', `tool call hook ${batch.failed}: the batch was not dispatched`);
  }
  const sent = await emitText(t, text);
  const replies: Record<string, unknown>[] = [];
  const replayed: Record<string, unknown>[] = [];
  const dispatched = await dispatchBatch(t.ctx, t.sc, t.identity, batch.run, t.clock);
  for (const [i, call] of batch.run.entries()) {
    const r = dispatched[i]!;
    // Replayed as persisted on tool_executed: the preflight's tool name and the arguments of the
    // tool-result payload (spec: "arguments used for this call (may be rewritten for
    // persistence/replay)"); the id and type stay the engine's.
    replayed.push({ ...calls[i], tool_name: call.tool_name, tool_args: r.arguments });
    replies.push({ role: 'tool', tool_call_id: call.id, content: r.value });
  }
  t.messages.push({ role: 'assistant', content: sent, tool_calls: replayed }, ...replies);
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
  // Several messages at once are a Cayu run's input: no Mantle hook is there to see them
  // (simulateTurn refuses the scenario otherwise).
  const [text, ...more] = userMessages(t.sc.user);
  if (!fires(t, 'incoming_message') || more.length) return undefined;
  t.ctx.context = 'incoming';
  const fired = await firePoint(t.ctx, 'incoming_message', {
    text,
    message_id: null,
    ...t.identity,
  });
  if (fired.modify?.outcome === 'hook-rejection') {
    note(
      t.ctx,
      `incoming message rejected (${fired.modify.signal?.reason ?? 'no reason'}): it is marked discarded and the LLM never sees it`,
    );
    say(t.ctx, rejectionReply(t, fired.modify.signal?.responseMessage, 'incoming-message fallback'));
    t.messages.splice(t.userAt, 1);
    return new TurnEnd('completed', 'incoming message rejected');
  }
  if (failedClosed(fired)) {
    t.messages.splice(t.userAt, 1);
    say(t.ctx, { role: 'bot', text: 'incoming-message fallback', fallback: 'incoming-message fallback' });
    return new TurnEnd(
      'error',
      `incoming message hook ${fired.modify?.outcome}: the engine does not run on the original message`,
    );
  }
  t.messages[t.userAt] = { role: 'user', content: String(fired.payload.text) };
  return undefined;
}

/** A played turn; `endedBy`: a Cayu hook's BaseException ended the run, leaving the session `sessionLeft`. */
type Played = TurnSummary & { internalError?: string; endedBy?: string; sessionLeft?: string };

/** Plays one turn on the conversation: turn_started … turn_finished, always paired. */
async function playTurn(conv: Conversation, sc: Scenario, turn?: number): Promise<Played> {
  const { ctx, identity } = conv;
  const t: Turn = {
    ...conv,
    sc,
    userAt: conv.messages.length,
    callPrefix: turn ? `t${turn}_` : '',
    turnNo: turn ?? 1,
    next: 0,
    iteration: 0,
  };
  const users = userMessages(sc.user);
  for (const content of users) {
    t.messages.push({ role: 'user', content });
    say(ctx, { role: 'user', text: content });
  }
  ctx.context = 'turn';
  await firePoint(ctx, 'turn_started', { is_voice: sc.is_voice, turn_id: null, ...identity });
  let end: TurnEnd;
  let internalError: string | undefined;
  let endedBy: string | undefined;
  let sessionLeft: string | undefined;
  try {
    end = (await incoming(t)) ?? (await mainLoop(t));
  } catch (err) {
    // Bad input (a module that fails to import, Python that cannot start) is not a turn outcome.
    if (err instanceof RunInputError || err instanceof PythonHostError) throw err;
    if (err instanceof CassetteMismatch) {
      conv.cassetteFailure = err.message;
      note(ctx, `the cassette cannot answer: ${err.message}`);
      end = new TurnEnd('error', 'the cassette cannot answer this model request');
    } else if (err instanceof CayuRunEnded) {
      endedBy = err.exceptionType;
      sessionLeft = err.sessionLeft;
      note(ctx, err.message);
      end = new TurnEnd('error', runEndedEnding(endedBy, sessionLeft));
    } else if (!(err instanceof TurnEnd)) {
      internalError = err instanceof Error ? err.message : String(err);
      note(ctx, `the turn failed unexpectedly: ${internalError}`);
      end = new TurnEnd('error', 'unexpected failure');
    } else end = err;
  }
  ctx.context = 'turn';
  // Always paired with turn_started, whatever happened.
  await firePoint(ctx, 'turn_finished', { status: end.status, turn_id: null, ...identity });
  conv.lastRequest = t.lastRequest;
  const summary = {
    turn: turn ?? 1,
    name: '',
    user: users.join('\n'),
    status: end.status,
    ending: end.ending,
    iterations: t.iteration,
  };
  return {
    ...summary,
    ...(internalError !== undefined ? { internalError } : {}),
    ...(endedBy ? { endedBy, sessionLeft } : {}),
  };
}

/** Several user messages in one turn are Cayu's run input; Mantle takes one message a turn. */
function refuseSeveralForMantle(hooks: AgentHooks, sc: Scenario): void {
  const several = [sc.user, ...(sc.turns ?? []).map((t) => t.user)].some(
    (u) => Array.isArray(u) && u.length > 1,
  );
  if (several && (hooks.observe.size > 0 || hooks.modify.size > 0))
    throw new RunInputError(
      'payload',
      "a turn of several user messages is a Cayu run's input; Mantle takes one message a turn, and this agent has Mantle hooks: give each message a turn of its own",
    );
}

export async function simulateTurn(
  host: HostPort,
  hooks: AgentHooks,
  sc: Scenario,
  source: string,
  wiring?: WiringSource,
  models?: SimModels,
): Promise<SimulationResult> {
  const t0 = performance.now();
  refuseSeveralForMantle(hooks, sc);
  const conv = newConversation(host, hooks, sc, wiring, models);
  const { ctx } = conv;
  if (models) note(ctx, models.banner());
  let played: Played[] = [];
  let ending: string | undefined;
  const stops = (r: Played) => r.internalError !== undefined || !!r.endedBy || !!conv.cassetteFailure;
  // Cayu runs the session phases after each run / resume: after every turn, by its status.
  const endSession = async (r: Played): Promise<Played> => {
    if (r.endedBy) return r;
    const ended = await afterSession(ctx, r.status, r.ending, sc.cayu?.app_hooks ?? []);
    return ended ? { ...r, ...ended } : r;
  };
  if (sc.user_simulation && models) {
    const sim = await playSimulatedUser(
      ctx,
      sc,
      models,
      async (turn, n) => endSession(await playTurn(conv, turn, n)),
      stops,
    );
    ({ played, ending } = sim);
    conv.cassetteFailure ??= sim.cassetteFailure;
  } else if (!sc.turns) played.push(await endSession(await playTurn(conv, sc)));
  else
    for (const [i, turn] of sc.turns.entries()) {
      const mark = { events: ctx.events.length, transcript: ctx.transcript.length, tools: ctx.tools.length };
      const r = await endSession(await playTurn(conv, turnScenario(sc, turn), i + 1));
      tagTurn(ctx, mark, i + 1);
      played.push({ ...r, name: turnName(sc, i + 1) });
      // Hooksmith itself failed, or a BaseException ended the Cayu run: the conversation stops.
      if (stops(r)) break;
    }
  const last = played[played.length - 1]!;
  const many = !!sc.turns || !!sc.user_simulation;
  const status = many ? conversationStatus(played) : last.status;
  const { endedBy, sessionLeft } = last;
  const turnMs = performance.now() - t0;
  await settleObservers(ctx);
  const hookMs = ctx.events.reduce((s, e) => s + (e.offTurnPath ? 0 : (e.durationMs ?? 0)), 0);
  const internalError = played.find((p) => p.internalError !== undefined)?.internalError;
  return {
    scenario: source,
    events: ctx.events,
    transcript: ctx.transcript,
    tools: ctx.tools,
    status,
    agentRoot: hooks.root,
    iterations: played.reduce((n, p) => n + p.iterations, 0),
    durationMs: Math.round(turnMs * 10) / 10,
    hookMs: Math.round(hookMs * 10) / 10,
    scriptedMs: conv.clock.scriptedMs,
    ending: ending ?? last.ending,
    ...(internalError !== undefined ? { internalError } : {}),
    ...(many ? { turns: played.map(({ internalError: _e, endedBy: _b, sessionLeft: _s, ...p }) => p) } : {}),
    ...(endedBy ? { endedBy, sessionLeft } : {}),
    ...(models ? { models: models.summary(conv.cassetteFailure) } : {}),
    ...mantlePlayers(ctx.events),
  };
}
