// Firing one insertion point inside a simulated turn. Observers get independent copies and are
// scheduled concurrently, not awaited on the turn path (spec "Turn lifecycle"); the modify hook is
// awaited. One TimelineEvent per hook — or one without `hook` when nothing is registered, so the
// timeline always shows the point. An observer's event keeps its place and is filled in when it ends.
import { getPoint, spelledPoint, type CayuPhaseId, type PointId } from '../../catalogue';
import type { RunResult, TimelineEvent, ToolRun, TranscriptEntry } from '../api';
import { pointWired, type Wiring, type WiringSource } from '../../catalogue/wiring';
import { firedUnwiredNote, HARD_KILL_NOTE } from '../effects';
import { cloneJson } from '../../json/json-equal';
import type { HostPort } from '../host-port';
import { invokeHook } from '../run-hook';
import type { AgentHook, AgentHooks } from '../agent-hooks';

export interface SimContext {
  host: HostPort;
  hooks: AgentHooks;
  events: TimelineEvent[];
  transcript: TranscriptEntry[];
  tools: ToolRun[];
  /** "iteration 0", "rephrase", "session" … for the timeline. */
  context: string;
  /** Observers still running off the turn path; the simulation awaits them after the turn. */
  background: Promise<void>[];
  /** Whether the engine invokes each point (the installed rasa-pro, the setting); else the catalogue. */
  wiring?: WiringSource;
}

export interface Fired {
  /** The payload the engine carries on with: the modify hook's (after the wall) or the input. */
  payload: Record<string, unknown>;
  /** The modify hook's result, when one is registered. */
  modify?: RunResult;
}

/** `wiring`: a Mantle point's (Cayu phases are always invoked). */
function eventFrom(
  ctx: SimContext,
  hook: AgentHook,
  r: RunResult,
  wiring: Wiring | undefined,
): TimelineEvent {
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
    wired: wiring?.wired ?? true,
    ...(wiring ? { wiredBy: wiring.by } : {}),
    context: ctx.context,
    notes: r.notes,
    ...(r.output ? { output: r.output } : {}),
    ...(r.actions ? { actions: r.actions } : {}),
    ...(r.overBudget ? { overBudget: true } : {}),
    ...(r.debug ? { debug: r.debug } : {}),
    ...(r.hookName !== undefined ? { hookName: r.hookName } : {}),
    ...(r.engine === 'mantle' && r.playedBy ? { playedBy: r.playedBy } : {}),
  };
}

export function pushEvent(ctx: SimContext, e: TimelineEvent): void {
  e.seq = ctx.events.length + 1;
  ctx.events.push(e);
}

const NO_HOOK = 'no hook registered: the engine carries on with the payload unchanged';

/** Fires a Mantle point. Observers are scheduled on copies and not awaited; the modify hook is. */
export async function firePoint(
  ctx: SimContext,
  pointId: PointId,
  input: Record<string, unknown>,
  extraNotes: string[] = [],
): Promise<Fired> {
  const point = getPoint(pointId);
  const wiring = pointWired(point, ctx.wiring);
  const observers = ctx.hooks.observe.get(pointId) ?? [];
  const modifier = ctx.hooks.modify.get(pointId);
  const notes = [...extraNotes, ...(wiring.wired ? [] : [firedUnwiredNote(wiring)])];
  if (!observers.length && !modifier) {
    pushEvent(ctx, {
      seq: 0,
      point: spelledPoint(pointId),
      lane: point.hasModifyLane ? 'modify' : 'observe',
      before: cloneJson(input),
      after: cloneJson(input),
      effect: NO_HOOK,
      wired: wiring.wired,
      wiredBy: wiring.by,
      context: ctx.context,
      notes,
    });
    return { payload: input };
  }
  const run = (h: AgentHook) =>
    invokeHook(ctx.host, h.file, h.agentRoot, h.target, cloneJson(input), ctx.wiring);
  for (const h of observers) scheduleObserver(ctx, pointId, h, run(h), wiring, notes);
  if (!modifier) return { payload: input };
  const killsBefore = hardKilledObservers(ctx);
  let modified = await run(modifier);
  if (await killedByObserver(ctx, modified, killsBefore)) {
    // The host ran both: an observer that blocked its loop took the modify hook down with it.
    // The engine would only have been delayed, so the modify hook gets its own run.
    modified = await run(modifier);
    modified.notes.unshift(RERUN_NOTE);
  }
  pushEvent(ctx, withNotes(eventFrom(ctx, modifier, modified, wiring), notes));
  const payload =
    modified.payload && typeof modified.payload === 'object'
      ? (modified.payload as Record<string, unknown>)
      : input;
  return { payload, modify: modified };
}

const OFF_PATH_NOTE = 'observer: scheduled concurrently and not awaited on the turn path';
const RERUN_NOTE =
  'run again: an observer running beside it blocked the host past its deadline and the host was restarted';

/** Reserves the observer's place in the timeline now and fills it in when it ends. */
function scheduleObserver(
  ctx: SimContext,
  point: PointId,
  hook: AgentHook,
  result: Promise<RunResult>,
  wiring: Wiring,
  notes: string[],
): void {
  const placeholder: TimelineEvent = {
    seq: 0,
    point,
    lane: 'observe',
    hook: hook.label,
    wired: wiring.wired,
    wiredBy: wiring.by,
    context: ctx.context,
    notes: [],
  };
  pushEvent(ctx, placeholder);
  const settled = result.then(
    (r) => {
      // Its place and its context (the quiet call or iteration it fired on) are those of when it
      // was scheduled: by the time it ends the turn has moved on.
      const { seq, context } = placeholder;
      Object.assign(placeholder, withNotes(eventFrom(ctx, hook, r, wiring), [OFF_PATH_NOTE, ...notes]), {
        seq,
        context,
        offTurnPath: true,
      });
    },
    (err: unknown) => {
      placeholder.error = {
        type: err instanceof Error ? err.name : 'Error',
        message: err instanceof Error ? err.message : String(err),
        traceback: [],
        formatted: String(err),
      };
      placeholder.offTurnPath = true;
      throw err;
    },
  );
  settled.catch(() => undefined); // awaited by settleObservers; not an unhandled rejection meanwhile
  ctx.background.push(settled);
}

function hardKilledObservers(ctx: SimContext): number {
  return ctx.events.filter(
    (e) => e.offTurnPath && e.outcome === 'timed-out' && e.notes.includes(HARD_KILL_NOTE),
  ).length;
}

/** The modify hook crashed because the host was killed for an observer blocking its loop. */
async function killedByObserver(ctx: SimContext, r: RunResult, killsBefore: number): Promise<boolean> {
  if (r.outcome !== 'crashed' || r.error?.type !== 'HostCrash') return false;
  // The host's death settled every call in flight: these resolve at once.
  await Promise.allSettled(ctx.background);
  return hardKilledObservers(ctx) > killsBefore;
}

/** Lets every observer still running finish, so its event is complete. */
export async function settleObservers(ctx: SimContext): Promise<void> {
  for (let i = 0; i < ctx.background.length; i++) await ctx.background[i];
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
  /** Says what the runtime then did, before the event is recorded. */
  explain?: (r: RunResult) => void,
): Promise<RunResult> {
  const r = await invokeHook(ctx.host, hook.file, hook.agentRoot, hook.target, cloneJson(input));
  explain?.(r);
  pushEvent(ctx, eventFrom(ctx, hook, r, undefined));
  return r;
}

/**
 * Who played the Mantle hook calls: rasa-pro's runner played each call where it imports; the turn
 * around them is Hooksmith's (a whole rasa-pro turn needs a trained model and a license key).
 */
export function mantlePlayers(events: readonly TimelineEvent[]): { mantlePlayedBy?: string } {
  const who = [...new Set(events.flatMap((e) => (e.playedBy && e.lane !== 'phase' ? [e.playedBy] : [])))];
  return who.length ? { mantlePlayedBy: who.join('; ') } : {};
}
