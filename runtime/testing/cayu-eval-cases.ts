// A Cayu eval corpus (`*.cayu-eval.json`) as test cases: one per corpus case, each a scenario
// of the case's user messages that a model plays the agent in (runtime/engine/cayu-eval.ts).
// Without a model every case is skipped ("needs a model"), never passed.
import * as path from 'node:path';
import { fileIssues } from '../json/json-path';
import { cayuEvalCorpus, cayuEvalScenario, needsCayuModel } from '../engine/cayu-eval';
import { parseJsonText, ScenarioError, validateScenario } from '../engine/scenario-load';
import type { ExpectationResult, MalformedFile, TestCase } from './cases';
import { sourceLines } from './source-lines';

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
    const cayuEval = { index: i, id: c.id, notChecked: played.notChecked };
    const engineOnly = played.unplayable ?? needsCayuModel();
    if (played.unplayable) return { ...base, name: played.name, engineOnly, cayuEval };
    const scenario = validateScenario(played.scenario, `${file} cases[${i}]`);
    return { ...base, name: played.name, scenario, engineOnly, cayuEval };
  });
}

/** The assertions Hooksmith does not check, as skipped expectations on the case's line. */
export function notCheckedResults(c: TestCase): ExpectationResult[] {
  const at = ['cases', c.cayuEval!.index, 'assertions'];
  return c.cayuEval!.notChecked.map((n) => ({
    name: `${n.kind} ${n.id}`,
    passed: false,
    skipped: `not checked: ${n.why}`,
    expected: n.kind,
    actual: '(not checked)',
    path: at,
    line: c.line,
  }));
}

/** A played corpus case's results: its checks stand on the case, then what is not checked. */
export function cayuEvalPaths(c: TestCase, expectations: ExpectationResult[]): void {
  for (const e of expectations) {
    e.path = ['cases', c.cayuEval!.index, 'assertions'];
    e.line = c.line;
  }
  expectations.push(...notCheckedResults(c));
}

/**
 * The source a case plays as: a corpus case is `FILE#<case id>`, so each case records and replays
 * its own cassette (`.hooksmith/cassettes/<file>#<id>.jsonl`), never its neighbour's.
 */
export const caseSource = (c: TestCase): string => (c.cayuEval ? `${c.file}#${c.cayuEval.id}` : c.file);
