// What runs a hook from the editor (as vitest's extension has src/runner/runner.ts): Run Hook,
// Debug Hook, Re-run and Run All in File hand their arguments here (feature.ts only registers the
// commands). It owns the result panel and what a run leaves behind: the last run (re-run, the
// panel's messages), the crash marks in the gutter, the load-error marks.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunResult } from '../../runtime/engine/api';
import { RunInputError } from '../../runtime/engine/run-hook';
import type { HookRunner } from '../../runtime/engine/runner';
import { renderRefusalHtml, type Refusal } from '../../runtime/ui/refusal-html';
import { renderRunResultHtml } from '../../runtime/ui/result-html';
import { renderRunAllHtml, type RunAllRow } from '../../runtime/ui/run-all-html';
import { agentRootOf, createSampleFile, listSamples } from '../../runtime/ui/payload-files';
import type { HooksmithContext } from '../context';
import { debugRun } from '../debug/debug-run';
import { sharedRunner, type RunnerService } from '../python/runner-service';
import { ensureTrusted } from '../trust/trust';
import { RUN_ALL_COMMAND } from './codelens';
import { CrashMarks } from './crash-marks';
import { asArgs, defLine, pickHook } from './hook-args';
import { findHook, hooksInFile, type HookRef } from './hook-target';
import { LoadErrorMarks } from './load-error-marks';
import { choosePayloadFile, loadPayload } from './payload-choice';
import { openPayloadBeside, payloadBarFor, savedPayloads, setPayloadField } from './payload-panel';
import { withDelayedProgress } from './progress';
import { clearRefusalNote, noteRefusal, refusalLog, refusalOf } from './refusal';
import type { WebviewMessage } from './webview-messages';
import { ReusablePanel } from './webview-panel';

interface LastRun {
  ref: HookRef;
  /** "Run all hooks in this file": re-run runs the whole file again. */
  allOf?: string;
  payloadFile?: string;
  /** The payload file was written from the catalogue for this run (opened beside the panel once). */
  created?: boolean;
  payload?: unknown;
  result?: RunResult;
  /** Why the last run was refused (what the panel shows instead of a result). */
  refusal?: Refusal;
}

export class RunHookRunner {
  private readonly runners: RunnerService;
  private last: LastRun | undefined;
  private readonly crashMarks: CrashMarks;
  private readonly loadMarks = new LoadErrorMarks();
  readonly panel: ReusablePanel;

  constructor(private readonly ctx: HooksmithContext) {
    this.runners = sharedRunner(ctx);
    this.crashMarks = new CrashMarks(ctx.extension);
    ctx.push(this.crashMarks, this.loadMarks);
    this.panel = new ReusablePanel('hooksmith.runResult', async (m) => void (await this.onPanelMessage(m)));
  }

  /** A message from the panel (or a test): re-run, open the payload, pick a saved one, set a field. */
  async onPanelMessage(m: WebviewMessage): Promise<RunResult | RunResult[] | undefined> {
    const last = this.last;
    if (m.type === 'rerun' && last?.allOf)
      return vscode.commands.executeCommand(RUN_ALL_COMMAND, { file: last.allOf });
    if (m.type === 'rerun') return vscode.commands.executeCommand('hooksmith.rerunLastHook');
    if ((m.type === 'openPayload' || m.type === 'editPayload') && last?.payloadFile)
      await openPayloadBeside(last.payloadFile, false);
    if (m.type === 'pickPayload' && last && !last.allOf) return this.pickPayload(last, m.file);
    if (m.type === 'editField' && last?.payloadFile && !last.allOf) {
      const edit = setPayloadField(last.payloadFile, m.key, m.value, last.ref.point);
      if (!edit.ok) {
        void vscode.window.showWarningMessage(`Hooksmith: ${edit.message}.`);
        return undefined;
      }
      if (edit.copiedFrom)
        void vscode.window.showInformationMessage(
          `Hooksmith: ${path.basename(edit.copiedFrom)} is a test case (it has expect), so it was left as it is: the edit went to a new sample, ${path.basename(edit.written)}.`,
        );
      return this.execute({ ref: last.ref, payloadFile: edit.written });
    }
    return undefined;
  }

  private async pickPayload(last: LastRun, picked: string): Promise<RunResult | undefined> {
    const file = path.resolve(picked);
    // Only a payload the panel offered: the page shows hook output, never trust a path from it.
    if (!savedPayloads(last.ref).includes(file)) return undefined;
    const shown = vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === last.payloadFile);
    const result = await this.execute({ ref: last.ref, payloadFile: file });
    // The payload open beside the panel follows the pick.
    if (shown) await openPayloadBeside(file);
    return result;
  }

  /** `debugging`: a debug run's runner (client/debug), used once; else the shared warm one. */
  private async execute(run: LastRun, debugging?: HookRunner): Promise<RunResult | undefined> {
    const runner = debugging ?? (await this.runners.get(vscode.Uri.file(run.ref.file)));
    if (!runner) return undefined;
    let payload = run.payload;
    if (run.payloadFile) {
      // Re-read every time: the user edits the sample between runs.
      const loaded = loadPayload(run.payloadFile);
      if (!loaded) return undefined;
      payload = loaded.payload;
    }
    this.last = run;
    this.crashMarks.clear();
    const t0 = Date.now();
    try {
      const result = await withDelayedProgress(
        `Hooksmith: running ${run.ref.handler}…`,
        runner.run({ file: run.ref.file, handler: run.ref.handler, payload }),
      );
      this.ctx.log.info(
        'run',
        `${run.ref.handler} (${result.point}/${result.lane}) → ${result.outcome} in ${result.durationMs} ms (${Date.now() - t0} ms with the host)`,
      );
      await this.showResult(run, result, payload);
      return result;
    } catch (err) {
      if (!(err instanceof RunInputError)) throw err;
      this.showRefusal(run, err);
      return undefined;
    }
  }

  private async showResult(run: LastRun, result: RunResult, payload: unknown): Promise<void> {
    run.result = result;
    run.refusal = undefined;
    clearRefusalNote();
    this.loadMarks.clear(run.ref.file);
    this.crashMarks.add(result, agentRootOf(run.ref.file));
    const bar = run.payloadFile ? payloadBarFor(run.ref, run.payloadFile, payload, !!run.created) : undefined;
    this.panel.show(`Run: ${run.ref.handler}`, (sec) =>
      renderRunResultHtml(result, { ...sec, payloadFile: run.payloadFile, payloadBar: bar }),
    );
    // A payload just written from the catalogue opens beside the panel, to be edited.
    if (run.created && run.payloadFile) await openPayloadBeside(run.payloadFile);
    run.created = false;
  }

  /** The refusal replaces the previous result in the panel: nothing stale looks like this run. */
  private showRefusal(run: LastRun, err: RunInputError): void {
    const refusal = refusalOf(err, run.ref.handler, run.payloadFile ? ['rerun', 'openPayload'] : ['rerun']);
    this.ctx.log.warn('run', refusalLog(refusal));
    run.result = undefined;
    run.refusal = refusal;
    if (refusal.loadError) this.loadMarks.set(run.ref.file, refusal.loadError);
    this.panel.show(`Run: ${run.ref.handler}`, (sec) => renderRefusalHtml(refusal, sec));
    noteRefusal(run.ref.handler, refusal);
  }

  /** Run Hook / Debug Hook: the hook named (else picked) with the payload given (else chosen). */
  async runHook(raw: unknown, debug: boolean): Promise<RunResult | undefined> {
    if (!ensureTrusted()) return undefined;
    const args = asArgs(raw);
    // The hook is found by its decorator, as the selected Mantle API line spells it.
    await this.runners.selectLine(args.file ? vscode.Uri.file(args.file) : undefined);
    let ref: HookRef | undefined;
    if (args.file && args.handler) {
      ref = await findHook(args.file, args.handler, this.ctx.hooks.current);
      if (!ref) {
        void vscode.window.showErrorMessage(`Hooksmith: no hook named ${args.handler} in ${args.file}.`);
        return undefined;
      }
    } else ref = await pickHook(this.ctx);
    if (!ref) return undefined;
    const chosen =
      'payload' in args
        ? undefined
        : args.payloadFile
          ? { file: path.resolve(args.payloadFile), created: false }
          : await choosePayloadFile(this.ctx, agentRootOf(ref.file), ref.point);
    if (!('payload' in args) && !chosen) return undefined;
    const run: LastRun = chosen
      ? { ref, payloadFile: chosen.file, created: chosen.created }
      : { ref, payload: args.payload };
    const hook = ref;
    if (!debug) return this.execute(run);
    return debugRun(this.ctx, hook.handler, vscode.Uri.file(hook.file), (runner) =>
      this.execute(run, runner),
    );
  }

  async rerunLast(): Promise<RunResult | undefined> {
    if (!ensureTrusted()) return undefined;
    const last = this.last;
    if (!last) {
      void vscode.window.showInformationMessage(
        'Hooksmith: no hook has run yet. Use "Run Hook Against Sample Payload" first.',
      );
      return undefined;
    }
    return this.execute({ ref: last.ref, payloadFile: last.payloadFile, payload: last.payload });
  }

  /** Run All in File: each hook with its point's first sample; one refusal for a module that cannot run. */
  async runAll(raw: unknown): Promise<RunResult[] | undefined> {
    if (!ensureTrusted()) return undefined;
    const file =
      raw instanceof vscode.Uri
        ? raw.fsPath
        : (asArgs(raw).file ?? vscode.window.activeTextEditor?.document.uri.fsPath);
    if (!file) return undefined;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file && d.isDirty);
    if (doc) await doc.save();
    await this.runners.selectLine(vscode.Uri.file(file));
    const hooks = await hooksInFile(file, this.ctx.hooks.current);
    if (!hooks.length) {
      void vscode.window.showInformationMessage(`Hooksmith: no hooks in ${path.basename(file)}.`);
      return undefined;
    }
    const runner = await this.runners.get(vscode.Uri.file(file));
    if (!runner) return undefined;
    this.crashMarks.clear();
    const title = `Run all: ${path.basename(file)}`;
    const rows = await this.runEach(file, hooks, runner, title);
    if (!rows) return undefined;
    this.last = { ref: hooks[0]!, allOf: file };
    clearRefusalNote();
    this.loadMarks.clear(file);
    this.panel.show(title, (sec) => renderRunAllHtml(title, rows, sec));
    return rows.map((r) => r.result);
  }

  /** The rows of Run All; undefined when a payload cannot be read or the module refuses to run. */
  private async runEach(
    file: string,
    hooks: HookRef[],
    runner: HookRunner,
    title: string,
  ): Promise<RunAllRow[] | undefined> {
    const root = agentRootOf(file);
    const rows: RunAllRow[] = [];
    for (const ref of hooks) {
      const payloadFile = listSamples(root, ref.point)[0] ?? createSampleFile(root, ref.point);
      const loaded = loadPayload(payloadFile);
      if (!loaded) return undefined;
      try {
        const result = await withDelayedProgress(
          `Hooksmith: running ${ref.handler}…`,
          runner.run({ file: ref.file, handler: ref.handler, payload: loaded.payload }),
        );
        this.ctx.log.info(
          'run',
          `${ref.handler} (${result.point}/${result.lane}) → ${result.outcome} in ${result.durationMs} ms`,
        );
        this.crashMarks.add(result, root);
        rows.push({ result, line: (this.ctx.hooks.current ? defLine(this.ctx, ref) : 0) + 1 });
      } catch (err) {
        if (!(err instanceof RunInputError)) throw err;
        // The module cannot run at all (errors, a load failure): one refusal for the file.
        const refusal = refusalOf(err, path.basename(file), ['rerun']);
        this.last = { ref, allOf: file, refusal };
        if (refusal.loadError) this.loadMarks.set(file, refusal.loadError);
        this.panel.show(title, (sec) => renderRefusalHtml(refusal, sec));
        noteRefusal(path.basename(file), refusal);
        return undefined;
      }
    }
    return rows;
  }

  /** For tests: the crash marks in the gutter ({file, line} of the last run's crash). */
  crashes(): ReturnType<CrashMarks['current']> {
    return this.crashMarks.current();
  }

  /** For tests: the last run (hook, payload file, result). */
  lastRun() {
    const last = this.last;
    return last
      ? {
          file: last.ref.file,
          handler: last.ref.handler,
          payloadFile: last.payloadFile,
          result: last.result,
          refusal: last.refusal,
        }
      : undefined;
  }
}
