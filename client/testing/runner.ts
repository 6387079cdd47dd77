// What runs the Testing view's cases (as vitest's extension has src/runner/runner.ts): the Run,
// Debug and Run with Coverage profiles hand their request here (feature.ts only registers them).
// It keeps what a run leaves behind: each item's last report (`hooksmith.lastTestRun`), the failing
// cases for the status bar, the turn each scenario played (its timeline opens from a failure), the
// last coverage report.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SimulationResult } from '../../runtime/engine/api';
import type { HookRunner } from '../../runtime/engine/runner';
import type { CaseResult } from '../../runtime/testing/cases';
import { rereadCase } from '../../runtime/testing/discover-cases';
import { runCases } from '../../runtime/testing/run-cases';
import { defaultJobs, runPool } from '../../runtime/testing/pool';
import { coverageCaseId } from '../../runtime/testing/coverage/line-coverage';
import type { HooksmithContext } from '../context';
import { debugRun } from '../debug/debug-run';
import { sharedRunner, type RunnerService } from '../python/runner-service';
import { noteTestRun } from '../walkthrough/feature';
import { CoverageRun, missingCoverageFor, offerCoverage, type CoverageReport } from './coverage';
import { exercisedHooks } from './exercised';
import { peekFirstFailure } from './peek';
import { report, type ItemReport } from './results';
import type { CaseEntry, TestTree } from './tree';

export type RunMode = 'run' | 'debug' | 'coverage';

export class TestRunner {
  /** Case item id → what its last run reported (`hooksmith.lastTestRun`). */
  readonly last = new Map<string, ItemReport>();
  /** Case item id → the turn its last test run played (its timeline opens from a failure). */
  private readonly played = new Map<string, SimulationResult>();
  /** Case item id → its label, for the cases that failed (or could not run) when they last ran. */
  private readonly failing = new Map<string, string>();
  /** What the last Run with Coverage gave the editor (`hooksmith.lastCoverage`, for tests). */
  lastCoverage: CoverageReport | undefined;
  private readonly runners: RunnerService;

  constructor(
    private readonly ctx: HooksmithContext,
    private readonly controller: vscode.TestController,
    private readonly tree: TestTree,
    /** Reads every case file on disk into the tree (Run All runs one the file watcher did not report). */
    private readonly scan: () => Promise<void>,
  ) {
    this.runners = sharedRunner(ctx);
  }

  /** The turn the case's last test run played, if one is kept. */
  playedBy(caseId: string): SimulationResult | undefined {
    return this.played.get(caseId);
  }

  /** What a case's result leaves behind, whichever profile ran it: the failing count, the timeline. */
  readonly remember = (e: CaseEntry, r: CaseResult, failed: boolean): void => {
    if (failed) this.failing.set(e.item.id, `${e.item.label} (${path.basename(e.testCase.file)})`);
    else this.failing.delete(e.item.id);
    this.showFailing();
    if (r.simulation) this.played.set(e.item.id, r.simulation);
    else this.played.delete(e.item.id);
  };

  /** A case file was deleted: its cases (a corpus's `FILE#<id>`) no longer count as failing. */
  forget(file: string): void {
    const gone = [...this.failing.keys()].filter((id) => id === `${file}::case` || id.startsWith(`${file}#`));
    for (const id of gone) this.failing.delete(id);
    if (gone.length) this.showFailing();
  }

  private showFailing(): void {
    this.ctx.testStatus.setFailing([...this.failing.values()]);
  }

  /** Run: the shared warm host, with hosts of the run's own beside it for several cases (as
   * `hooksmith test -j`). Debug: a debug run's host under a debug session (client/debug).
   * Coverage: a host of its own measuring the agent's files (coverage.ts). */
  async runTests(
    mode: RunMode,
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
  ): Promise<void> {
    noteTestRun(this.ctx.log);
    const run = this.controller.createTestRun(request);
    const entries = await this.selected(request);
    // Edited files are saved first: cases read them from disk.
    for (const d of vscode.workspace.textDocuments)
      if (d.isDirty && entries.some((e) => e.testCase.file === d.uri.fsPath)) await d.save();
    for (const e of entries) run.enqueued(e.item);
    const resource = entries[0] ? vscode.Uri.file(entries[0].testCase.file) : undefined;
    if (mode === 'debug') return this.debug(run, entries, resource, token);
    const coverage = mode === 'coverage' ? new CoverageRun() : undefined;
    const runner = coverage
      ? await this.runners.measured(resource, coverage.sink)
      : await this.runners.get(resource);
    if (!runner) {
      for (const e of entries)
        run.errored(e.item, new vscode.TestMessage('no Python interpreter to run hooks with'));
      run.end();
      return;
    }
    const jobs = Math.min(defaultJobs(), entries.length);
    const extra = coverage ? [] : await this.runners.extra(resource, jobs - 1);
    const results: CaseResult[] = [];
    try {
      const failed = await this.runEntries(run, entries, [runner, ...extra], token, results, coverage);
      if (coverage) {
        const relative = (f: string) => vscode.workspace.asRelativePath(f, false);
        this.lastCoverage = await coverage.finish(run, results, relative);
        exercisedHooks(this.ctx).set(this.lastCoverage.hooks);
        const without = missingCoverageFor(this.lastCoverage.problems);
        if (without) void offerCoverage(without);
      }
      if (!token.isCancellationRequested) this.peek(failed);
    } finally {
      if (coverage) await runner.dispose();
      await Promise.all(extra.map((r) => r.dispose()));
      run.end();
    }
  }

  /** The cases a request names (Run All: every case file on disk), minus the excluded ones. */
  private async selected(request: vscode.TestRunRequest): Promise<CaseEntry[]> {
    const roots: vscode.TestItem[] = [];
    if (request.include) roots.push(...request.include);
    else {
      await this.scan();
      this.controller.items.forEach((i) => roots.push(i));
    }
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    return [...new Set(roots.flatMap((i) => this.tree.casesUnder(i)))].filter(
      (e) => !excluded.has(e.item.id),
    );
  }

  private async debug(
    run: vscode.TestRun,
    entries: CaseEntry[],
    resource: vscode.Uri | undefined,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const name = entries.length === 1 ? entries[0]!.item.label : `${entries.length} tests`;
    const failed = await debugRun(this.ctx, name, resource, (runner) =>
      this.runEntries(run, entries, [runner], token),
    );
    if (failed === undefined) for (const e of entries) run.skipped(e.item);
    run.end();
    if (failed && !token.isCancellationRequested) this.peek(failed);
  }

  /** Each host takes the next case, a host's cases one after another; the items that failed, in case order. */
  private async runEntries(
    run: vscode.TestRun,
    entries: CaseEntry[],
    hosts: readonly HookRunner[],
    token: vscode.CancellationToken,
    results: CaseResult[] = [],
    coverage?: CoverageRun,
  ): Promise<vscode.TestItem[]> {
    this.last.clear();
    const ran = await runPool(
      entries,
      hosts.length,
      (i) => hosts[i]!,
      async (runner, e) => {
        if (token.isCancellationRequested) return undefined;
        run.started(e.item);
        e.item.children.forEach((c) => run.started(c));
        // Read again: the file may have changed since it was discovered.
        const testCase = rereadCase(e.testCase) ?? e.testCase;
        coverage?.begin(coverageCaseId(testCase));
        const [r] = await runCases([testCase], { runnerFor: () => runner });
        if (r?.status !== 'passed')
          this.ctx.log.info('test', `${path.basename(e.testCase.file)}: ${r?.status}`);
        if (!r) {
          this.played.delete(e.item.id);
          return undefined;
        }
        const failedNow = report(run, e, r, this.last);
        this.remember(e, r, failedNow);
        return { r, failed: failedNow ? e.item : undefined };
      },
    );
    // In the order of the cases, whichever host finished first.
    const failed: vscode.TestItem[] = [];
    for (const x of ran) {
      if (x) results.push(x.r);
      if (x?.failed) failed.push(x.failed);
    }
    return failed;
  }

  /** Not awaited: the run is over, and the workbench opening an editor must not hold the run's
   * handler (a run profile that has not returned holds back the next run). */
  private peek(failed: vscode.TestItem[]): void {
    if (!failed.length) return;
    void peekFirstFailure(failed).then((opened) =>
      this.ctx.log.info('test', `${failed.length} failed; peek ${opened ? 'opened' : 'not opened'}`),
    );
  }
}
