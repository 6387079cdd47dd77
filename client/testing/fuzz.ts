// "Fuzz hook" (a lens of each hook's row, client/run/lens-row.ts: trusted workspace, no error the
// engine rejects) runs `hooksmith fuzz` in the shared warm host and shows the report in a panel
// (counts, latency against the budget, the failing cases with their payloads), with "Save as
// payload case" for the shrunk smallest one (also offered in a warning).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findAgentRoot, nodeFs } from '../../runtime/workspace/discovery';
import { RunInputError } from '../../runtime/engine/run-hook';
import { formatFuzzText, fuzzHook, payloadCaseText, type FuzzReport } from '../../runtime/testing/fuzz-run';
import { saveFuzzCase } from '../../runtime/testing/fuzz-save';
import type { HooksmithContext } from '../context';
import { sharedRunner } from '../python/runner-service';
import { FUZZ_COMMAND } from '../run/lens-row';
import { ReusablePanel } from '../run/webview-panel';
import { parseMessage, type WebviewMessage } from '../run/webview-messages';
import { renderFuzzHtml } from '../../runtime/ui/fuzz-html';

export { FUZZ_COMMAND };

interface FuzzArgs {
  file: string;
  handler: string;
  runs?: number;
  seed?: number;
  save?: boolean;
}

/** `caseSaved`: the Testing view lists a saved case at once (file watchers can lag or miss it). */
export function fuzzFeature(ctx: HooksmithContext, caseSaved: (file: string) => void): void {
  const runners = sharedRunner(ctx);
  const output = vscode.window.createOutputChannel('Hooksmith Fuzz');
  ctx.push(output);
  // For tests: the last report, set once the run is done (before any question to the user).
  let lastReport: FuzzReport | undefined;
  let last: { arg: FuzzArgs; report: FuzzReport; savedCase?: string } | undefined;

  const show = () => {
    if (!last) return;
    const { report, savedCase } = last;
    const shown = savedCase ? vscode.workspace.asRelativePath(savedCase) : undefined;
    panel.show(`Fuzz: ${last.arg.handler}`, (sec) => renderFuzzHtml(report, { ...sec, savedCase: shown }));
  };
  /** Writes the shrunk payload as a payload case; returns its path. */
  const save = (arg: FuzzArgs, report: FuzzReport): string => {
    const root = findAgentRoot(path.resolve(arg.file), nodeFs) ?? path.dirname(arg.file);
    const name = `fuzz-${arg.handler.replace(/\W+/g, '_')}`;
    const out = saveFuzzCase(root, name, payloadCaseText(report, root, arg.file, arg.handler));
    caseSaved(out);
    if (last?.report === report) {
      last.savedCase = out;
      show();
    }
    return out;
  };
  const onMessage = async (m: WebviewMessage): Promise<unknown> => {
    if (!last) return undefined;
    if (m.type === 'rerun')
      return vscode.commands.executeCommand(FUZZ_COMMAND, { ...last.arg, seed: undefined });
    if (m.type === 'saveFuzzCase' && last.report.smallest && !last.savedCase) {
      const out = save(last.arg, last.report);
      await vscode.window.showTextDocument(vscode.Uri.file(out), {
        viewColumn: vscode.ViewColumn.One,
        preview: false,
      });
      return out;
    }
    return undefined;
  };
  const panel = new ReusablePanel('hooksmith.fuzzResult', async (m) => void (await onMessage(m)));
  ctx.push(panel);

  ctx.registerCommand('lastFuzzReport', () => lastReport);
  /** For tests: the fuzz panel's HTML, and a message as the panel would post it. */
  ctx.registerCommand('fuzzPanelHtml', () => panel.html);
  ctx.registerCommand('fuzzPanelMessage', (raw: unknown) => {
    const m = parseMessage(raw);
    return m ? onMessage(m) : undefined;
  });
  ctx.registerCommand(FUZZ_COMMAND, async (raw?: unknown): Promise<FuzzReport | undefined> => {
    const arg = raw as Partial<FuzzArgs> | undefined;
    if (!vscode.workspace.isTrusted || !arg?.file || !arg.handler) return undefined;
    const target: FuzzArgs = { ...arg, file: arg.file, handler: arg.handler };
    const runner = await runners.get(vscode.Uri.file(target.file));
    if (!runner) return undefined;
    let report: FuzzReport;
    try {
      report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Hooksmith: fuzzing ${target.handler}`,
          cancellable: false,
        },
        (progress) =>
          fuzzHook(runner, target.file, target.handler, {
            runs: target.runs ?? 200,
            seed: target.seed ?? Date.now() % 2 ** 31,
            onProgress: (d, n) => {
              if (d % 20 === 0) progress.report({ message: `${d}/${n} payloads`, increment: (20 / n) * 100 });
            },
          }),
      );
    } catch (err) {
      if (!(err instanceof RunInputError)) throw err;
      void vscode.window.showErrorMessage(`Hooksmith: cannot fuzz ${target.handler}: ${err.message}`);
      return undefined;
    }
    // The target as the workspace shows it (the extension host's current directory is elsewhere).
    report = { ...report, target: `${vscode.workspace.asRelativePath(target.file)}::${target.handler}` };
    lastReport = report;
    last = { arg: target, report };
    output.clear();
    output.append(formatFuzzText(report));
    show();
    if (!report.smallest) {
      void vscode.window.showInformationMessage(
        `Hooksmith: ${target.handler} handled ${report.runs} payloads (p99 ${report.p99Ms} ms of ${report.budgetMs} ms).`,
      );
      return report;
    }
    const saveLabel = 'Save as payload case';
    const choice =
      target.save === true
        ? saveLabel
        : await vscode.window.showWarningMessage(
            `Hooksmith: ${target.handler} misbehaved on ${report.failures} of ${report.runs} payloads (smallest: ${smallestSaid(report.smallest)}).`,
            saveLabel,
          );
    // Not twice: the panel's button may have saved it while the warning was up.
    if (choice === saveLabel && !(last?.report === report && last.savedCase)) {
      const out = save(target, report);
      if (target.save !== true)
        await vscode.window.showTextDocument(vscode.Uri.file(out), { preview: false });
    }
    return report;
  });
}

/** The smallest failure as the panel says it: its outcome and what the crash read (#45 item 5). */
export function smallestSaid(f: { outcome: string; overBudget: boolean; error?: string }): string {
  const error = f.error ? `: ${f.error.length > 160 ? `${f.error.slice(0, 159)}…` : f.error}` : '';
  return `${f.outcome}${f.overBudget ? ', over budget' : ''}${error}`;
}
