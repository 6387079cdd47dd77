// "Simulate Turn": a scenario file (CodeLens, palette quick pick, explorer/editor menus, or an
// argument) played through the agent's hooks in the shared warm host; the timeline webview
// shows every insertion point and the transcript. The command returns the SimulationResult.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SimulationResult } from '../../runtime/engine/api';
import { RunInputError } from '../../runtime/engine/run-hook';
import { isMantleScenarioPath, needsMantleModel } from '../../runtime/engine/mantle-scenario';
import { needsModel } from '../../runtime/engine/model-step';
import { readScenarioFile, ScenarioError } from '../../runtime/engine/scenario-load';
import { renderRefusalHtml, type Refusal } from '../../runtime/ui/refusal-html';
import { renderTimelineHtml } from '../../runtime/ui/timeline-html';
import { registerFromRecording } from './from-recording';
import type { HooksmithContext } from '../context';
import { sharedRunner } from '../python/runner-service';
import { withDelayedProgress } from '../run/progress';
import { clearRefusalNote, noteRefusal, refusalLog, refusalOf } from '../run/refusal';
import { ReusablePanel } from '../run/webview-panel';
import { openAt, type WebviewMessage } from '../run/webview-messages';
import { ensureTrusted } from '../trust/trust';
import { DEBUG_TURN_COMMAND, isScenarioPath, SCENARIO_GLOB, ScenarioCodeLensProvider } from './codelens';
import { debugRun } from '../debug/debug-run';
import type { HookRunner } from '../../runtime/engine/runner';
import { RE_RECORD } from '../../runtime/models';
import { saveCassette } from '../../runtime/testing/save-cassette';

/** Mantle's eval scenario files (isMantleScenarioPath: `<agent>/eval/scenarios/*.yml`). */
const MANTLE_EVAL_GLOB = '**/eval/scenarios/*.{yml,yaml}';

/**
 * `hooksmith.simulateTurn` argument: a scenario file (Uri or path), or
 * `{ scenario: path | object, baseDir? }` (an object's agent is resolved from baseDir).
 */
export type SimulateArg = vscode.Uri | string | { scenario: string | object; baseDir?: string };

interface Target {
  scenario: string | object;
  baseDir?: string;
  /** The file, when there is one (Open scenario, titles). */
  file?: string;
}

function asTarget(raw: unknown): Target | undefined {
  if (raw instanceof vscode.Uri) return { scenario: raw.fsPath, file: raw.fsPath };
  if (typeof raw === 'string' && raw) return { scenario: path.resolve(raw), file: path.resolve(raw) };
  if (typeof raw === 'object' && raw !== null && 'scenario' in raw) {
    const r = raw as { scenario: unknown; baseDir?: unknown };
    const baseDir = typeof r.baseDir === 'string' ? r.baseDir : undefined;
    if (typeof r.scenario === 'string')
      return { scenario: path.resolve(r.scenario), file: path.resolve(r.scenario) };
    if (typeof r.scenario === 'object' && r.scenario !== null) return { scenario: r.scenario, baseDir };
  }
  return undefined;
}

/** Why a scenario file cannot play under Hooksmith (an eval file Mantle alone plays), else undefined. */
function cannotPlay(file: string): string | undefined {
  try {
    const read = readScenarioFile(file);
    return 'engineOnly' in read ? needsMantleModel('editor') : undefined;
  } catch {
    return undefined; // a broken file: playing it shows what is wrong
  }
}

/**
 * The active editor's scenario or Mantle eval file, else a pick of the workspace's. An eval file
 * only the Mantle engine can play is listed too, saying so, not left out (#31 item 8).
 */
async function pickScenario(): Promise<Target | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file' && (isScenarioPath(active.fsPath) || isMantleScenarioPath(active.fsPath)))
    return { scenario: active.fsPath, file: active.fsPath };
  const exclude = '**/{node_modules,.git}/**';
  const files = [
    ...(await vscode.workspace.findFiles(SCENARIO_GLOB, exclude, 200)),
    ...(await vscode.workspace.findFiles(MANTLE_EVAL_GLOB, exclude, 200)).filter((u) =>
      isMantleScenarioPath(u.fsPath),
    ),
  ];
  if (!files.length) {
    void vscode.window.showInformationMessage(
      'Hooksmith: no *.scenario.yaml or *.scenario.json file in this workspace. Create one beside your agent (the JSON Schema completes it).',
    );
    return undefined;
  }
  if (files.length === 1) return { scenario: files[0]!.fsPath, file: files[0]!.fsPath };
  const pick = await vscode.window.showQuickPick(
    files
      .map((u) => {
        const why = isMantleScenarioPath(u.fsPath) ? cannotPlay(u.fsPath) : undefined;
        return {
          label: path.basename(u.fsPath),
          description: vscode.workspace.asRelativePath(path.dirname(u.fsPath)),
          ...(why ? { detail: `$(warning) ${why}` } : {}),
          uri: u,
        };
      })
      .sort((a, b) => a.description.localeCompare(b.description) || a.label.localeCompare(b.label)),
    { title: 'Simulate Turn', placeHolder: 'Which scenario?', matchOnDescription: true },
  );
  return pick ? { scenario: pick.uri.fsPath, file: pick.uri.fsPath } : undefined;
}

/** The last turn the timeline shows: what re-runs it, and its result or refusal. */
interface LastTurn {
  target: Target;
  result?: SimulationResult;
  refusal?: Refusal;
}

/** A message from the timeline: run again, re-record, set a model, open a hook or the scenario. */
async function onTimelineMessage(
  ctx: HooksmithContext,
  m: WebviewMessage,
  last: LastTurn | undefined,
): Promise<void> {
  if (m.type === 'rerun')
    await vscode.commands.executeCommand(
      'hooksmith.simulateTurn',
      last?.target.file ??
        (last ? { scenario: last.target.scenario, baseDir: last.target.baseDir } : undefined),
    );
  else if (m.type === 'rerecord' && last?.target.file)
    await vscode.commands.executeCommand(`hooksmith.${RE_RECORD_COMMAND}`, last.target.file);
  else if (m.type === 'setModel') await openModelSetting();
  else if (m.type === 'openHook' && last?.result?.agentRoot)
    await openHook(ctx, last.result.agentRoot, m.hook);
  else if (m.type === 'openScenario' && last?.target.file)
    await vscode.window.showTextDocument(vscode.Uri.file(last.target.file), {
      viewColumn: vscode.ViewColumn.One,
      preview: false,
    });
}

/** What a refused turn offers: "Run again" cannot help a scenario that needs a model, setting one can. */
function refusalActions(message: string, target: Target): Refusal['actions'] {
  return needsAModel(message)
    ? ['setModel', ...(target.file ? (['openScenario'] as const) : [])]
    : target.file
      ? ['rerun', 'openScenario']
      : ['rerun'];
}

/** The timeline panel and the turn it shows: plays a scenario and shows its timeline or refusal. */
class TurnPlayer {
  last: LastTurn | undefined;
  readonly runners: ReturnType<typeof sharedRunner>;
  readonly panel = new ReusablePanel('hooksmith.timeline', (m) => onTimelineMessage(this.ctx, m, this.last));

  constructor(private readonly ctx: HooksmithContext) {
    this.runners = sharedRunner(ctx);
  }

  /**
   * A turn already played (a test run's own result): shown as it was, not played again. A Cayu
   * eval corpus case (`caseName`) offers neither Run Again nor Re-record: both play the file as
   * a scenario, and a corpus is none.
   */
  showPlayed(file: string, result: SimulationResult, caseName?: string): void {
    this.last = { target: { scenario: file, file }, result };
    const replayable = caseName === undefined;
    const title = caseName ? `${caseName} (${path.basename(file)})` : path.basename(file);
    this.panel.show(`Turn: ${title} (test run)`, (sec) =>
      renderTimelineHtml(result, {
        ...sec,
        rerun: replayable,
        rerecord: replayable && !!result.models?.failure,
      }),
    );
  }

  async play(
    target: Target,
    name: string,
    runner: HookRunner,
    debugging: boolean,
  ): Promise<SimulationResult | undefined> {
    const last: LastTurn = (this.last = { target });
    let cancelled = false;
    const t0 = Date.now();
    try {
      const result = await withDelayedProgress(
        `Hooksmith: simulating ${name}…`,
        runner.simulate(target.scenario, target.baseDir),
        () => {
          cancelled = true;
          this.ctx.log.info('simulate', `${name}: cancelled; stopping the Python host`);
          if (debugging) void runner.dispose();
          else this.runners.reset();
        },
      );
      saveCassette(result); // the editor's Simulate Turn owns the run: it writes what the run recorded
      this.ctx.log.info(
        'simulate',
        `${name}: ${result.events.length} events, ${result.status} (${result.ending ?? ''}) in ${Date.now() - t0} ms`,
      );
      this.showResult(last, name, result);
      return result;
    } catch (err) {
      if (cancelled) {
        void vscode.window.showInformationMessage(`Hooksmith: simulation of ${name} cancelled.`);
        return undefined;
      }
      if (!(err instanceof RunInputError) && !(err instanceof ScenarioError)) throw err;
      this.showRefusal(last, name, err);
      return undefined;
    }
  }

  private showResult(last: LastTurn, name: string, result: SimulationResult): void {
    last.result = result;
    last.refusal = undefined;
    clearRefusalNote();
    const file = last.target.file;
    const rerecord = !!result.models?.failure && !!file;
    this.panel.show(`Turn: ${name}`, (sec) => renderTimelineHtml(result, { ...sec, rerun: true, rerecord }));
    if (rerecord) offerReRecord(name, result.models!.failure!, file!);
  }

  /** The refusal replaces the previous timeline: nothing stale looks like this turn. */
  private showRefusal(last: LastTurn, name: string, err: RunInputError | ScenarioError): void {
    // "Run again" cannot help a scenario that needs a model: setting one can (#45 item 2).
    const refusal = refusalOf(err, name, refusalActions(err.message, last.target));
    this.ctx.log.warn('simulate', refusalLog(refusal));
    last.refusal = refusal;
    this.panel.show(`Turn: ${name}`, (sec) => renderRefusalHtml(refusal, sec));
    noteRefusal(name, refusal);
  }

  /** Simulate Turn (or Debug Turn): the argument's scenario, else the active or a picked one. */
  async simulate(raw: unknown, debug: boolean): Promise<SimulationResult | undefined> {
    if (!ensureTrusted()) return undefined;
    const target = raw === undefined ? await pickScenario() : asTarget(raw);
    if (!target) {
      if (raw !== undefined)
        void vscode.window.showErrorMessage(
          'Hooksmith: Simulate Turn needs a scenario file (*.scenario.yaml / *.scenario.json).',
        );
      return undefined;
    }
    const resource = target.file ? vscode.Uri.file(target.file) : undefined;
    // Save an edited scenario first: the simulation reads the file.
    const open = target.file
      ? vscode.workspace.textDocuments.find((d) => d.uri.fsPath === target.file && d.isDirty)
      : undefined;
    if (open) await open.save();
    const name = target.file ? path.basename(target.file) : 'scenario';
    if (debug) return debugRun(this.ctx, name, resource, (runner) => this.play(target, name, runner, true));
    const runner = await this.runners.get(resource);
    if (!runner) return undefined;
    return this.play(target, name, runner, false);
  }

  /** Re-record: the one way the editor calls a model over a recorded exchange (#45 item 1). */
  async reRecord(raw: unknown): Promise<SimulationResult | undefined> {
    if (!ensureTrusted()) return undefined;
    const target = asTarget(testItemUri(raw) ?? raw);
    if (!target?.file) return undefined;
    const unset = unsetKeys(target.file, this.ctx.settings(vscode.Uri.file(target.file)).model?.api_key_env);
    if (unset.length) {
      void vscode.window.showErrorMessage(
        `Hooksmith: Re-record needs the model's key: ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not set in VS Code's environment. Set it where VS Code is started (or in the environment of the remote or container), then reload the window.`,
      );
      return undefined;
    }
    const runner = await this.runners.recording(vscode.Uri.file(target.file));
    if (!runner) return undefined;
    try {
      return await this.play(target, path.basename(target.file), runner, false);
    } finally {
      void runner.dispose();
    }
  }
}

export function simulateFeature(ctx: HooksmithContext): void {
  const turns = new TurnPlayer(ctx);
  const panel = turns.panel;
  const lenses = new ScenarioCodeLensProvider();
  ctx.push(
    panel,
    lenses,
    vscode.languages.registerCodeLensProvider(
      [
        { pattern: '**/*.scenario.{yaml,yml,json}', scheme: 'file' },
        { pattern: MANTLE_EVAL_GLOB, scheme: 'file' },
      ],
      lenses,
    ),
  );

  ctx.registerCommand(LAST_SIMULATION_COMMAND, () => {
    const last = turns.last;
    return last
      ? { file: last.target.file, result: last.result, refusal: last.refusal, html: panel.html }
      : undefined;
  });
  // A turn already played (a test run's own result): shown as it was, not played again, so a
  // hook whose output differs per run shows the run that failed.
  ctx.registerCommand(SHOW_SIMULATION_COMMAND, (raw?: unknown) => {
    const arg = raw as { file?: string; result?: SimulationResult; caseName?: string } | undefined;
    if (arg?.file && arg.result) turns.showPlayed(arg.file, arg.result, arg.caseName);
  });
  ctx.registerCommand('simulateTurn', (raw?: unknown) => turns.simulate(raw, false));
  ctx.registerCommand(RE_RECORD_COMMAND, (raw?: unknown) => turns.reRecord(raw));
  registerFromRecording(ctx);
  ctx.registerCommand(DEBUG_TURN_COMMAND, (raw?: unknown) => turns.simulate(raw, true));
}

/** Records a scenario's model exchanges again: `hooksmith.reRecord` with the scenario file. */
export const RE_RECORD_COMMAND = 'reRecord';

/** A refusal because the scenario has no model to play it (the editor's words: needsModel / needsMantleModel). */
function needsAModel(message: string): boolean {
  return message.endsWith(needsModel('editor')) || message.endsWith(needsMantleModel('editor'));
}

/** Opens the Settings editor at hooksmith.model. */
export async function openModelSetting(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', 'hooksmith.model');
}

/** The cassette cannot answer: say what differs, and offer to record it (never done unasked). */
function offerReRecord(name: string, failure: string, file: string): void {
  void vscode.window
    .showWarningMessage(`Hooksmith: ${name}: the cassette cannot answer: ${failure}`, RE_RECORD)
    .then((choice) => {
      if (choice === RE_RECORD) void vscode.commands.executeCommand(`hooksmith.${RE_RECORD_COMMAND}`, file);
    });
}

/** A test message's or test item's file (the Testing view's menus pass `{ test }` or the item). */
function testItemUri(raw: unknown): vscode.Uri | undefined {
  if (typeof raw !== 'object' || raw === null || raw instanceof vscode.Uri) return undefined;
  const item = 'test' in raw ? (raw as { test: unknown }).test : raw;
  const uri = (item as { uri?: unknown } | undefined)?.uri;
  return uri instanceof vscode.Uri ? uri : undefined;
}

/** The key variables (api_key_env) of the scenario's models that are not set in this process. */
function unsetKeys(file: string, settingKey: string | undefined): string[] {
  let names: (string | undefined)[] = [];
  try {
    const read = readScenarioFile(file);
    const sc = 'engineOnly' in read ? read.playable : read.scenario;
    // The scenario's own model plays it; else the hooksmith.model setting's.
    names = [sc.model ? sc.model.api_key_env : settingKey, sc.user_simulation?.model?.api_key_env];
  } catch {
    // a broken file: playing it shows what is wrong
  }
  return [...new Set(names.filter((n): n is string => !!n))].filter((n) => !process.env[n]);
}

/** Shows a SimulationResult already played: `{ file, result, caseName? }` (caseName: a corpus case). */
export const SHOW_SIMULATION_COMMAND = 'showSimulation';

/** For tests: the last simulation (scenario file, result or refusal). */
export const LAST_SIMULATION_COMMAND = 'lastSimulation';

/** Opens a timeline hook (`file::handler`, the file relative to the agent) at its definition. */
async function openHook(ctx: HooksmithContext, agentRoot: string, hook: string): Promise<void> {
  const sep = hook.lastIndexOf('::');
  if (sep < 0) return;
  const file = path.resolve(agentRoot, hook.slice(0, sep));
  // Only files of the agent: the name comes from a webview.
  if (path.relative(agentRoot, file).startsWith('..')) return;
  const handler = hook.slice(sep + 2);
  const entry = ctx.hooks.current?.agents
    .flatMap((a) => a.hooks)
    .find((h) => path.resolve(h.file) === file && h.handler === handler);
  await openAt(file, (entry?.range.start.line ?? 0) + 1);
}
