// Raw facts from the host → what Cayu does with a RuntimeHook phase (spec/cayu-runtime-hooks.md,
// DESIGN.md facts on the decision validator). Pure.
//
// What the runtime does with a failed hook is read from cayu's own runner (docs/semantics.md "Cayu";
// the conformance corpus in test/fixtures/cayu-corpus is recorded from it): an Exception, a wrong
// return type or an invalid decision is recorded as a hook failure and the loop goes on —
// fail-open: the tool runs with the current arguments, a result stays, a session keeps its status.
import { findCayuDecision, findCayuPhase, type CayuPhaseId } from '../catalogue';
import type { HookError } from './api';
import { HARD_KILL_NOTE } from './effects';
import type { HostFact, ReturnedValue } from './host-port';
import { describeReturn, type Verdict } from './mantle-outcome';
import { stringifyJson } from '../json/lossless-json';

export type CayuDecisionData = Record<string, unknown> & { action: string };

export const CAYU_FAILED_EFFECT = {
  before_tool_call:
    'the hook failed (recorded as hook.failed): later hooks still run and the tool runs unguarded with the current arguments',
  after_tool_call:
    'the hook failed (recorded as hook.failed): later hooks still run and the result is kept as it was',
  session: 'the hook failed (recorded as hook.failed): later hooks still run; the session keeps its status',
} as const;

/** A BaseException that is not an Exception: the runtime does not catch it. */
export const CAYU_BASE_EXCEPTION_EFFECT =
  'not an Exception: the runtime does not catch it, and the run ends (no tool, no later hook, no session hook)';

function failEffect(phase: CayuPhaseId): string {
  return phase === 'before_tool_call' || phase === 'after_tool_call'
    ? CAYU_FAILED_EFFECT[phase]
    : CAYU_FAILED_EFFECT.session;
}

function blank(v: unknown): boolean {
  return v === undefined || v === null;
}

/**
 * The validator DESIGN.md describes: `proceed_modified` requires `modified_arguments`,
 * `short_circuit` requires `synthetic_result`, `block` a non-blank `block_reason`, `modify`
 * requires `modified_result`; each companion only with its own action. Returns the problems.
 */
export function validateDecision(phase: CayuPhaseId, data: Record<string, unknown>): string[] {
  const decision = findCayuDecision(findCayuPhase(phase)?.decision ?? '');
  if (!decision) return [`${phase} returns None; no decision is expected`];
  const problems: string[] = [];
  const action = data.action;
  const spec = decision.actions.find((a) => a.action === action);
  if (!spec)
    problems.push(
      `action ${stringifyJson(action)} is not one of ${decision.actions.map((a) => `'${a.action}'`).join(', ')}`,
    );
  for (const key of Object.keys(data)) {
    if (key !== 'action' && !(key in decision.fields))
      problems.push(`unknown field '${key}' (extra fields are forbidden)`);
  }
  for (const a of decision.actions) {
    if (!a.companion) continue;
    const present = !blank(data[a.companion]);
    if (a.action === action && !present) problems.push(`action '${a.action}' requires ${a.companion}`);
    if (a.action !== action && present)
      problems.push(`${a.companion} is only valid with action '${a.action}'`);
  }
  if (action === 'block' && typeof data.block_reason === 'string' && data.block_reason.trim() === '')
    problems.push('block_reason must not be blank');
  return problems;
}

/** The effect of a valid decision (None counts as proceed / pass_through). */
export function decisionEffect(phase: CayuPhaseId, data: CayuDecisionData | null): string {
  if (phase === 'before_tool_call') {
    switch (data?.action ?? 'proceed') {
      case 'proceed_modified':
        return 'the tool runs with modified_arguments';
      case 'short_circuit':
        return 'the tool is skipped; synthetic_result is the call’s result';
      case 'block':
        return `the tool is skipped; the call returns an error result carrying the reason: ${String(data?.block_reason)}`;
      default:
        return 'the tool runs with its arguments unchanged';
    }
  }
  if (phase === 'after_tool_call') {
    return data?.action === 'modify'
      ? 'modified_result replaces the result before it enters the transcript'
      : 'the result enters the transcript unchanged';
  }
  return 'nothing to decide: the session has already ended';
}

function errorOf(fact: HostFact): HookError | null {
  if (fact.kind === 'raised' || fact.kind === 'load-error') return fact.error;
  if (fact.kind === 'crashed')
    return { type: 'HostCrash', message: fact.message, traceback: [], formatted: fact.message };
  return null;
}

function decisionOf(
  phase: CayuPhaseId,
  value: ReturnedValue,
): { data: CayuDecisionData | null; problems: string[] } {
  const expected = findCayuPhase(phase)?.decision;
  if (value.kind === 'none') return { data: null, problems: [] };
  if (!expected) return { data: null, problems: [] };
  if (value.kind !== 'decision' || value.type !== expected) {
    return {
      data: null,
      problems: [`returned ${describeReturn(value)} where a ${expected} or None is expected`],
    };
  }
  const problems = validateDecision(phase, value.data);
  return { data: value.data as CayuDecisionData, problems };
}

export function cayuVerdict(
  phase: CayuPhaseId,
  input: unknown,
  fact: Exclude<HostFact, { kind: 'load-error' }>,
): Verdict {
  const base = { policy: 'cayu' as const, signal: null, error: errorOf(fact) };
  switch (fact.kind) {
    case 'returned': {
      const notes: string[] = [];
      const expected = findCayuPhase(phase)?.decision;
      if (!expected && fact.value.kind !== 'none')
        notes.push(`returned ${describeReturn(fact.value)}: ${phase} returns None; the value is ignored`);
      const { data, problems } = decisionOf(phase, fact.value);
      if (problems.length) {
        // The runtime raises for the value it cannot use: a hook failure like any other.
        const wrongType = fact.value.kind !== 'decision' || fact.value.type !== expected;
        const message = wrongType ? `${phase} must return a ${expected} or None.` : problems.join('; ');
        return {
          ...base,
          error: {
            type: wrongType ? 'TypeError' : 'ValidationError',
            message,
            traceback: [],
            formatted: `${wrongType ? 'TypeError' : 'ValidationError'}: ${message}`,
          },
          outcome: 'invalid-return',
          payload: input,
          effect: failEffect(phase),
          notes: problems.map((p) => `invalid decision: ${p}`),
        };
      }
      return {
        ...base,
        outcome: 'returned',
        payload:
          data ?? (expected ? { action: phase === 'before_tool_call' ? 'proceed' : 'pass_through' } : null),
        effect: decisionEffect(phase, data),
        notes,
      };
    }
    case 'raised': {
      const validator = /ValidationError/.test(fact.error.type)
        ? [`Cayu's decision validator rejected the decision: ${fact.error.message}`]
        : [];
      const effect = fact.error.baseException ? CAYU_BASE_EXCEPTION_EFFECT : failEffect(phase);
      return { ...base, outcome: 'crashed', payload: input, effect, notes: validator };
    }
    case 'timed-out':
      return {
        ...base,
        outcome: 'timed-out',
        payload: input,
        effect: `Hooksmith's own safety stop (not the engine's) ended the hook: the Cayu runtime itself would still be waiting (it puts no timeout around a hook); ${failEffect(phase)}`,
        notes: [
          `the Cayu runtime puts no timeout around a hook; Hooksmith's safety stop ended this one after ${safetyStopText(fact.durationMs)} (hooksmith.cayu.safetyStopSeconds, --cayu-safety-stop)`,
          ...(fact.hard ? [HARD_KILL_NOTE] : []),
        ],
      };
    case 'crashed':
      return { ...base, outcome: 'crashed', payload: input, effect: failEffect(phase), notes: [] };
  }
}

function safetyStopText(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))} s`;
}

/** Past this, a returning hook's time is shown as the delay it causes (the runtime waits: no timeout). */
export const CAYU_DELAY_NOTE_MS = 100;

/** What a slow hook that returned cost the run: the wait, not a timeout. */
export function cayuDelayNote(durationMs: number | undefined, what: string): string[] {
  return (durationMs ?? 0) >= CAYU_DELAY_NOTE_MS
    ? [
        `${what} waited ${Math.round(durationMs!)} ms for this hook (the runtime puts no timeout around a hook)`,
      ]
    : [];
}
