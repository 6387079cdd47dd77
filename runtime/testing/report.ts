// `hooksmith test` reports: text (pytest-like), JSON, and JUnit XML for CI dashboards.
import { failedCheck, verdictOf, type CaseResult, type ExpectationResult, type MalformedFile } from './cases';
import { stringifyJson } from '../json/lossless-json';
import type { SimulationResult } from '../engine/api';

export interface TestReport {
  results: CaseResult[];
  malformed: MalformedFile[];
  durationMs: number;
  /** Paths as the user sees them (relative to the current directory). */
  relative: (file: string) => string;
}

export function counts(r: Pick<TestReport, 'results' | 'malformed'>) {
  const n = (s: string) => r.results.filter((x) => x.status === s).length;
  return {
    passed: n('passed'),
    failed: n('failed'),
    skipped: n('skipped'),
    errors: n('error') + r.malformed.length,
    notChecked: r.results.reduce((s, x) => s + x.expectations.filter((e) => e.skipped).length, 0),
  };
}

/** `N passed, N failed` (and skipped cases, errors, and checks not made when there are some). */
export function summaryLine(r: Pick<TestReport, 'results' | 'malformed'>): string {
  const c = counts(r);
  const s = (n: number, one: string, many: string) => (n ? `, ${n} ${n > 1 ? many : one}` : '');
  return `${c.passed} passed, ${c.failed} failed${s(c.skipped, 'skipped', 'skipped')}${s(c.errors, 'error', 'errors')}${s(c.notChecked, 'check not made', 'checks not made')}`;
}

const indent = (s: string, pad: string) => s.replace(/\n/g, `\n${pad}`);

/**
 * Who played a case's Cayu hooks (`playedBy`), for a Cayu result only: not for a case in which
 * Mantle hooks ran and no Cayu hook did, which an agent holding both kinds of module plays too
 * (#45 item 5: every Mantle result was tagged "[Hooksmith's Cayu emulation (cayu not installed)]").
 */
export function cayuPlayedBy(sim: SimulationResult | undefined): string | undefined {
  if (!sim?.playedBy) return undefined;
  const ran = (cayu: boolean) =>
    sim.events.some((e) => e.hook !== undefined && (e.lane === 'phase') === cayu);
  return ran(false) && !ran(true) ? undefined : sim.playedBy;
}

/** The case's status line, as `hooksmith test` prints it: `FAILED a.scenario.yaml::name (12 ms)`. */
export function statusLine(x: CaseResult, relative: (file: string) => string): string {
  const tag = { passed: 'PASSED', failed: 'FAILED', skipped: 'SKIPPED', error: 'ERROR ' }[x.status];
  const playedBy = cayuPlayedBy(x.simulation);
  const by = playedBy ? ` [${playedBy}]` : '';
  return `${tag} ${relative(x.case.file)}::${x.case.name} (${Math.round(x.durationMs)} ms)${by}`;
}

/**
 * A failed or errored case's block of `hooksmith test`'s failures (the Testing view's run output
 * shows the same): `--- file::name`, then each failed expectation at file:line, expected, actual.
 */
export function failureText(x: CaseResult, relative: (file: string) => string): string[] {
  const file = relative(x.case.file);
  const out = [`--- ${file}::${x.case.name}`];
  if (x.error) {
    out.push(`  ${file}:${x.case.line}: ${x.error.message}`);
    for (const d of x.error.details) out.push(`    ${indent(d, '    ')}`);
  }
  for (const e of x.expectations.filter(failedCheck)) {
    out.push(`  ${file}:${e.line}: ${e.name}`);
    out.push(`    expected: ${indent(e.expected, '              ')}`);
    out.push(`    actual:   ${indent(e.actual, '              ')}`);
  }
  return out;
}

export function formatTestText(r: TestReport): string {
  const out: string[] = [];
  for (const x of r.results) out.push(statusLine(x, r.relative));
  for (const m of r.malformed) out.push(`ERROR  ${r.relative(m.file)}: ${m.message}`);
  const bad = r.results.filter((x) => x.status === 'failed' || x.status === 'error');
  if (bad.length || r.malformed.length) out.push('', '=== failures ===');
  for (const x of bad) out.push('', ...failureText(x, r.relative));
  for (const m of r.malformed) {
    out.push('', `--- ${r.relative(m.file)} (malformed)`, `  ${m.message}`);
    for (const d of m.details) out.push(`    ${d}`);
  }
  const unchecked = r.results.flatMap((x) =>
    x.expectations.filter((e) => e.skipped).map((e) => [x, e] as const),
  );
  if (unchecked.length) out.push('', '=== not checked ===');
  for (const [x, e] of unchecked) out.push(`  ${r.relative(x.case.file)}:${e.line}: ${e.name}: ${e.skipped}`);
  out.push('', `${summaryLine(r)} (${(r.durationMs / 1000).toFixed(2)} s)`);
  return out.join('\n') + '\n';
}

/** `extra`: more top-level keys (`coverage`). */
export function formatTestJson(r: TestReport, extra: Record<string, unknown> = {}): string {
  const c = counts(r);
  return (
    stringifyJson(
      {
        ...c,
        durationMs: Math.round(r.durationMs),
        cases: r.results.map((x) => ({
          file: r.relative(x.case.file),
          name: x.case.name,
          kind: x.case.kind,
          line: x.case.line,
          status: x.status,
          durationMs: x.durationMs,
          ...(cayuPlayedBy(x.simulation) ? { playedBy: cayuPlayedBy(x.simulation) } : {}),
          expectations: x.expectations.map(({ observed: _o, path: _p, ...e }) => e),
          ...(x.error ? { error: x.error } : {}),
        })),
        malformed: r.malformed.map((m) => ({ ...m, file: r.relative(m.file) })),
        ...extra,
      },
      2,
    ) + '\n'
  );
}

const xml = (s: string) =>
  s
    // XML 1.0 has no place for control characters other than tab and newlines, for U+FFFE/U+FFFF
    // or for a lone surrogate: dropped (every other code point is a Char).
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

interface JunitCase {
  name: string;
  line: number;
  durationMs: number;
  status: CaseResult['status'];
  expectations: ExpectationResult[];
  error?: CaseResult['error'];
}

/**
 * A case's JUnit testcases: one; a conversation's, one for the conversation (its own
 * expectations, and an error that stopped it) and one per turn, `scenario › turn N`.
 */
function junitCases(x: CaseResult): JunitCase[] {
  const turns = x.case.scenario?.turns;
  const whole = { name: x.case.name, line: x.case.line, durationMs: x.durationMs, status: x.status };
  if (!turns || x.error)
    return [{ ...whole, expectations: x.expectations, ...(x.error ? { error: x.error } : {}) }];
  const inTurn = (e: ExpectationResult, i: number) => e.path[0] === 'turns' && e.path[1] === i;
  const part = (name: string, line: number, expectations: ExpectationResult[]): JunitCase => ({
    name,
    line,
    durationMs: 0,
    status: expectations.length ? verdictOf(expectations) : 'passed',
    expectations,
  });
  return [
    {
      ...whole,
      ...part(
        x.case.name,
        x.case.line,
        x.expectations.filter((e) => e.path[0] !== 'turns'),
      ),
      durationMs: x.durationMs,
    },
    ...turns.map((_t, i) => {
      const mine = x.expectations.filter((e) => inTurn(e, i));
      return part(`${x.case.name} › turn ${i + 1}`, mine[0]?.line ?? x.case.line, mine);
    }),
  ];
}

function junitCase(file: string, x: JunitCase): string[] {
  const out = [
    `    <testcase classname="${xml(file)}" name="${xml(x.name)}" file="${xml(file)}" line="${x.line}" time="${(x.durationMs / 1000).toFixed(3)}">`,
  ];
  if (x.error)
    out.push(`      <error message="${xml(x.error.message)}">${xml(x.error.details.join('\n'))}</error>`);
  if (x.status === 'skipped')
    out.push(`      <skipped message="${xml(x.expectations[0]?.skipped ?? 'not checked')}"/>`);
  const unchecked = x.expectations.filter((e) => e.skipped);
  if (unchecked.length && x.status !== 'skipped')
    out.push(
      `      <system-out>${xml(unchecked.map((e) => `${file}:${e.line}: ${e.name}: ${e.skipped}`).join('\n'))}</system-out>`,
    );
  for (const e of x.expectations.filter(failedCheck))
    out.push(
      `      <failure message="${xml(`${file}:${e.line}: ${e.name}`)}">${xml(`expected: ${e.expected}\nactual: ${e.actual}`)}</failure>`,
    );
  out.push('    </testcase>');
  return out;
}

/** JUnit XML: a testsuite per agent, a testcase per case (per turn too); failures name file:line. */
export function formatTestJunit(r: TestReport): string {
  const suites = new Map<string, CaseResult[]>();
  for (const x of r.results) suites.set(x.case.agentRoot, [...(suites.get(x.case.agentRoot) ?? []), x]);
  const c = counts(r);
  const all = new Map(r.results.map((x) => [x, junitCases(x)]));
  const flat = [...all.values()].flat();
  const failures = flat.filter((x) => x.status === 'failed').length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="hooksmith" tests="${flat.length + r.malformed.length}" failures="${failures}" errors="${c.errors}" time="${(r.durationMs / 1000).toFixed(3)}">`,
  ];
  for (const [root, list] of suites) {
    const cases = list.flatMap((x) => all.get(x)!);
    const n = (s: string) => cases.filter((x) => x.status === s).length;
    const time = list.reduce((s, x) => s + x.durationMs, 0) / 1000;
    out.push(
      `  <testsuite name="${xml(r.relative(root) || '.')}" tests="${cases.length}" failures="${n('failed')}" errors="${n('error')}" skipped="${n('skipped')}" time="${time.toFixed(3)}">`,
    );
    for (const x of list) for (const jc of all.get(x)!) out.push(...junitCase(r.relative(x.case.file), jc));
    out.push('  </testsuite>');
  }
  if (r.malformed.length) {
    out.push(
      `  <testsuite name="malformed files" tests="${r.malformed.length}" failures="0" errors="${r.malformed.length}">`,
    );
    for (const m of r.malformed)
      out.push(
        `    <testcase classname="${xml(r.relative(m.file))}" name="${xml(r.relative(m.file))}"><error message="${xml(m.message)}">${xml(m.details.join('\n'))}</error></testcase>`,
      );
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
