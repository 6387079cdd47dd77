// Firing one insertion point inside a simulated turn: observers on independent copies,
// concurrently; then the modify hook, awaited; one TimelineEvent per hook — or one without `hook`
// when nothing is registered, so the timeline always shows the point.
import { getPoint, type CayuPhaseId, type PointId } from '../catalogue';
import type { RunResult, TimelineEvent, TranscriptEntry } from './api';
import { cloneJson } from './json-equal';
import type { HostPort } from './host-port';
import { invokeHook } from './run-hook';
import type { AgentHook, AgentHooks } from './sim-agent';

export interface SimContext {
  host: HostPort;
  hooks: AgentHooks;
  events: TimelineEvent[];
  transcript: TranscriptEntry[];
  /** "iteration 0", "rephrase", "session" … for the timeline. */
  context: string;
}

export interface Fired {
  /** The payload the engine carries on with: the modify hook's (after the wall) or the input. */
  payload: Record<string, unknown>;
  /** The modify hook's result, when one is registered. */
  modify?: RunResult;
}

function eventFrom(ctx: SimContext, hook: AgentHook, r: RunResult, wired: boolean): TimelineEvent {
  return {
    seq: 0,
    point: r.point,
    lane: r.lane,
    hook: hook.label,
    outcome: r.outcome,
    durationMs: r.durationMs,
    timeoutMs: r.timeoutMs,
    before: r.inputPayload,
    after: r.payload,
    signal: r.signal,
    error: r.error,
    effect: r.effect,
    wired,
    context: ctx.context,
    notes: r.notes,
    ...(r.output ? { output: r.output } : {}),
    ...(r.actions ? { actions: r.actions } : {}),
  };
}

export function pushEvent(ctx: SimContext, e: TimelineEvent): void {
  e.seq = ctx.events.length + 1;
  ctx.events.push(e);
}

const NO_HOOK = 'no hook registered: the engine carries on with the payload unchanged';

/** Fires a Mantle point. Observers run concurrently on copies; the modify hook is awaited. */
export async function firePoint(
  ctx: SimContext,
  pointId: PointId,
  input: Record<string, unknown>,
  extraNotes: string[] = [],
): Promise<Fired> {
  const point = getPoint(pointId);
  const observers = ctx.hooks.observe.get(pointId) ?? [];
  const modifier = ctx.hooks.modify.get(pointId);
  const notes = [
    ...extraNotes,
    ...(point.wired
      ? []
      : ['not invoked by the engine today (fired because the scenario sets fire_unwired)']),
  ];
  if (!observers.length && !modifier) {
    pushEvent(ctx, {
      seq: 0,
      point: pointId,
      lane: point.hasModifyLane ? 'modify' : 'observe',
      before: cloneJson(input),
      after: cloneJson(input),
      effect: NO_HOOK,
      wired: point.wired,
      context: ctx.context,
      notes,
    });
    return { payload: input };
  }
  const run = (h: AgentHook) => invokeHook(ctx.host, h.file, h.agentRoot, h.target, cloneJson(input));
  // Observers run concurrently among themselves and before the modify hook: an observer that
  // blocks the loop (host killed) is then never blamed on the modify hook in flight beside it.
  const observed = await Promise.all(observers.map(run));
  const modified = modifier ? await run(modifier) : undefined;
  observers.forEach((h, i) => pushEvent(ctx, withNotes(eventFrom(ctx, h, observed[i]!, point.wired), notes)));
  if (!modifier || !modified) return { payload: input };
  pushEvent(ctx, withNotes(eventFrom(ctx, modifier, modified, point.wired), notes));
  const payload =
    modified.payload && typeof modified.payload === 'object'
      ? (modified.payload as Record<string, unknown>)
      : input;
  return { payload, modify: modified };
}

function withNotes(e: TimelineEvent, notes: string[]): TimelineEvent {
  return notes.length ? { ...e, notes: [...notes, ...e.notes] } : e;
}

/** The modify hook failed under a fail-closed policy: the engine stops the turn. */
export function failedClosed(f: Fired): boolean {
  const o = f.modify?.outcome;
  return (
    f.modify?.policy === 'fail-closed' && (o === 'crashed' || o === 'timed-out' || o === 'invalid-return')
  );
}

/** RuntimeHook methods overriding a phase, in file/class order. */
export function phaseHooks(ctx: SimContext, phase: CayuPhaseId): AgentHook[] {
  return ctx.hooks.cayu.get(phase) ?? [];
}

/** A Cayu phase with no overriding method: shown once, taking no part. */
export function pushIdlePhase(ctx: SimContext, phase: CayuPhaseId, input: Record<string, unknown>): void {
  pushEvent(ctx, {
    seq: 0,
    point: phase,
    lane: 'phase',
    before: input,
    after: input,
    effect: 'no RuntimeHook overrides this phase: it takes no part',
    wired: true,
    context: ctx.context,
    notes: [],
  });
}

/** Runs one RuntimeHook phase method and records its event. */
export async function firePhaseHook(
  ctx: SimContext,
  hook: AgentHook,
  input: Record<string, unknown>,
): Promise<RunResult> {
  const r = await invokeHook(ctx.host, hook.file, hook.agentRoot, hook.target, cloneJson(input));
  pushEvent(ctx, eventFrom(ctx, hook, r, true));
  return r;
}
