// A payload case's `expect` checked against one run of its hook.
import type { RunResult } from '../engine/api';
import type { ExpectationResult } from './cases';
import { stringifyJson } from '../json/lossless-json';
import type { PayloadCaseExpect } from '../engine/expect-schema';
import { asList, subsetMismatch } from './match';
import type { SourceLines } from './source-lines';

type Check = Omit<ExpectationResult, 'path' | 'line'>;

function signalMessage(r: RunResult): string | undefined {
  return r.signal ? (r.signal.feedback ?? r.signal.reason ?? '') : undefined;
}

function describeRun(r: RunResult): string {
  const err = r.error ? ` (${r.error.type}: ${r.error.message})` : '';
  const sig = r.signal ? ` (${r.signal.type}: ${signalMessage(r)})` : '';
  return `${r.outcome}${err}${sig}`;
}

/** `fields:` a subset the payload must contain, or `snapshot` (the whole payload as recorded). */
function fieldsCheck(value: unknown, r: RunResult): Check {
  const actual = stringifyJson(r.payload, 2);
  if (value === 'snapshot' || (isObject(value) && Object.keys(value).length === 1 && 'snapshot' in value)) {
    const recorded = value === 'snapshot' ? undefined : value.snapshot;
    return {
      name: 'fields snapshot',
      passed:
        recorded !== undefined &&
        !subsetMismatch(recorded, r.payload) &&
        !subsetMismatch(r.payload, recorded),
      expected:
        recorded === undefined
          ? '(no snapshot recorded: run hooksmith test --update)'
          : stringifyJson(recorded, 2),
      actual,
      observed: r.payload,
    };
  }
  const mismatch = subsetMismatch(value, r.payload);
  return {
    name: 'fields',
    passed: !mismatch,
    expected: stringifyJson(value, 2),
    actual: mismatch ? `differs at ${mismatch}:\n${actual}` : actual,
  };
}

/** `not_contains:` strings the payload's JSON must not contain (a secret, a raw card number). */
function notContainsCheck(value: string | string[], r: RunResult): Check {
  const text = stringifyJson(r.payload) ?? '';
  const found = asList(value).filter((s) => text.includes(s));
  return {
    name: 'not_contains',
    passed: !found.length,
    expected: `the payload contains none of ${stringifyJson(asList(value))}`,
    actual: found.length ? `contains ${found.map((s) => stringifyJson(s)).join(', ')}: ${text}` : text,
  };
}

function checkOf(key: keyof PayloadCaseExpect, value: unknown, r: RunResult): Check | undefined {
  switch (key) {
    case 'outcome':
      return {
        name: 'outcome',
        passed: r.outcome === value,
        expected: String(value),
        actual: describeRun(r),
      };
    case 'fields':
      return fieldsCheck(value, r);
    case 'not_contains':
      return notContainsCheck(value as string | string[], r);
    case 'signal_contains': {
      const msg = signalMessage(r);
      return {
        name: 'signal_contains',
        passed: msg !== undefined && msg.includes(String(value)),
        expected: `a signal whose message contains ${stringifyJson(value)}`,
        actual: msg === undefined ? `no signal (${describeRun(r)})` : `${r.signal?.type}: ${msg}`,
      };
    }
    case 'within_budget':
      return value
        ? {
            name: 'within_budget',
            passed: r.outcome !== 'timed-out' && !r.overBudget && r.durationMs <= r.timeoutMs,
            expected: `within ${r.timeoutMs} ms`,
            actual: `${r.durationMs} ms (${r.outcome})`,
          }
        : undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function evaluatePayloadCase(
  expect: PayloadCaseExpect,
  r: RunResult,
  lines: SourceLines,
): ExpectationResult[] {
  const out: ExpectationResult[] = [];
  for (const [key, value] of Object.entries(expect)) {
    if (value === undefined) continue;
    const check = checkOf(key as keyof PayloadCaseExpect, value, r);
    if (check) out.push({ ...check, path: ['expect', key], line: lines.lineOf(['expect', key]) });
  }
  return out;
}
