// One hook runner (one warm Python host) per workspace folder, shared by Run Hook, Simulate Turn,
// the Testing view and Fuzz; re-created when the interpreter, the Mantle API line or the model settings may have
// changed, disposed with the extension. The runner speaks the line selectEditorLine picks (as the
// server and the CLI) and plays models as `hooksmith.model` / `hooksmith.modelRecord` say (as the
// CLI's --model / --record).
import * as vscode from 'vscode';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import type { HookRunnerOptions } from '../../runtime/engine/api';
import type { ModelRunOptions } from '../../runtime/engine/model-step';
import type { HooksmithSettings } from '../../runtime/lsp/shared';
import type { HooksmithContext } from '../context';
import { API_LINE_SETTING, CAYU_LINE_SETTING, selectEditorLine } from './engine-line';
import { InterpreterResolver, showNoInterpreter } from './interpreter';

const MODEL_SETTINGS = ['hooksmith.model', 'hooksmith.modelRecord'];

/**
 * The editor's `--model` / `--record`: the settings, applied as the CLI applies its options, with
 * one difference: a request that differs from its recorded one stops with the difference instead
 * of being recorded over (#45 item 1); only Re-record (`recording`) calls the model for it.
 */
export function editorModels(settings: HooksmithSettings): ModelRunOptions {
  return {
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.modelRecord ? { record: settings.modelRecord } : {}),
    keepRecorded: true,
    audience: 'editor',
  };
}

/**
 * Which shared runner serves `resource`: its workspace folder's (each folder of a multi-root
 * workspace has its own interpreter and resource-scoped settings), '' outside any folder.
 */
function folderKey(resource: vscode.Uri | undefined): string {
  const folder = resource && vscode.workspace.getWorkspaceFolder(resource);
  return folder ? folder.uri.toString() : '';
}

export class RunnerService implements vscode.Disposable {
  /** One warm runner per workspace folder (folderKey), created on first use. */
  private readonly runners = new Map<string, Promise<HookRunner | undefined>>();
  private readonly resolver: InterpreterResolver;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly ctx: HooksmithContext) {
    this.resolver = new InterpreterResolver(ctx);
    this.subscriptions.push(
      this.resolver,
      this.resolver.onDidChange(() => {
        ctx.log.info('python', 'the interpreter may have changed: the next run starts a new Python host');
        this.reset();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        const changed = [API_LINE_SETTING, CAYU_LINE_SETTING, ...MODEL_SETTINGS].find((s) =>
          e.affectsConfiguration(s),
        );
        if (!changed) return;
        ctx.log.info('python', `${changed} changed: the next run starts a new Python host`);
        this.reset();
      }),
      // A folder closed: its warm host goes with it.
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) this.disposeRunner(f.uri.toString());
      }),
    );
  }

  /**
   * Selects the Mantle API line for `resource` without starting a host (Scaffold: its templates
   * follow the line). No usable Python: the setting's line, else the spec's.
   */
  async selectLine(resource?: vscode.Uri): Promise<void> {
    // A runner's creation selected the line: nothing more to ask.
    const existing = this.runners.get(folderKey(resource));
    if (existing && (await existing)) return;
    const choice = await this.resolver.resolve(resource);
    await selectEditorLine(this.ctx, choice.ok ? choice.python : undefined, resource);
  }

  /**
   * The runner of `resource`'s workspace folder, created on first use with that folder's
   * interpreter and settings; undefined (after telling the user) when no Python works.
   */
  async get(resource?: vscode.Uri): Promise<HookRunner | undefined> {
    const key = folderKey(resource);
    let runner = this.runners.get(key);
    if (!runner) {
      const created = this.create(resource, editorModels(this.ctx.settings(resource)));
      this.runners.set(key, created);
      // A failed resolution is not cached: the user may fix it and try again.
      void created.then((r) => {
        if (!r && this.runners.get(key) === created) this.runners.delete(key);
      });
      runner = created;
    }
    return runner;
  }

  /**
   * A runner of its own (the caller disposes it) whose model calls are fresh where recording is
   * on: the repeats of Run N times, as `hooksmith test --repeat` runs them.
   */
  async fresh(resource?: vscode.Uri): Promise<HookRunner | undefined> {
    return this.create(resource, { ...editorModels(this.ctx.settings(resource)), fresh: true });
  }

  /**
   * A runner of its own (the caller disposes it) that records: requests the cassette lacks or
   * that changed go to the model and are saved (the Re-record action: the user asked for it).
   */
  async recording(resource?: vscode.Uri): Promise<HookRunner | undefined> {
    const models = editorModels(this.ctx.settings(resource));
    return this.create(resource, { ...models, record: 'missing', keepRecorded: false });
  }

  /**
   * `count` runners of their own (the caller disposes them), as the shared one is made: the
   * hosts beside the warm one when the Testing view runs several cases (`hooksmith test -j`).
   */
  async extra(resource: vscode.Uri | undefined, count: number): Promise<HookRunner[]> {
    const out: HookRunner[] = [];
    for (let i = 0; i < count; i++) {
      const r = await this.create(resource, editorModels(this.ctx.settings(resource)));
      if (r) out.push(r);
    }
    return out;
  }

  /**
   * A runner of its own (the caller disposes it) whose host measures line and branch coverage
   * with coverage.py into `coverage`: the Testing view's Run with Coverage.
   */
  async measured(
    resource: vscode.Uri | undefined,
    coverage: NonNullable<HookRunnerOptions['coverage']>,
  ): Promise<HookRunner | undefined> {
    return this.create(resource, editorModels(this.ctx.settings(resource)), coverage);
  }

  private async create(
    resource: vscode.Uri | undefined,
    models: ModelRunOptions,
    coverage?: HookRunnerOptions['coverage'],
  ): Promise<HookRunner | undefined> {
    const choice = await this.resolver.resolve(resource);
    if (!choice.ok) {
      void showNoInterpreter(choice.rejected, this.ctx.log);
      return undefined;
    }
    const mantleLine = await selectEditorLine(this.ctx, choice.python, resource);
    return createHookRunner({
      python: choice.python,
      mantleLine,
      memoryLimitMb: this.ctx.settings(resource).hostMemoryLimitMb,
      // Read at each run: a changed hooksmith.cayu.engine, .cayu.safetyStopSeconds or
      // .mantle.engine applies at once.
      cayuEngine: () => this.ctx.settings(resource).cayu.engine,
      cayuSafetyStopS: () => this.ctx.settings(resource).cayu.safetyStopSeconds,
      mantleEngine: () => this.ctx.settings(resource).mantle.engine,
      workspaceRoots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      // The same word on which points the engine invokes as the not-wired diagnostics get.
      wiredPoints: () => this.ctx.settings(resource).mantle.wiredPoints,
      log: (line) => this.ctx.log.info('host', line.replace(/^\[host\]\s*/, '')),
      models,
      ...(coverage ? { coverage } : {}),
    });
  }

  /** Disposes every folder's runner (its Python host); the next `get` creates a new one. */
  reset(): void {
    for (const key of [...this.runners.keys()]) this.disposeRunner(key);
  }

  private disposeRunner(key: string): void {
    const runner = this.runners.get(key);
    this.runners.delete(key);
    void runner
      ?.then((r) => r?.dispose())
      .catch((err: unknown) =>
        this.ctx.log.warn('host', `dispose: ${err instanceof Error ? err.message : String(err)}`),
      );
  }

  dispose(): void {
    this.reset();
    for (const d of this.subscriptions) d.dispose();
  }
}

const services = new WeakMap<HooksmithContext, RunnerService>();

/** The one RunnerService of a context (Run Hook and Simulate Turn share the warm host). */
export function sharedRunner(ctx: HooksmithContext): RunnerService {
  let s = services.get(ctx);
  if (!s) {
    s = new RunnerService(ctx);
    services.set(ctx, s);
    ctx.push(s);
  }
  return s;
}
