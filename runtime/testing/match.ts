// The matchers expectations share: subset match of JSON values and checks on a text.
import type { TextMatch } from '../engine/expect-schema';
import { userRegexTest } from '../engine/user-regex';

/** Where `actual` departs from `expected` (a JSON path), or null when every expected key matches. */
export function subsetMismatch(expected: unknown, actual: unknown, at = ''): string | null {
  if (expected !== null && typeof expected === 'object') {
    if (Array.isArray(expected)) {
      if (!Array.isArray(actual) || actual.length !== expected.length) return at || '(root)';
      for (let i = 0; i < expected.length; i++) {
        const m = subsetMismatch(expected[i], actual[i], `${at}[${i}]`);
        if (m) return m;
      }
      return null;
    }
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return at || '(root)';
    for (const [k, v] of Object.entries(expected)) {
      const got = Object.hasOwn(actual, k) ? (actual as Record<string, unknown>)[k] : undefined;
      const m = subsetMismatch(v, got, at ? `${at}.${k}` : k);
      if (m) return m;
    }
    return null;
  }
  return expected === actual || bothIntegers(expected, actual) ? null : at || '(root)';
}

/** An integer may be a number on one side and a bigint on the other: `==` compares them exactly. */
function bothIntegers(a: unknown, b: unknown): boolean {
  const numeric = (v: unknown) => typeof v === 'number' || typeof v === 'bigint';
  return (typeof a === 'bigint' || typeof b === 'bigint') && numeric(a) && numeric(b) && a == b;
}

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/** The checks of a TextMatch that fail on `text`, in words ([] when all hold). */
export function textFailures(m: TextMatch, text: string): string[] {
  const out: string[] = [];
  if (m.equals !== undefined && text !== m.equals) out.push(`equals ${JSON.stringify(m.equals)}`);
  for (const c of list(m.contains)) if (!text.includes(c)) out.push(`contains ${JSON.stringify(c)}`);
  if (m.matches !== undefined && !matchesPattern(m.matches, text)) out.push(`matches /${m.matches}/`);
  for (const c of list(m.not_contains))
    if (text.includes(c)) out.push(`does not contain ${JSON.stringify(c)}`);
  return out;
}

/** The checks of a TextMatch in words, for "expected". */
/** `s` on one line, at most `n` characters (an ellipsis marks the cut). */
export function clip(s: string, n = 160): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > n ? one.slice(0, n - 1) + '…' : one;
}

export function describeText(m: TextMatch): string {
  const parts: string[] = [];
  if (m.equals !== undefined) parts.push(`equals ${JSON.stringify(m.equals)}`);
  for (const c of list(m.contains)) parts.push(`contains ${JSON.stringify(c)}`);
  if (m.matches !== undefined) parts.push(`matches /${m.matches}/`);
  for (const c of list(m.not_contains)) parts.push(`does not contain ${JSON.stringify(c)}`);
  return parts.join(' and ') || '(no check)';
}

/** Linear time (RE2); a pattern discovery let through invalid (a case built in code) never matches. */
function matchesPattern(source: string, text: string): boolean {
  try {
    return userRegexTest(source, text);
  } catch {
    return false;
  }
}

export { list as asList };
