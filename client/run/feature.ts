// "Run Hook Against Sample Payload": from a CodeLens, the palette (a hook of the active file or
// agent) or the explorer (`{file, handler}`); runs it in the shared warm host and shows the
// result panel. The command returns the RunResult (e2e tests read it).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunResult } from '../../runtime/engine/api';
import { RunInputError } from '../../runtime/engine/run-hook';
import { renderRefusalHtml, type Refusal } from '../../runtime/ui/refusal-html';
import { renderRunResultHtml } from '../../runtime/ui/result-html';
import { agentRootOf } from '../../runtime/ui/payload-files';
import type { HooksmithContext } from '../context';
import { sharedRunner } from '../python/runner-service';
import { ensureTrusted } from '../trust/trust';
import { DEBUG_HOOK_COMMAND, HookCodeLensProvider, RUN_ALL_COMMAND } from './codelens';
import { debugRun } from '../debug/debug-run';
import type { HookRunner } from '../../runtime/engine/runner';
import { allHooks, findHook, hooksInFile, type HookRef } from './hook-target';
import { choosePayloadFile, loadPayload } from './payload-choice';
import { withDelayedProgress } from './progress';
import { clearRefusalNote, noteRefusal, refusalLog, refusalOf } from './refusal';
import { CrashMarks } from './crash-marks';
import { LoadErrorMarks } from './load-error-marks';
import { renderRunAllHtml, type RunAllRow } from '../../runtime/ui/run-all-html';
import { createSampleFile, listSamples } from '../../runtime/ui/payload-files';
import { ReusablePanel } from './webview-panel';
import { openAt, parseMessage, type WebviewMessage } from './webview-messages';
import { openPayloadBeside, payloadBarFor, savedPayloads, setPayloadField } from './payload-panel';

/** `hooksmith.runHook` arguments: all optional; without `file`/`handler` a quick pick asks. */
export interface RunHookArgs {
  file?: string;
  handler?: string;
  /** A payload file to use (skips the sample choice). */
  payloadFile?: string;
  /** A payload value to use as is (tests). */
  payload?: unknown;
}

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

/** The 0-based line of a hook's definition, from the server's list. */
function defLine(ctx: HooksmithContext, ref: HookRef): number {
  const entry = ctx.hooks.current?.agents
    .flatMap((a) => a.hooks)
    .find((h) => path.resolve(h.file) === path.resolve(ref.file) && h.handler === ref.handler);
  return entry?.range.start.line ?? 0;
}

function asArgs(raw: unknown): RunHookArgs {
  if (typeof raw !== 'object' || raw === null || raw instanceof vscode.Uri) return {};
  const a = raw as Record<string, unknown>;
  return {
    file: typeof a.file === 'string' ? a.file : undefined,
    handler: typeof a.handler === 'string' ? a.handler : undefined,
    payloadFile: typeof a.payloadFile === 'string' ? a.payloadFile : undefined,
    ...('payload' in a ? { payload: a.payload } : {}),
  };
}

async function pickHook(ctx: HooksmithContext): Promise<HookRef | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  let hooks: HookRef[] = [];
  if (active?.uri.scheme === 'file' && active.languageId === 'python') {
    hooks = await hooksInFile(active.uri.fsPath, ctx.hooks.current);
    if (!hooks.length) hooks = allHooks(ctx.hooks.current, agentRootOf(active.uri.fsPath));
  }
  if (!hooks.length) hooks = allHooks(ctx.hooks.current);
  if (!hooks.length) {
    void vscode.window.showInformationMessage(
      'Hooksmith: no hooks found in this file or workspace. Open a hooks.py (or a RuntimeHook class) first.',
    );
    return undefined;
  }
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const pick = await vscode.window.showQuickPick(
    hooks.map((h) => ({
      label: h.handler,
      description: `${h.pointName ?? h.point} · ${h.lane}${h.timeoutMs !== undefined && h.engine === 'mantle' ? ` · ${h.timeoutMs} ms` : ''}`,
      detail: root ? path.relative(root, h.file) : h.file,
      hook: h,
    })),
    {
      title: 'Run Hook Against Sample Payload',
      placeHolder: 'Which hook?',
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  return pick?.hook;
}

export function runFeature(ctx: HooksmithContext): void {
  const runners = sharedRunner(ctx);
  let last: LastRun | undefined;

  const crashMarks = new CrashMarks(ctx.extension);
  const loadMarks = new LoadErrorMarks();
  ctx.push(crashMarks, loadMarks);
  /** A message from the panel (or a test): re-run, open the payload, pick a saved one, set a field. */
  async function onPanelMessage(m: WebviewMessage): Promise<RunResult | RunResult[] | undefined> {
    if (m.type === 'rerun' && last?.allOf)
      return vscode.commands.executeCommand(RUN_ALL_COMMAND, { file: last.allOf });
    if (m.type === 'rerun') return vscode.commands.executeCommand('hooksmith.rerunLastHook');
    if ((m.type === 'openPayload' || m.type === 'editPayload') && last?.payloadFile)
      await openPayloadBeside(last.payloadFile, false);
    if (m.type === 'pickPayload' && last && !last.allOf) {
      const file = path.resolve(m.file);
      // Only a payload the panel offered: the page shows hook output, never trust a path from it.
      if (!savedPayloads(last.ref).includes(file)) return undefined;
      const shown = vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === last?.payloadFile);
      const result = await execute({ ref: last.ref, payloadFile: file });
      // The payload open beside the panel follows the pick.
      if (shown) await openPayloadBeside(file);
      return result;
    }
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
      return execute({ ref: last.ref, payloadFile: edit.written });
    }
    return undefined;
  }
  const panel = new ReusablePanel('hooksmith.runResult', async (m) => void (await onPanelMessage(m)));
  const lenses = new HookCodeLensProvider(ctx);
  ctx.push(
    panel,
    lenses,
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, lenses),
  );

  /** `debugging`: a debug run's runner (client/debug), used once; else the shared warm one. */
  async function execute(run: LastRun, debugging?: HookRunner): Promise<RunResult | undefined> {
    const runner = debugging ?? (await runners.get(vscode.Uri.file(run.ref.file)));
    if (!runner) return undefined;
    let payload = run.payload;
    if (run.payloadFile) {
      // Re-read every time: the user edits the sample between runs.
      const loaded = loadPayload(run.payloadFile);
      if (!loaded) return undefined;
      payload = loaded.payload;
    }
    last = run;
    crashMarks.clear();
    const t0 = Date.now();
    try {
      const result = await withDelayedProgress(
        `Hooksmith: running ${run.ref.handler}…`,
        runner.run({ file: run.ref.file, handler: run.ref.handler, payload }),
      );
      ctx.log.info(
        'run',
        `${run.ref.handler} (${result.point}/${result.lane}) → ${result.outcome} in ${result.durationMs} ms (${Date.now() - t0} ms with the host)`,
      );
      run.result = result;
      run.refusal = undefined;
      clearRefusalNote();
      loadMarks.clear(run.ref.file);
      crashMarks.add(result, agentRootOf(run.ref.file));
      const bar = run.payloadFile
        ? payloadBarFor(run.ref, run.payloadFile, payload, !!run.created)
        : undefined;
      panel.show(`Run: ${run.ref.handler}`, (sec) =>
        renderRunResultHtml(result, { ...sec, payloadFile: run.payloadFile, payloadBar: bar }),
      );
      // A payload just written from the catalogue opens beside the panel, to be edited.
      if (run.created && run.payloadFile) await openPayloadBeside(run.payloadFile);
      run.created = false;
      return result;
    } catch (err) {
      if (!(err instanceof RunInputError)) throw err;
      // The refusal replaces the previous result in the panel: nothing stale looks like this run.
      const refusal = refusalOf(err, run.ref.handler, run.payloadFile ? ['rerun', 'openPayload'] : ['rerun']);
      ctx.log.warn('run', refusalLog(refusal));
      run.result = undefined;
      run.refusal = refusal;
      if (refusal.loadError) loadMarks.set(run.ref.file, refusal.loadError);
      panel.show(`Run: ${run.ref.handler}`, (sec) => renderRefusalHtml(refusal, sec));
      noteRefusal(run.ref.handler, refusal);
      return undefined;
    }
  }

  const runOrDebug =
    (debug: boolean) =>
    async (raw?: unknown): Promise<RunResult | undefined> => {
      if (!ensureTrusted()) return undefined;
      const args = asArgs(raw);
      // The hook is found by its decorator, as the selected Mantle API line spells it.
      await runners.selectLine(args.file ? vscode.Uri.file(args.file) : undefined);
      let ref: HookRef | undefined;
      if (args.file && args.handler) {
        ref = await findHook(args.file, args.handler, ctx.hooks.current);
        if (!ref) {
          void vscode.window.showErrorMessage(`Hooksmith: no hook named ${args.handler} in ${args.file}.`);
          return undefined;
        }
      } else ref = await pickHook(ctx);
      if (!ref) return undefined;
      const chosen =
        'payload' in args
          ? undefined
          : args.payloadFile
            ? { file: path.resolve(args.payloadFile), created: false }
            : await choosePayloadFile(ctx, agentRootOf(ref.file), ref.point);
      if (!('payload' in args) && !chosen) return undefined;
      const run: LastRun = chosen
        ? { ref, payloadFile: chosen.file, created: chosen.created }
        : { ref, payload: args.payload };
      const hook = ref;
      if (!debug) return execute(run);
      return debugRun(ctx, hook.handler, vscode.Uri.file(hook.file), (runner) => execute(run, runner));
    };
  ctx.registerCommand('runHook', runOrDebug(false));
  ctx.registerCommand(DEBUG_HOOK_COMMAND, runOrDebug(true));

  ctx.registerCommand('rerunLastHook', async (): Promise<RunResult | undefined> => {
    if (!ensureTrusted()) return undefined;
    if (!last) {
      void vscode.window.showInformationMessage(
        'Hooksmith: no hook has run yet. Use "Run Hook Against Sample Payload" first.',
      );
      return undefined;
    }
    return execute({ ref: last.ref, payloadFile: last.payloadFile, payload: last.payload });
  });

  ctx.registerCommand(RUN_ALL_COMMAND, async (raw?: unknown): Promise<RunResult[] | undefined> => {
    if (!ensureTrusted()) return undefined;
    const file =
      raw instanceof vscode.Uri
        ? raw.fsPath
        : (asArgs(raw).file ?? vscode.window.activeTextEditor?.document.uri.fsPath);
    if (!file) return undefined;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file && d.isDirty);
    if (doc) await doc.save();
    await runners.selectLine(vscode.Uri.file(file));
    const hooks = await hooksInFile(file, ctx.hooks.current);
    if (!hooks.length) {
      void vscode.window.showInformationMessage(`Hooksmith: no hooks in ${path.basename(file)}.`);
      return undefined;
    }
    const runner = await runners.get(vscode.Uri.file(file));
    if (!runner) return undefined;
    crashMarks.clear();
    const root = agentRootOf(file);
    const rows: RunAllRow[] = [];
    const title = `Run all: ${path.basename(file)}`;
    for (const ref of hooks) {
      const payloadFile = listSamples(root, ref.point)[0] ?? createSampleFile(root, ref.point);
      const loaded = loadPayload(payloadFile);
      if (!loaded) return undefined;
      try {
        const result = await withDelayedProgress(
          `Hooksmith: running ${ref.handler}…`,
          runner.run({ file: ref.file, handler: ref.handler, payload: loaded.payload }),
        );
        ctx.log.info(
          'run',
          `${ref.handler} (${result.point}/${result.lane}) → ${result.outcome} in ${result.durationMs} ms`,
        );
        crashMarks.add(result, root);
        rows.push({ result, line: (ctx.hooks.current ? defLine(ctx, ref) : 0) + 1 });
      } catch (err) {
        if (!(err instanceof RunInputError)) throw err;
        // The module cannot run at all (errors, a load failure): one refusal for the file.
        const refusal = refusalOf(err, path.basename(file), ['rerun']);
        last = { ref, allOf: file, refusal };
        if (refusal.loadError) loadMarks.set(file, refusal.loadError);
        panel.show(title, (sec) => renderRefusalHtml(refusal, sec));
        noteRefusal(path.basename(file), refusal);
        return undefined;
      }
    }
    last = { ref: hooks[0]!, allOf: file };
    clearRefusalNote();
    loadMarks.clear(file);
    panel.show(title, (sec) => renderRunAllHtml(title, rows, sec));
    return rows.map((r) => r.result);
  });

  /** For tests: the run panel's HTML, and a message as the panel would post it (returns the re-run). */
  ctx.registerCommand('runPanelHtml', () => panel.html);
  ctx.registerCommand('runPanelMessage', (raw: unknown) => {
    const m = parseMessage(raw);
    if (m?.type === 'open') return openAt(m.file, m.line);
    return m ? onPanelMessage(m) : undefined;
  });

  /** For tests: the crash marks in the gutter ({file, line} of the last run's crash). */
  ctx.registerCommand('crashMarks', () => crashMarks.current());

  /** For tests: the last run (hook, payload file, result). */
  ctx.registerCommand('lastHookRun', () =>
    last
      ? {
          file: last.ref.file,
          handler: last.ref.handler,
          payloadFile: last.payloadFile,
          result: last.result,
          refusal: last.refusal,
        }
      : undefined,
  );
}
