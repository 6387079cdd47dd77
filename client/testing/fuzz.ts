// "Fuzz hook" (a lens of each hook's row, client/run/lens-row.ts: trusted workspace, no error the
// engine rejects) runs `hooksmith fuzz` in the shared warm host, reports the counts and latency
// against the budget, and offers to save the smallest failing payload as a payload case.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findAgentRoot, nodeFs } from '../../runtime/workspace/discovery';
import { RunInputError } from '../../runtime/engine/run-hook';
import { formatFuzzText, fuzzHook, payloadCaseText, type FuzzReport } from '../../runtime/testing/fuzz-run';
import { saveFuzzCase } from '../../runtime/testing/fuzz-save';
import type { HooksmithContext } from '../context';
import { sharedRunner } from '../python/runner-service';
import { FUZZ_COMMAND } from '../run/lens-row';

export { FUZZ_COMMAND };

/** `caseSaved`: the Testing view lists a saved case at once (file watchers can lag or miss it). */
export function fuzzFeature(ctx: HooksmithContext, caseSaved: (file: string) => void): void {
  const runners = sharedRunner(ctx);
  const output = vscode.window.createOutputChannel('Hooksmith Fuzz');
  ctx.push(output);
  // For tests: the last report, set once the run is done (before any question to the user).
  let lastReport: FuzzReport | undefined;
  ctx.registerCommand('lastFuzzReport', () => lastReport);
  ctx.registerCommand(FUZZ_COMMAND, async (raw?: unknown): Promise<FuzzReport | undefined> => {
    const arg = raw as
      { file?: string; handler?: string; runs?: number; seed?: number; save?: boolean } | undefined;
    if (!vscode.workspace.isTrusted || !arg?.file || !arg.handler) return undefined;
    const runner = await runners.get(vscode.Uri.file(arg.file));
    if (!runner) return undefined;
    let report: FuzzReport;
    try {
      report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Hooksmith: fuzzing ${arg.handler}`,
          cancellable: false,
        },
        (progress) =>
          fuzzHook(runner, arg.file!, arg.handler!, {
            runs: arg.runs ?? 200,
            seed: arg.seed ?? Date.now() % 2 ** 31,
            onProgress: (d, n) => {
              if (d % 20 === 0) progress.report({ message: `${d}/${n} payloads`, increment: (20 / n) * 100 });
            },
          }),
      );
    } catch (err) {
      if (!(err instanceof RunInputError)) throw err;
      void vscode.window.showErrorMessage(`Hooksmith: cannot fuzz ${arg.handler}: ${err.message}`);
      return undefined;
    }
    lastReport = report;
    output.clear();
    // The target as the workspace shows it (the extension host's current directory is elsewhere).
    const shown = `${vscode.workspace.asRelativePath(arg.file)}::${arg.handler}`;
    output.append(formatFuzzText({ ...report, target: shown }));
    output.show(true);
    if (!report.smallest) {
      void vscode.window.showInformationMessage(
        `Hooksmith: ${arg.handler} handled ${report.runs} payloads (p99 ${report.p99Ms} ms of ${report.budgetMs} ms).`,
      );
      return report;
    }
    const save = 'Save as payload case';
    const choice =
      arg.save === true
        ? save
        : await vscode.window.showWarningMessage(
            `Hooksmith: ${arg.handler} misbehaved on ${report.failures} of ${report.runs} payloads (smallest: ${report.smallest.outcome}).`,
            save,
          );
    if (choice === save) {
      const root = findAgentRoot(path.resolve(arg.file), nodeFs) ?? path.dirname(arg.file);
      const name = `fuzz-${arg.handler.replace(/\W+/g, '_')}`;
      const out = saveFuzzCase(root, name, payloadCaseText(report, root, arg.file, arg.handler));
      caseSaved(out);
      if (arg.save !== true) await vscode.window.showTextDocument(vscode.Uri.file(out), { preview: false });
    }
    return report;
  });
}
