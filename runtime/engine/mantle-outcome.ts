// Raw facts from the host → what the Mantle engine makes of them (spec "Control signals",
// "A point's fail policy…", per-point sections). Pure: unit-tested without Python.
import type { Lane, MantlePoint } from '../catalogue';
import type { HookError, Outcome, RaisedSignal, RunResult } from './api';
import { pointWired, type Wiring } from '../catalogue/wiring';
import { CONTINUE_EFFECT, HARD_KILL_NOTE, notWiredNote, OBSERVE_EFFECT } from './effects';
import type { HostFact } from './host-port';
import type { MantleRunnerDecision } from '../host/protocol';
import { applyPayloadWall } from './payload-wall';

export type Verdict = Pick<
  RunResult,
  'outcome' | 'payload' | 'signal' | 'error' | 'policy' | 'effect' | 'notes'
>;

type HookFact = Exclude<HostFact, { kind: 'load-error' }>;

function errorOf(fact: HookFact): HookError | null {
  if (fact.kind === 'raised') return fact.error;
  if (fact.kind === 'crashed')
    return { type: 'HostCrash', message: fact.message, traceback: [], formatted: fact.message };
  return null;
}

function signalOf(fact: HookFact, honoured: boolean): RaisedSignal | null {
  if (fact.kind !== 'raised' || !fact.signal) return null;
  return { ...fact.signal, honoured };
}

function observeVerdict(
  point: MantlePoint,
  input: Record<string, unknown>,
  fact: HookFact,
  wiring: Wiring,
): Verdict {
  const base = {
    payload: input,
    policy: 'observe' as const,
    notes: [] as string[],
    error: errorOf(fact),
    signal: signalOf(fact, false),
  };
  if (!wiring.wired) base.notes.push(notWiredNote(wiring));
  switch (fact.kind) {
    case 'returned':
      if (fact.value.kind !== 'none')
        base.notes.push(
          `the observer returned ${describeReturn(fact.value)}: observe hooks return None; the value is discarded`,
        );
      return {
        ...base,
        outcome: 'returned',
        effect: fact.value.kind === 'none' ? OBSERVE_EFFECT.returned : OBSERVE_EFFECT.ignoredReturn,
      };
    case 'raised':
      return fact.signal
        ? { ...base, outcome: 'ignored-signal', effect: OBSERVE_EFFECT.signal }
        : { ...base, outcome: 'crashed', effect: OBSERVE_EFFECT.crashed };
    case 'timed-out':
      if (fact.hard) base.notes.push(HARD_KILL_NOTE);
      return { ...base, outcome: 'timed-out', effect: OBSERVE_EFFECT.timedOut };
    case 'crashed':
      return { ...base, outcome: 'crashed', effect: OBSERVE_EFFECT.crashed };
  }
}

export function describeReturn(value: Extract<HostFact, { kind: 'returned' }>['value']): string {
  switch (value.kind) {
    case 'none':
      return 'None';
    case 'payload':
    case 'decision':
      return `a ${value.type}`;
    case 'cayu-session':
      return 'a Cayu session record';
    case 'other':
      return `a ${value.pythonType} (${value.repr.length > 80 ? value.repr.slice(0, 77) + '...' : value.repr})`;
  }
}

function modifyVerdict(
  point: MantlePoint,
  input: Record<string, unknown>,
  fact: HookFact,
  wiring: Wiring,
): Verdict {
  const open = point.failPolicy === 'open';
  const policy = open ? ('fail-open' as const) : ('fail-closed' as const);
  const notes: string[] = wiring.wired ? [] : [notWiredNote(wiring)];
  const failed = (outcome: Outcome, extra: string[] = []): Verdict => ({
    outcome,
    payload: open ? input : null,
    signal: signalOf(fact, false),
    error: errorOf(fact),
    policy,
    effect: point.failEffect ?? '',
    notes: [...notes, ...extra],
  });
  switch (fact.kind) {
    case 'returned': {
      const v = fact.value;
      if (v.kind !== 'payload' || v.type !== point.payloadType) {
        const why =
          v.kind === 'none'
            ? `returned None: a modify hook must return a ${point.payloadType} (return the payload unchanged to keep it)`
            : `returned ${describeReturn(v)} where a ${point.payloadType} is expected`;
        return failed('invalid-return', [why]);
      }
      const wall = applyPayloadWall(point.payloadType, input, v.data);
      if (!wall.ok)
        return failed('invalid-return', [
          ...wall.notes,
          ...wall.errors.map((e) => `returned payload has a bad field: ${e}`),
        ]);
      return {
        outcome: 'returned',
        payload: wall.payload,
        signal: null,
        error: null,
        policy,
        effect: CONTINUE_EFFECT[point.id],
        notes: [...notes, ...wall.notes],
      };
    }
    case 'raised': {
      const s = fact.signal;
      if (!s) return failed('crashed');
      if (point.signals.includes(s.type)) {
        return {
          outcome: s.type === 'RetryModel' ? 'retry-model' : 'hook-rejection',
          payload: null,
          signal: signalOf(fact, true),
          error: null,
          policy,
          effect: point.signalEffects[s.type] ?? '',
          notes,
        };
      }
      return {
        outcome: 'ignored-signal',
        payload: input,
        signal: signalOf(fact, false),
        error: null,
        policy,
        effect: point.unsupportedSignalEffect,
        notes: [
          ...notes,
          `${s.type} is not allowed at ${point.id} (allowed: ${point.signals.join(', ') || 'none'}); it never acquires ${s.type === 'RetryModel' ? 'retry' : 'rejection'} semantics here`,
        ],
      };
    }
    case 'timed-out':
      return failed('timed-out', fact.hard ? [HARD_KILL_NOTE] : []);
    case 'crashed':
      return failed('crashed');
  }
}

/** The engine's verdict on one invocation of a Mantle hook; `wiring`: whether the engine invokes the point. */
export function mantleVerdict(
  point: MantlePoint,
  lane: Lane,
  input: Record<string, unknown>,
  fact: HookFact,
  wiring: Wiring = pointWired(point, undefined),
): Verdict {
  const verdict =
    lane === 'observe'
      ? observeVerdict(point, input, fact, wiring)
      : modifyVerdict(point, input, fact, wiring);
  return fact.runner && lane === 'modify' ? followRunner(point, input, verdict, fact.runner) : verdict;
}

/** What the runner's outcome (rasa/mantle/hooks/types.py HookOutcome) is in Hooksmith's words. */
function runnerOutcomes(runner: MantleRunnerDecision): readonly Outcome[] {
  switch (runner.outcome) {
    case 'success':
      return ['returned'];
    case 'timeout':
      return ['timed-out'];
    case 'retry':
      return ['retry-model'];
    case 'rejection':
      return ['hook-rejection'];
    case 'error':
      // The runner says "error" for a crash, a wrong return and a discarded signal alike
      // (runner.py:341, :355, :361): the hook's own record tells them apart.
      return ['crashed', 'invalid-return', 'ignored-signal'];
  }
}

/**
 * Real-engine mode: rasa-pro's runner decided (its timeout, its copy, its fail policy, its signal
 * handling, its identity restoring). The emulation's reading of the same call gives the words; where
 * the two disagree the runner wins and a note says so (the conformance corpus keeps that at zero).
 */
function followRunner(
  point: MantlePoint,
  input: Record<string, unknown>,
  verdict: Verdict,
  runner: MantleRunnerDecision,
): Verdict {
  const allowed = runnerOutcomes(runner);
  const out: Verdict = { ...verdict, notes: [...verdict.notes] };
  if (!allowed.includes(verdict.outcome)) {
    out.notes.push(
      `rasa-pro's hook runner decided ${runner.outcome}${runner.executionError ? ` (${runner.executionError})` : ''} where Hooksmith's emulation reads ${verdict.outcome}: the runner's decision stands`,
    );
    out.outcome = allowed[0]!;
  }
  if (runner.outcome === 'success' && runner.payload && typeof runner.payload === 'object') {
    // The runner's payload (identity restored, runner.py:84), then what the point's call site takes.
    const wall = applyPayloadWall(point.payloadType, input, runner.payload as Record<string, unknown>);
    if (wall.ok) out.payload = wall.payload;
  }
  // A failure keeps the input, unless the point is fail-closed and the runner raised
  // HookExecutionError (runner.py:292); a discarded signal keeps it even there (runner.py:342).
  if (runner.outcome === 'error' || runner.outcome === 'timeout')
    out.payload = runner.executionError ? null : input;
  return out;
}
