// The Testing view: a vscode.tests TestController over every scenario and payload case of the
// workspace (agents → files → case → expectations; a Cayu eval corpus: each of its cases under the
// file), found as files change. Run / Run All from the view and the gutter; a failed expectation
// shows expected vs actual at its line (results.ts), the peek opens on the first failure
// (peek.ts), the status bar counts the failing cases; a failed scenario's timeline opens from the
// result. Registered only in a trusted workspace (running a case runs hooks).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SHOW_SIMULATION_COMMAND } from '../simulate/feature';
import { isPayloadFile, isScenarioFile } from '../../runtime/testing/discover-cases';
import { isCayuEvalPath } from '../../runtime/engine/cayu-eval';
import type { HooksmithContext } from '../context';
import { fuzzFeature } from './fuzz';
import { registerNewScenario } from './new-scenario';
import { registerRepeatProfile } from './repeat';
import { registerCoverageProfile } from './coverage';
import { TestTree } from './tree';
import { CONTROLLER_ID } from './peek';
import { TestRunner, type RunMode } from './runner';

const GLOBS = [
  '**/*.scenario.{yaml,yml,json}',
  '**/eval/scenarios/*.{yml,yaml}',
  '**/.hooksmith/payloads/*.json',
  '**/*.cayu-eval.json',
];
const EXCLUDE = '**/{node_modules,.git}/**';
const isCaseFile = (f: string) => isScenarioFile(f) || isPayloadFile(f) || isCayuEvalPath(f);

function registerController(ctx: HooksmithContext): TestTree {
  const controller = vscode.tests.createTestController(CONTROLLER_ID, 'Hooksmith');
  const tree = new TestTree(controller);
  /** Reads every case file in the workspace; returns their paths. */
  const readAll = async () => {
    const found = new Set<string>();
    for (const glob of GLOBS)
      for (const uri of await vscode.workspace.findFiles(glob, EXCLUDE, 2000)) {
        found.add(uri.fsPath);
        tree.update(uri.fsPath);
      }
    return found;
  };
  const scan = async () => void (await readAll());
  const runner = new TestRunner(ctx, controller, tree, scan);
  ctx.push(controller);
  controller.resolveHandler = async (item) => {
    if (!item) await scan();
  };
  // Refresh reads every file again but keeps the items of unchanged ones: a replaced item reaches
  // VS Code's copy of the tree up to 200 ms later, and a Run All in between ran nothing (CI).
  controller.refreshHandler = async () => tree.keepOnly(await readAll());
  watchCaseFiles(ctx, tree, runner);
  watchFolders(ctx, tree);
  const profile = (mode: RunMode) => (request: vscode.TestRunRequest, token: vscode.CancellationToken) =>
    runner.runTests(mode, request, token);
  controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, profile('run'), true);
  controller.createRunProfile('Debug', vscode.TestRunProfileKind.Debug, profile('debug'), true);
  registerCoverageProfile(controller, profile('coverage'));
  registerRepeatProfile(ctx, controller, tree, runner.last, runner.remember);
  registerTestCommands(ctx, controller, tree, runner, scan);
  void scan();
  return tree;
}

/** Case files created, changed and deleted; and opened or saved in the editor, since a file watcher can
 * miss events (inotify limits, remote file systems, a file written as its folder is created). */
function watchCaseFiles(ctx: HooksmithContext, tree: TestTree, runner: TestRunner): void {
  for (const glob of GLOBS) {
    const w = vscode.workspace.createFileSystemWatcher(glob);
    ctx.push(
      w,
      w.onDidCreate((u) => tree.update(u.fsPath)),
      w.onDidChange((u) => tree.update(u.fsPath)),
      w.onDidDelete((u) => {
        tree.remove(u.fsPath);
        runner.forget(u.fsPath);
      }),
    );
  }
  const caseFile = (d: vscode.TextDocument) =>
    d.uri.scheme === 'file' && GLOBS.some((pattern) => vscode.languages.match({ pattern }, d) > 0);
  const reread = (d: vscode.TextDocument) => caseFile(d) && tree.update(d.uri.fsPath);
  ctx.push(vscode.workspace.onDidOpenTextDocument(reread), vscode.workspace.onDidSaveTextDocument(reread));
}

/** The commands tests and result messages call: the last run's reports, coverage, items, a timeline. */
function registerTestCommands(
  ctx: HooksmithContext,
  controller: vscode.TestController,
  tree: TestTree,
  runner: TestRunner,
  scan: () => Promise<void>,
): void {
  ctx.registerCommand('lastTestRun', () => Object.fromEntries(runner.last));
  ctx.registerCommand('lastCoverage', () => runner.lastCoverage);
  ctx.registerCommand('testItems', async () => {
    if (controller.items.size === 0) await scan();
    const out: { id: string; label: string; line?: number; depth: number; error?: string }[] = [];
    const walk = (i: vscode.TestItem, depth: number) => {
      const line = i.range ? i.range.start.line + 1 : undefined;
      const error = typeof i.error === 'string' ? i.error : i.error?.value;
      out.push({ id: i.id, label: i.label, line, depth, ...(error ? { error } : {}) });
      i.children.forEach((c) => walk(c, depth + 1));
    };
    controller.items.forEach((i) => walk(i, 0));
    return out;
  });
  // From a failed scenario's result message: the timeline of that run, as it was recorded (a
  // hook with randomness or time could play differently again). Played again only when no run
  // of it is kept (none yet in this window).
  ctx.registerCommand('openTestTimeline', (raw?: unknown) => openTestTimeline(tree, runner, raw));
}

/** A failure's "Open Timeline": the turn its test run played, as it was; a scenario no longer kept plays again. */
async function openTestTimeline(tree: TestTree, runner: TestRunner, raw: unknown): Promise<void> {
  const arg = raw as { test?: vscode.TestItem } | vscode.TestItem | undefined;
  const item = arg && 'test' in arg ? arg.test : (arg as vscode.TestItem | undefined);
  const file = item?.uri?.fsPath;
  if (!file) return;
  // A message's item is the case or one of its expectations; `{ uri }` alone: a scenario file.
  const entry = item?.id ? tree.casesUnder(item)[0] : undefined;
  const result = runner.playedBy(entry?.item.id ?? `${file}::case`);
  const corpusCase = entry?.testCase.cayuEval ? entry.item.label : undefined;
  if (result) {
    await vscode.commands.executeCommand(`hooksmith.${SHOW_SIMULATION_COMMAND}`, {
      file,
      result,
      ...(corpusCase ? { caseName: corpusCase } : {}),
    });
    return;
  }
  if (corpusCase) {
    // A corpus is no scenario file: only its test run plays a case.
    void vscode.window.showInformationMessage(
      `Hooksmith: the test run of ${corpusCase} (${path.basename(file)}) is no longer kept; run the case again to see its timeline.`,
    );
    return;
  }
  void vscode.window.showInformationMessage(
    `Hooksmith: the test run of ${path.basename(file)} is no longer kept; playing the scenario again.`,
  );
  await vscode.commands.executeCommand('hooksmith.simulateTurn', file);
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
      for (const u of found) if (isCaseFile(u.fsPath)) tree.update(u.fsPath);
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
