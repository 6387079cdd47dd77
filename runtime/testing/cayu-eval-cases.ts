// A Cayu eval corpus (`*.cayu-eval.json`) as test cases: one per corpus case, each a scenario
// of the case's user messages that a model plays the agent in (runtime/engine/cayu-eval.ts).
// Without a model every case is skipped ("needs a model"), never passed.
import * as path from 'node:path';
import { fileIssues } from '../json/json-path';
import { cayuEvalCorpus, cayuEvalScenario, needsCayuModel } from '../engine/cayu-eval';
import { parseJsonText, ScenarioError, validateScenario } from '../engine/scenario-load';
import type { Checked } from '../engine/cayu-eval';
import { failedCheck, type ExpectationResult, type MalformedFile, type TestCase } from './cases';
import { pathKey, sourceLines, type KeyPath } from './source-lines';

/** The corpus's cases, or the file's problem (not JSON, not a corpus of this cayu line). */
export function cayuEvalCases(file: string, text: string): TestCase[] | MalformedFile {
  let cases: TestCase[];
  try {
    cases = readCorpusCases(file, text);
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    return { file, message: err.message, details: err.details };
  }
  return cases;
}

function readCorpusCases(file: string, text: string): TestCase[] {
  const parsed = cayuEvalCorpus.safeParse(parseJsonText(text, file));
  if (!parsed.success)
    throw ScenarioError.ofIssues('not a Cayu eval corpus', fileIssues(parsed.error, [], cayuEvalCorpus));
  const lines = sourceLines(text);
  const agentRoot = path.dirname(file);
  return parsed.data.cases.map((c, i) => {
    const played = cayuEvalScenario(c, i);
    const base = {
      kind: 'scenario' as const,
      file,
      agentRoot,
      text,
      lines,
      line: lines.lineOf(['cases', i]),
    };
    const cayuEval = { index: i, id: c.id, checked: played.checked, notChecked: played.notChecked };
    const engineOnly = played.unplayable ?? needsCayuModel();
    if (played.unplayable) return { ...base, name: played.name, engineOnly, cayuEval };
    const scenario = validateScenario(played.scenario, `${file} cases[${i}]`);
    return { ...base, name: played.name, scenario, engineOnly, cayuEval };
  });
}

/** Where assertion `j` of the case stands: its key path and line in the corpus. */
function assertionAt(c: TestCase, j: number): { path: KeyPath; line: number } {
  const path = ['cases', c.cayuEval!.index, 'assertions', j];
  return { path, line: (c.lines ?? sourceLines(c.text)).lineOf(path) };
}

/** The assertions Hooksmith does not check, as skipped expectations, each at its own line. */
export function notCheckedResults(c: TestCase): ExpectationResult[] {
  return c.cayuEval!.notChecked.map((n) => ({
    name: `${n.kind} ${n.id}`,
    passed: false,
    skipped: `not checked: ${n.why}`,
    expected: n.kind,
    actual: '(not checked)',
    ...assertionAt(c, n.index),
  }));
}

/** One checked assertion judged by the results of the `expect:` entries it became (all must pass). */
function assertionResult(c: TestCase, a: Checked, parts: ExpectationResult[]): ExpectationResult {
  const base = { name: `${a.kind} ${a.id}`, ...assertionAt(c, a.index) };
  if (!parts.length)
    return {
      ...base,
      passed: false,
      skipped: 'not checked: no check ran',
      expected: a.kind,
      actual: '(none)',
    };
  const failed = parts.filter(failedCheck);
  const shown = failed.length ? failed : parts;
  // One part is shown as it is; several (tools_called_in_order) each with its check's name.
  const text = (f: (e: ExpectationResult) => string) =>
    shown.length === 1 ? f(shown[0]!) : shown.map((e) => `${e.name}: ${f(e)}`).join('\n');
  return {
    ...base,
    passed: !failed.length,
    expected: text((e) => e.expected),
    actual: text((e) => e.actual),
  };
}

/**
 * A played corpus case's results in the corpus's own terms: one per assertion, at its line (a
 * checked one passes when every check it became passes), then a check no assertion made (a
 * cassette that cannot answer) on the case's line.
 */
export function cayuEvalResults(
  c: TestCase,
  expectations: readonly ExpectationResult[],
): ExpectationResult[] {
  const ev = c.cayuEval!;
  const used = new Set<ExpectationResult>();
  const checked = ev.checked.map((a) => {
    const keys = new Set(a.paths.map(pathKey));
    const parts = expectations.filter((e) => keys.has(pathKey(e.path)));
    parts.forEach((e) => used.add(e));
    return assertionResult(c, a, parts);
  });
  const rest = expectations
    .filter((e) => !used.has(e))
    .map((e) => ({ ...e, path: ['cases', ev.index], line: c.line }));
  const byIndex = [...checked, ...notCheckedResults(c)].sort((x, y) => indexOf(x) - indexOf(y));
  return [...rest, ...byIndex];
}

const indexOf = (e: ExpectationResult) => Number(e.path[3]);

/** The case's items before it runs (the Testing view): each assertion at its line, checked or not. */
export function cayuEvalPlan(c: TestCase): { path: KeyPath; label: string; line: number }[] {
  const ev = c.cayuEval!;
  const items = [
    ...ev.checked.map((a) => ({ a, label: `${a.kind} ${a.id}` })),
    ...ev.notChecked.map((a) => ({ a, label: `${a.kind} ${a.id} (not checked)` })),
  ].sort((x, y) => x.a.index - y.a.index);
  return items.map(({ a, label }) => ({ ...assertionAt(c, a.index), label }));
}

/**
 * The source a case plays as: a corpus case is `FILE#<case id>`, so each case records and replays
 * its own cassette (`.hooksmith/cassettes/<file>#<id>.jsonl`), never its neighbour's.
 */
export const caseSource = (c: TestCase): string => (c.cayuEval ? `${c.file}#${c.cayuEval.id}` : c.file);
