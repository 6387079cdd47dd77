// A case's result in the Testing view: each expectation item passed, failed or skipped; a failed
// expectation's message is a diff of expected / actual at its line (the peek and the Test Results
// show it), held by its item, its turn and its case; the run's output gets the case's line (the
// case's own output) and the failure text `hooksmith test` prints (Test Results shows both).
import * as vscode from 'vscode';
import type { CaseResult } from '../../runtime/testing/cases';
import { pathKey } from '../../runtime/testing/plan';
import { failureText, statusLine } from '../../runtime/testing/report';
import type { CaseEntry } from './tree';
import { NEEDS_MANTLE, needsMantleModel } from '../../runtime/engine/mantle-scenario';
import { needsCayuModel } from '../../runtime/engine/cayu-eval';

/** A skip reason in the editor's words: the setting, not the CLI's --model (#45 item 2). */
export function editorWords(why: string): string {
  if (why === NEEDS_MANTLE) return needsMantleModel('editor');
  return why === needsCayuModel('cli') ? needsCayuModel('editor') : why;
}

/** A failure message as the tests of the view read it. */
export interface MessageReport {
  message: string;
  file: string;
  line: number;
  expected?: string;
  actual?: string;
  /** What its context menu offers (`hooksmith.scenarioFailure`, …; package.json). */
  contextValue?: string;
}

/** What the last run reported per item id, for tests of the view (`hooksmith.lastTestRun`). */
export interface ItemReport {
  state: 'passed' | 'failed' | 'skipped' | 'errored';
  line?: number;
  message?: string;
  expected?: string;
  actual?: string;
  /** A case: the text appended to the run's output for it (its line, then any failure block). */
  output?: string;
  /** A case: the part of `output` that is the case's own (Test Results shows it for the case). */
  itemOutput?: string;
  /** A case: the messages it failed with. */
  messages?: MessageReport[];
}

/** The run's output wants CRLF line endings (it is a terminal). */
export const crlf = (lines: string[]) => lines.map((l) => `${l.replace(/\r?\n/g, '\r\n')}\r\n`).join('');

const relative = (f: string) => vscode.workspace.asRelativePath(f, false);

const at = (uri: vscode.Uri, line: number) => new vscode.Location(uri, new vscode.Position(line - 1, 0));

/** The expectation item `id` under the case: its child, or a child of one of its turn items. */
function childOf(item: vscode.TestItem, id: string): vscode.TestItem | undefined {
  let found = item.children.get(id);
  item.children.forEach((turn) => (found ??= turn.children.get(id)));
  return found;
}

function messageReport(m: vscode.TestMessage): MessageReport {
  return {
    message: typeof m.message === 'string' ? m.message : m.message.value,
    file: m.location?.uri.fsPath ?? '',
    line: (m.location?.range.start.line ?? -1) + 1,
    ...(m.expectedOutput !== undefined ? { expected: m.expectedOutput } : {}),
    ...(m.actualOutput !== undefined ? { actual: m.actualOutput } : {}),
    ...(m.contextValue ? { contextValue: m.contextValue } : {}),
  };
}

/** Reports `r` on the run; returns whether the case failed (or could not run). */
/** A case that could not run: errored, its children skipped. */
function reportError(
  run: vscode.TestRun,
  { item }: CaseEntry,
  r: CaseResult,
  out: Map<string, ItemReport>,
  output: CaseOutput,
): true {
  const msg = new vscode.TestMessage(
    `${r.error?.message ?? 'could not run'}\n${(r.error?.details ?? []).join('\n')}`,
  );
  msg.location = at(vscode.Uri.file(r.case.file), r.case.line);
  run.errored(item, msg, r.durationMs);
  item.children.forEach((c) => run.skipped(c));
  out.set(item.id, { state: 'errored', line: r.case.line, message: msg.message as string, ...output });
  return true;
}

/** Each expectation's item passed, failed or skipped; the failures' messages, also by turn item. */
function reportExpectations(
  run: vscode.TestRun,
  item: vscode.TestItem,
  r: CaseResult,
  out: Map<string, ItemReport>,
): { failures: vscode.TestMessage[]; byTurn: Map<string, vscode.TestMessage[]>; reported: Set<string> } {
  const uri = vscode.Uri.file(r.case.file);
  const failures: vscode.TestMessage[] = [];
  const byTurn = new Map<string, vscode.TestMessage[]>();
  const reported = new Set<string>();
  for (const e of r.expectations) {
    const child = childOf(item, `${item.id}/${pathKey(e.path)}`);
    const id = child?.id ?? `${item.id}/${pathKey(e.path)}`;
    reported.add(id);
    if (e.skipped) {
      // A Mantle check a hook simulation cannot make: skipped, with why in the output.
      if (child) run.skipped(child);
      run.appendOutput(crlf([`${e.name}: ${editorWords(e.skipped)}`]), undefined, child ?? item);
      out.set(id, { state: 'skipped', line: e.line, message: editorWords(e.skipped) });
      continue;
    }
    if (e.passed) {
      if (child) run.passed(child);
      if (child) out.set(child.id, { state: 'passed', line: e.line });
      continue;
    }
    const msg = vscode.TestMessage.diff(`${e.name}: expected ${e.expected}`, e.expected, e.actual);
    msg.location = at(uri, e.line);
    msg.contextValue = failureContext(r, e.name);
    failures.push(msg);
    if (child) run.failed(child, msg);
    // A per-turn expectation: its turn item fails with the same message.
    if (child?.parent && child.parent !== item)
      byTurn.set(child.parent.id, [...(byTurn.get(child.parent.id) ?? []), msg]);
    out.set(id, { state: 'failed', line: e.line, message: e.name, expected: e.expected, actual: e.actual });
  }
  return { failures, byTurn, reported };
}

/**
 * What a failure message offers (package.json testing/message/context): a played case its
 * timeline; a scenario's cassette that cannot answer also Re-record. A corpus case offers no
 * Re-record: that plays the file as a scenario, and a corpus is none.
 */
function failureContext(r: CaseResult, name: string): string | undefined {
  if (r.case.kind !== 'scenario') return undefined;
  if (r.case.cayuEval) return 'hooksmith.corpusFailure';
  return name === 'cassette' ? 'hooksmith.cassetteFailure' : 'hooksmith.scenarioFailure';
}

/** The case's expectation items no result named (a corpus case no model played): skipped, never passed. */
function skipUnreported(
  run: vscode.TestRun,
  item: vscode.TestItem,
  reported: Set<string>,
  out: Map<string, ItemReport>,
) {
  item.children.forEach((c) => {
    if (reported.has(c.id) || c.id.startsWith(`${item.id}/turns/`)) return;
    run.skipped(c);
    out.set(c.id, { state: 'skipped', ...(c.range ? { line: c.range.start.line + 1 } : {}) });
  });
}

type CaseOutput = Required<Pick<ItemReport, 'output' | 'itemOutput'>>;

/**
 * The case's line and the CLI's failure block, in the run's output; returns the text appended.
 * Only the line is the case's own output: VS Code writes a test's own output again when the test
 * is selected in Test Results, beside the rows of its failure messages, so the block there was the
 * failure read twice (#45 item 5). Appended without the test, the block is in the run's output
 * once, right under the line: both are appended in one go, no other case's output between.
 * No location either: output with one is also drawn at that line in the editor (#31 item 5).
 */
function appendCaseOutput(run: vscode.TestRun, item: vscode.TestItem, r: CaseResult): CaseOutput {
  const line = crlf([statusLine(r, relative)]);
  run.appendOutput(line, undefined, item);
  if (r.status !== 'failed' && r.status !== 'error') return { output: line, itemOutput: line };
  const block = crlf([...failureText(r, relative), '']);
  run.appendOutput(block);
  return { output: line + block, itemOutput: line };
}

export function report(
  run: vscode.TestRun,
  entry: CaseEntry,
  r: CaseResult,
  out: Map<string, ItemReport>,
): boolean {
  const { item } = entry;
  const ms = r.durationMs;
  const output = appendCaseOutput(run, item, r);
  if (r.status === 'error') return reportError(run, entry, r, out, output);
  const { failures, byTurn, reported } = reportExpectations(run, item, r, out);
  skipUnreported(run, item, reported, out);
  // A conversation's turn items: failed with their expectations' messages, else passed.
  item.children.forEach((turn) => {
    if (!turn.id.startsWith(`${item.id}/turns/`)) return;
    const failed = byTurn.get(turn.id);
    if (failed) run.failed(turn, failed);
    else run.passed(turn);
  });
  if (failures.length) run.failed(item, failures, ms);
  else if (r.status === 'skipped') run.skipped(item);
  else run.passed(item, ms);
  const why = r.status === 'skipped' ? r.expectations.find((e) => e.skipped)?.skipped : undefined;
  out.set(item.id, {
    state: failures.length ? 'failed' : r.status === 'skipped' ? 'skipped' : 'passed',
    line: r.case.line,
    ...(why ? { message: editorWords(why) } : {}),
    ...output,
    messages: failures.map(messageReport),
  });
  return failures.length > 0;
}
