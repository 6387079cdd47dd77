// Test cases and their results, shared by `hooksmith test`, its reports and the Testing view.
import type { RunResult, SimulationResult } from '../engine/api';
import type { Scenario } from '../engine/scenario-schema';
import type { Checked, NotChecked } from '../engine/cayu-eval';
import type { KeyPath, SourceLines } from './source-lines';

export interface ExpectationResult {
  /** "tool_not_called delete_account", "status", … */
  name: string;
  passed: boolean;
  /** In words, or the expected text / JSON (for a diff). */
  expected: string;
  actual: string;
  /** The key in the file, and its 1-based line. */
  path: KeyPath;
  line: number;
  /** A snapshot expectation: the observed value `--update` writes. */
  observed?: unknown;
  /** Not checked (a Mantle check a hook simulation cannot make): why. Neither passes nor fails. */
  skipped?: string;
}

/** Checked and not met. */
export const failedCheck = (e: ExpectationResult) => !e.passed && !e.skipped;

/**
 * A case's verdict: failed when a checked expectation failed; skipped when every expectation
 * was skipped (a case no check ran on does not pass).
 */
export function verdictOf(expectations: readonly ExpectationResult[]): 'passed' | 'failed' | 'skipped' {
  if (expectations.some(failedCheck)) return 'failed';
  return expectations.length && expectations.every((e) => e.skipped) ? 'skipped' : 'passed';
}

export interface TestCase {
  kind: 'scenario' | 'payload';
  /** Absolute file. */
  file: string;
  /** The scenario's name (else the file's), or the payload file's name and its hook. */
  name: string;
  agentRoot: string;
  /** 1-based line of the case (its `expect` / `goals` key, else 1). */
  line: number;
  /** Payload cases: FILE::HANDLER relative to the agent root, and the payload without case keys. */
  hook?: string;
  payload?: Record<string, unknown>;
  /** The file's text, for lines and --update. */
  text: string;
  /** The lines of its keys, when finding the case already read them. */
  lines?: SourceLines;
  /** Scenario cases: the scenario as read when the case was found (its expectations). */
  scenario?: Scenario;
  /** A Mantle eval scenario file: the played scenario's keys stand under `scenario` / `scenario.hooksmith`. */
  mantle?: boolean;
  /** A Mantle eval scenario only the Mantle engine can play (no scripted conversation): why. Skipped. */
  engineOnly?: string;
  /** A case of a Cayu eval corpus: its index and id in `cases`, its assertions checked and not checked. */
  cayuEval?: { index: number; id: string; checked: Checked[]; notChecked: NotChecked[] };
}

export type CaseStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface CaseResult {
  case: TestCase;
  status: CaseStatus;
  durationMs: number;
  expectations: ExpectationResult[];
  /** status error: why the case could not run (malformed file, agent check errors, import failure). */
  error?: { message: string; details: string[] };
  simulation?: SimulationResult;
  run?: RunResult;
}

/** A file that is no valid case (exit 2), reported beside the results. */
export interface MalformedFile {
  file: string;
  message: string;
  details: string[];
}

/**
 * A malformed file's problem where the file is already named (the Testing view's item): the errors
 * first, then what kind of problem, with no path in front — an absolute path cut the errors off
 * the one line the view shows (#31 item 9).
 */
export function malformedSummary(m: MalformedFile): string {
  const what = m.message.startsWith(`${m.file}: `) ? m.message.slice(m.file.length + 2) : m.message;
  return m.details.length ? `${m.details.join('; ')} (${what})` : what;
}

/** "examples/a.scenario.yaml::order a pizza" — what -k matches and reports name. */
export function caseId(c: TestCase, relative: (f: string) => string): string {
  return `${relative(c.file)}::${c.name}`;
}
