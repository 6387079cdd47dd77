// The Testing view's "Run N times" profile: `hooksmith test --repeat N` from the editor. Each
// selected case runs N times on a host of its own whose model calls are fresh where recording is
// on (RunnerService.fresh); the case's verdict is the CLI's (repeatVerdict); its items, the
// failing-tests count and the timeline a failure opens show a run that stands for it; Test
// Results gets the pass rate per case and per expectation and the model latency per turn, as the
// CLI prints them.
import * as vscode from 'vscode';
import type { CaseResult } from '../../runtime/testing/cases';
import { runCase } from '../../runtime/testing/run-cases';
import { rereadCase } from '../../runtime/testing/discover-cases';
import { formatRepeatsText, repeatVerdict, summarizeRepeats } from '../../runtime/testing/repeats';
import type { HooksmithContext } from '../context';
import { sharedRunner } from '../python/runner-service';
import { crlf, report, type ItemReport } from './results';
import type { CaseEntry, TestTree } from './tree';

export const REPEAT_PROFILE = 'Run N times';

const MIN = 2;
const MAX = 100;

/** N: the `hooksmith.testing.repeat` setting, else asked (undefined: the user cancelled). */
async function askRepeat(ctx: HooksmithContext, resource?: vscode.Uri): Promise<number | undefined> {
  const set = ctx.settings(resource).testing.repeat;
  if (set) return set;
  const answer = await vscode.window.showInputBox({
    title: 'Hooksmith: Run N times',
    prompt: `How many times to run each case (${MIN}–${MAX}; set hooksmith.testing.repeat to stop asking)`,
    value: '5',
    validateInput: (v) => {
      const n = Number(v.trim());
      return Number.isInteger(n) && n >= MIN && n <= MAX ? undefined : `a whole number from ${MIN} to ${MAX}`;
    },
  });
  return answer === undefined ? undefined : Number(answer.trim());
}

/** The cases a request names (or every case), minus the excluded ones. */
function selected(
  tree: TestTree,
  controller: vscode.TestController,
  request: vscode.TestRunRequest,
): CaseEntry[] {
  const roots: vscode.TestItem[] = [...(request.include ?? [])];
  if (!request.include) controller.items.forEach((i) => roots.push(i));
  const excluded = new Set((request.exclude ?? []).map((i) => i.id));
  return [...new Set(roots.flatMap((i) => tree.casesUnder(i)))].filter((e) => !excluded.has(e.item.id));
}

/** A scenario played with no model (scripted completions only): its runs cannot differ. */
export function scriptedOnly(r: CaseResult): boolean {
  return r.case.kind === 'scenario' && r.status !== 'skipped' && !!r.simulation && !r.simulation.models;
}

/** What Run N times says of a scenario no model plays, instead of an N-of-N pass rate. */
export function sameEveryRun(label: string, n: number): string {
  return `${label}: no model plays this scenario (scripted replies only), so every repeat would be the same run: it ran once, not ${n} times. Give it a model (model: in the scenario, or the hooksmith.model setting) to measure a pass rate.`;
}

/** The run that stands for the case in the view: one with the verdict's status, else the last. */
function standIn(runs: CaseResult[], verdict: string): CaseResult {
  const status = verdict === 'error' ? 'error' : verdict === 'failed' ? 'failed' : undefined;
  return runs.find((r) => r.status === status) ?? runs[runs.length - 1]!;
}

/** Test Results' output of a case, and its last report's copy (`hooksmith.lastTestRun`). */
function appendOutput(run: vscode.TestRun, e: CaseEntry, last: Map<string, ItemReport>, text: string): void {
  run.appendOutput(text, undefined, e.item);
  const item = last.get(e.item.id);
  if (!item) return;
  item.output = (item.output ?? '') + text;
  item.itemOutput = (item.itemOutput ?? '') + text;
}

/** The items a menu command names: test items (the clicked one, and the selection), or scenario files (a Uri). */
function itemsOf(args: unknown[], tree: TestTree): vscode.TestItem[] {
  const flat = args.flat();
  const files = new Set(flat.filter((a) => a instanceof vscode.Uri).map((u) => u.fsPath));
  return [
    ...new Set([
      ...flat.filter(
        (a): a is vscode.TestItem => typeof a === 'object' && a !== null && 'id' in a && 'children' in a,
      ),
      ...[...tree.cases.values()].filter((e) => files.has(e.testCase.file)).map((e) => e.item),
    ]),
  ];
}

/** Runs a case up to n times; a scenario no model plays runs once (#45 item 6: every repeat would be the same run). */
async function repeatCase(
  runner: Parameters<typeof runCase>[0],
  testCase: CaseEntry['testCase'],
  n: number,
  token: vscode.CancellationToken,
): Promise<CaseResult[]> {
  const runs: CaseResult[] = [];
  for (let i = 0; i < n && !token.isCancellationRequested; i++) {
    runs.push(await runCase(runner, testCase));
    if (scriptedOnly(runs[0]!)) break;
  }
  return runs;
}

/** Where a repeated run's verdicts go: the test run, the last report, and the view's memory of failures. */
interface RepeatReport {
  readonly ctx: HooksmithContext;
  readonly run: vscode.TestRun;
  readonly last: Map<string, ItemReport>;
  readonly remember: (e: CaseEntry, shown: CaseResult, failed: boolean) => void;
  readonly n: number;
}

/** A case's verdict over its runs, and its pass rates in Test Results, as the CLI prints them. */
function reportRepeats(r: RepeatReport, e: CaseEntry, runs: CaseResult[]): void {
  const { run, last } = r;
  if (scriptedOnly(runs[0]!)) {
    r.remember(e, runs[0]!, report(run, e, runs[0]!, last));
    appendOutput(run, e, last, crlf([sameEveryRun(e.item.label, r.n)]));
    return;
  }
  const [summary] = summarizeRepeats(runs.map((x) => [x]));
  const shown = standIn(runs, repeatVerdict(summary!));
  r.remember(e, shown, report(run, e, shown, last));
  const relative = (f: string) => vscode.workspace.asRelativePath(f, false);
  appendOutput(
    run,
    e,
    last,
    crlf(formatRepeatsText([summary!], runs.length, relative).trimEnd().split('\n')),
  );
  r.ctx.log.info('test', `${e.item.label}: ${runs.length} runs, ${repeatVerdict(summary!)}`);
}

/** Each case n times on a host of its own, then the host goes and the run ends. */
async function runRepeated(
  r: RepeatReport,
  runner: NonNullable<Awaited<ReturnType<ReturnType<typeof sharedRunner>['fresh']>>>,
  entries: CaseEntry[],
  token: vscode.CancellationToken,
): Promise<void> {
  r.last.clear();
  try {
    for (const e of entries) {
      if (token.isCancellationRequested) break;
      r.run.started(e.item);
      const runs = await repeatCase(runner, rereadCase(e.testCase) ?? e.testCase, r.n, token);
      if (!runs.length) break;
      reportRepeats(r, e, runs);
    }
  } finally {
    await runner.dispose();
    r.run.end();
  }
}

/** The cases' unsaved edits are saved first: the run reads the files. */
async function saveEdits(entries: CaseEntry[]): Promise<void> {
  for (const d of vscode.workspace.textDocuments)
    if (d.isDirty && entries.some((e) => e.testCase.file === d.uri.fsPath)) await d.save();
}

export function registerRepeatProfile(
  ctx: HooksmithContext,
  controller: vscode.TestController,
  tree: TestTree,
  last: Map<string, ItemReport>,
  /** The failing-tests count and the timeline a failure opens, as for a Run (feature.ts). */
  remember: (e: CaseEntry, shown: CaseResult, failed: boolean) => void,
): void {
  const handler = async (request: vscode.TestRunRequest, token: vscode.CancellationToken) => {
    const entries = selected(tree, controller, request);
    const resource = entries[0] ? vscode.Uri.file(entries[0].testCase.file) : undefined;
    const n = await askRepeat(ctx, resource);
    if (n === undefined || !entries.length) return;
    await saveEdits(entries);
    const run = controller.createTestRun(request, `${REPEAT_PROFILE} (${n})`);
    for (const e of entries) run.enqueued(e.item);
    const runner = await sharedRunner(ctx).fresh(resource);
    if (!runner) {
      for (const e of entries)
        run.errored(e.item, new vscode.TestMessage('no Python interpreter to run hooks with'));
      run.end();
      return;
    }
    await runRepeated({ ctx, run, last, remember, n }, runner, entries, token);
  };
  const profile = controller.createRunProfile(REPEAT_PROFILE, vscode.TestRunProfileKind.Run, handler, false);
  // The test item's context menu (#45 item 6): not only under Execute Using Profile….
  ctx.registerCommand(RUN_REPEATED_COMMAND, async (...args: unknown[]) => {
    const items = itemsOf(args, tree);
    const cancel = new vscode.CancellationTokenSource();
    try {
      await handler(
        new vscode.TestRunRequest(items.length ? items : undefined, undefined, profile),
        cancel.token,
      );
    } finally {
      cancel.dispose();
    }
  });
}

/** `hooksmith.runRepeated`: Run N times on the test items it is given (the item's context menu). */
export const RUN_REPEATED_COMMAND = 'runRepeated';
