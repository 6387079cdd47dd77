// The Testing view: a vscode.tests TestController over every scenario and payload case of the
// workspace (agents → files → case → expectations), found as files change. Run / Run All from
// the view and the gutter; a failed expectation shows expected vs actual at its line (results.ts),
// the peek opens on the first failure (peek.ts), the status bar counts the failing cases; a failed
// scenario's timeline opens from the result. Registered only in a trusted workspace (running a
// case runs hooks).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SimulationResult } from '../../runtime/engine/api';
import { SHOW_SIMULATION_COMMAND } from '../simulate/feature';
import { isPayloadFile, isScenarioFile, readCase } from '../../runtime/testing/discover-cases';
import { runCases } from '../../runtime/testing/run-cases';
import { defaultJobs, runPool } from '../../runtime/testing/pool';
import type { HooksmithContext } from '../context';
import { noteTestRun } from '../walkthrough/feature';
import { sharedRunner } from '../python/runner-service';
import { debugRun } from '../debug/debug-run';
import type { HookRunner } from '../../runtime/engine/runner';
import { fuzzFeature } from './fuzz';
import { registerNewScenario } from './new-scenario';
import { registerRepeatProfile } from './repeat';
import {
  CoverageRun,
  missingCoverageFor,
  offerCoverage,
  registerCoverageProfile,
  type CoverageReport,
} from './coverage';
import { exercisedHooks } from './exercised';
import { coverageCaseId } from '../../runtime/testing/coverage/line-coverage';
import type { CaseResult } from '../../runtime/testing/cases';
import { TestTree, type CaseEntry } from './tree';
import { report, type ItemReport } from './results';
import { CONTROLLER_ID, peekFirstFailure } from './peek';

const GLOBS = [
  '**/*.scenario.{yaml,yml,json}',
  '**/eval/scenarios/*.{yml,yaml}',
  '**/.hooksmith/payloads/*.json',
];
const EXCLUDE = '**/{node_modules,.git}/**';

function registerController(ctx: HooksmithContext): TestTree {
  const controller = vscode.tests.createTestController(CONTROLLER_ID, 'Hooksmith');
  const tree = new TestTree(controller);
  const runners = sharedRunner(ctx);
  const last = new Map<string, ItemReport>();
  /** Scenario file → the turn its last test run played (its timeline opens from a failure). */
  const played = new Map<string, SimulationResult>();
  /** Case item id → its label, for the cases that failed (or could not run) when they last ran. */
  const failing = new Map<string, string>();
  const showFailing = () => ctx.testStatus.setFailing([...failing.values()]);
  /** What a case's result leaves behind, whichever profile ran it: the failing count, the timeline. */
  const remember = (e: CaseEntry, r: CaseResult, failed: boolean): void => {
    if (failed) failing.set(e.item.id, `${e.item.label} (${path.basename(e.testCase.file)})`);
    else failing.delete(e.item.id);
    showFailing();
    if (r.simulation) played.set(r.case.file, r.simulation);
    else played.delete(e.testCase.file);
  };
  ctx.push(controller);

  const scan = async () => {
    for (const glob of GLOBS)
      for (const uri of await vscode.workspace.findFiles(glob, EXCLUDE, 2000)) tree.update(uri.fsPath);
  };
  controller.resolveHandler = async (item) => {
    if (!item) await scan();
  };
  controller.refreshHandler = async () => {
    controller.items.replace([]);
    tree.cases.clear();
    await scan();
  };
  for (const glob of GLOBS) {
    const w = vscode.workspace.createFileSystemWatcher(glob);
    ctx.push(
      w,
      w.onDidCreate((u) => tree.update(u.fsPath)),
      w.onDidChange((u) => tree.update(u.fsPath)),
      w.onDidDelete((u) => {
        tree.remove(u.fsPath);
        if (failing.delete(`${u.fsPath}::case`)) showFailing();
      }),
    );
  }
  watchFolders(ctx, tree);
  // A file watcher can miss events (inotify limits, remote file systems, a file written as its folder
  // is created): a case file opened or saved in the editor is read again all the same.
  const caseFile = (d: vscode.TextDocument) =>
    d.uri.scheme === 'file' && GLOBS.some((pattern) => vscode.languages.match({ pattern }, d) > 0);
  const reread = (d: vscode.TextDocument) => caseFile(d) && tree.update(d.uri.fsPath);
  ctx.push(vscode.workspace.onDidOpenTextDocument(reread), vscode.workspace.onDidSaveTextDocument(reread));

  // Not awaited: the run is over, and the workbench opening an editor must not hold the run's
  // handler (a run profile that has not returned holds back the next run).
  const peek = (failed: vscode.TestItem[]) => {
    if (!failed.length) return;
    void peekFirstFailure(failed).then((opened) =>
      ctx.log.info('test', `${failed.length} failed; peek ${opened ? 'opened' : 'not opened'}`),
    );
  };

  /** What the last Run with Coverage gave the editor (`hooksmith.lastCoverage`, for tests). */
  let lastCoverage: CoverageReport | undefined;
  const relative = (f: string) => vscode.workspace.asRelativePath(f, false);

  // Run: the shared warm host, with hosts of the run's own beside it for several cases. Debug: a
  // debug run's host under a debug session (client/debug).
  // Coverage: a host of its own measuring the agent's files (coverage.ts).
  const execute =
    (mode: 'run' | 'debug' | 'coverage') =>
    async (request: vscode.TestRunRequest, token: vscode.CancellationToken) => {
      noteTestRun(ctx.log);
      const run = controller.createTestRun(request);
      const roots: vscode.TestItem[] = [];
      if (request.include) roots.push(...request.include);
      else {
        // Run All runs every case file on disk, including one the file watcher did not report.
        await scan();
        controller.items.forEach((i) => roots.push(i));
      }
      const excluded = new Set((request.exclude ?? []).map((i) => i.id));
      const entries = [...new Set(roots.flatMap((i) => tree.casesUnder(i)))].filter(
        (e) => !excluded.has(e.item.id),
      );
      // Edited files are saved first: cases read them from disk.
      for (const d of vscode.workspace.textDocuments)
        if (d.isDirty && entries.some((e) => e.testCase.file === d.uri.fsPath)) await d.save();
      for (const e of entries) run.enqueued(e.item);
      const resource = entries[0] ? vscode.Uri.file(entries[0].testCase.file) : undefined;
      if (mode === 'debug') {
        const name = entries.length === 1 ? entries[0]!.item.label : `${entries.length} tests`;
        const failed = await debugRun(ctx, name, resource, (runner) =>
          runEntries(run, entries, [runner], token),
        );
        if (failed === undefined) for (const e of entries) run.skipped(e.item);
        run.end();
        if (failed && !token.isCancellationRequested) peek(failed);
        return;
      }
      const coverage = mode === 'coverage' ? new CoverageRun() : undefined;
      const runner = coverage ? await runners.measured(resource, coverage.sink) : await runners.get(resource);
      // Run: the warm host and hosts of this run's own, as many as `hooksmith test -j` takes by default.
      const jobs = Math.min(defaultJobs(), entries.length);
      const extra = !coverage && runner ? await runners.extra(resource, jobs - 1) : [];
      if (!runner) {
        for (const e of entries)
          run.errored(e.item, new vscode.TestMessage('no Python interpreter to run hooks with'));
        run.end();
        return;
      }
      const results: CaseResult[] = [];
      try {
        const failed = await runEntries(run, entries, [runner, ...extra], token, results, coverage);
        if (coverage) {
          lastCoverage = await coverage.finish(run, results, relative);
          exercisedHooks(ctx).set(lastCoverage.hooks);
          const without = missingCoverageFor(lastCoverage.problems);
          if (without) void offerCoverage(without);
        }
        if (!token.isCancellationRequested) peek(failed);
      } finally {
        if (coverage) await runner.dispose();
        await Promise.all(extra.map((r) => r.dispose()));
        run.end();
      }
    };
  controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, execute('run'), true);
  controller.createRunProfile('Debug', vscode.TestRunProfileKind.Debug, execute('debug'), true);
  registerCoverageProfile(controller, execute('coverage'));
  registerRepeatProfile(ctx, controller, tree, last, remember);

  async function runEntries(
    run: vscode.TestRun,
    entries: CaseEntry[],
    hosts: readonly HookRunner[],
    token: vscode.CancellationToken,
    results: CaseResult[] = [],
    coverage?: CoverageRun,
  ): Promise<vscode.TestItem[]> {
    last.clear();
    // Each host takes the next case; a host's cases run one after another.
    const ran = await runPool(
      entries,
      hosts.length,
      (i) => hosts[i]!,
      async (runner, e) => {
        if (token.isCancellationRequested) return undefined;
        run.started(e.item);
        e.item.children.forEach((c) => run.started(c));
        // Read again: the file may have changed since it was discovered.
        const now = readCase(e.testCase.file);
        const testCase = now && 'kind' in now ? now : e.testCase;
        coverage?.begin(coverageCaseId(testCase));
        const [r] = await runCases([testCase], { runnerFor: () => runner });
        if (r?.status !== 'passed') ctx.log.info('test', `${path.basename(e.testCase.file)}: ${r?.status}`);
        if (!r) {
          played.delete(testCase.file);
          return undefined;
        }
        const failedNow = report(run, e, r, last);
        remember(e, r, failedNow);
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

  ctx.registerCommand('lastTestRun', () => Object.fromEntries(last));
  ctx.registerCommand('lastCoverage', () => lastCoverage);
  ctx.registerCommand('testItems', async () => {
    if (controller.items.size === 0) await scan();
    const out: { id: string; label: string; line?: number; depth: number }[] = [];
    const walk = (i: vscode.TestItem, depth: number) => {
      out.push({ id: i.id, label: i.label, line: i.range ? i.range.start.line + 1 : undefined, depth });
      i.children.forEach((c) => walk(c, depth + 1));
    };
    controller.items.forEach((i) => walk(i, 0));
    return out;
  });
  // From a failed scenario's result message: the timeline of that run, as it was recorded (a
  // hook with randomness or time could play differently again). Played again only when no run
  // of it is kept (none yet in this window).
  ctx.registerCommand('openTestTimeline', async (raw?: unknown) => {
    const arg = raw as { test?: vscode.TestItem } | vscode.TestItem | undefined;
    const item = arg && 'test' in arg ? arg.test : (arg as vscode.TestItem | undefined);
    const file = item?.uri?.fsPath;
    if (!file) return;
    const result = played.get(file);
    if (result) {
      await vscode.commands.executeCommand(`hooksmith.${SHOW_SIMULATION_COMMAND}`, { file, result });
      return;
    }
    void vscode.window.showInformationMessage(
      `Hooksmith: the test run of ${path.basename(file)} is no longer kept; playing the scenario again.`,
    );
    await vscode.commands.executeCommand('hooksmith.simulateTurn', file);
  });
  void scan();
  return tree;
}

/**
 * Folders created and deleted. A file written into a folder just created can come before the
 * watch of that folder starts, and then no event reports it: a new folder is searched whole
 * (once the burst of creations settles). A deleted folder reports only itself: the cases below
 * it are taken out.
 */
function watchFolders(ctx: HooksmithContext, tree: TestTree): void {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const searchPending = async () => {
    timer = undefined;
    const dirs = [...pending].filter((d) => ![...pending].some((o) => o !== d && d.startsWith(o + path.sep)));
    pending.clear();
    for (const dir of dirs) {
      const found = await vscode.workspace.findFiles(new vscode.RelativePattern(dir, '**/*'), EXCLUDE, 2000);
      for (const u of found) if (isScenarioFile(u.fsPath) || isPayloadFile(u.fsPath)) tree.update(u.fsPath);
    }
  };
  const created = async (u: vscode.Uri) => {
    if (/[\\/](node_modules|\.git)([\\/]|$)/.test(u.fsPath)) return;
    const stat = await vscode.workspace.fs.stat(u).then(
      (s) => s,
      () => undefined,
    );
    if (!stat || !(stat.type & vscode.FileType.Directory)) return;
    pending.add(u.fsPath);
    timer ??= setTimeout(
      () => void searchPending().catch((e: unknown) => ctx.log.warn('test', String(e))),
      150,
    );
  };
  const w = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
  ctx.push(
    w,
    w.onDidCreate((u) => void created(u)),
    w.onDidDelete((u) => tree.removeUnder(u.fsPath)),
    { dispose: () => timer && clearTimeout(timer) },
  );
}

export function testingFeature(ctx: HooksmithContext): void {
  let tree: TestTree | undefined;
  fuzzFeature(ctx, (file) => tree?.update(file));
  registerNewScenario(ctx, (file) => tree?.update(file));
  if (vscode.workspace.isTrusted) tree = registerController(ctx);
  else ctx.push(vscode.workspace.onDidGrantWorkspaceTrust(() => (tree = registerController(ctx))));
}
