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

type FuzzRunner = Parameters<typeof fuzzHook>[0];

/** The fuzz panel and the run it shows: renders the report, saves its smallest failure as a payload case. */
class FuzzPanel {
  /** For tests: the last report, set once the run is done (before any question to the user). */
  lastReport: FuzzReport | undefined;
  private last: { arg: FuzzArgs; report: FuzzReport; savedCase?: string } | undefined;
  readonly panel = new ReusablePanel('hooksmith.fuzzResult', async (m) => void (await this.onMessage(m)));

  constructor(private readonly caseSaved: (file: string) => void) {}

  /** A finished run becomes the one the panel shows. */
  record(arg: FuzzArgs, report: FuzzReport): void {
    this.lastReport = report;
    this.last = { arg, report };
  }

  show(): void {
    if (!this.last) return;
    const { report, savedCase } = this.last;
    const shown = savedCase ? vscode.workspace.asRelativePath(savedCase) : undefined;
    this.panel.show(`Fuzz: ${this.last.arg.handler}`, (sec) =>
      renderFuzzHtml(report, { ...sec, savedCase: shown }),
    );
  }

  /** Whether this report's case was saved already (the panel's button may have saved it). */
  savedAlready(report: FuzzReport): boolean {
    return this.last?.report === report && this.last.savedCase !== undefined;
  }

  /** Writes the shrunk payload as a payload case; returns its path. */
  save(arg: FuzzArgs, report: FuzzReport): string {
    const root = findAgentRoot(path.resolve(arg.file), nodeFs) ?? path.dirname(arg.file);
    const name = `fuzz-${arg.handler.replace(/\W+/g, '_')}`;
    const out = saveFuzzCase(root, name, payloadCaseText(report, root, arg.file, arg.handler));
    this.caseSaved(out);
    if (this.last?.report === report) {
      this.last.savedCase = out;
      this.show();
    }
    return out;
  }

  async onMessage(m: WebviewMessage): Promise<unknown> {
    const last = this.last;
    if (!last) return undefined;
    if (m.type === 'rerun')
      return vscode.commands.executeCommand(FUZZ_COMMAND, { ...last.arg, seed: undefined });
    if (m.type === 'saveFuzzCase' && last.report.smallest && !last.savedCase) {
      const out = this.save(last.arg, last.report);
      await vscode.window.showTextDocument(vscode.Uri.file(out), {
        viewColumn: vscode.ViewColumn.One,
        preview: false,
      });
      return out;
    }
    return undefined;
  }
}

/** The report of one fuzz run under a progress notification; undefined (said) when the hook cannot run. */
async function fuzzWithProgress(runner: FuzzRunner, target: FuzzArgs): Promise<FuzzReport | undefined> {
  try {
    return await vscode.window.withProgress(
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
}

/** Says how the run went; a failure is offered as a payload case (saved at once with `save: true`). */
async function tellOutcome(fuzz: FuzzPanel, target: FuzzArgs, report: FuzzReport): Promise<void> {
  if (!report.smallest) {
    void vscode.window.showInformationMessage(
      `Hooksmith: ${target.handler} handled ${report.runs} payloads (p99 ${report.p99Ms} ms of ${report.budgetMs} ms).`,
    );
    return;
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
  if (choice === saveLabel && !fuzz.savedAlready(report)) {
    const out = fuzz.save(target, report);
    if (target.save !== true) await vscode.window.showTextDocument(vscode.Uri.file(out), { preview: false });
  }
}

/** `caseSaved`: the Testing view lists a saved case at once (file watchers can lag or miss it). */
export function fuzzFeature(ctx: HooksmithContext, caseSaved: (file: string) => void): void {
  const runners = sharedRunner(ctx);
  const output = vscode.window.createOutputChannel('Hooksmith Fuzz');
  ctx.push(output);
  const fuzz = new FuzzPanel(caseSaved);
  ctx.push(fuzz.panel);

  ctx.registerCommand('lastFuzzReport', () => fuzz.lastReport);
  /** For tests: the fuzz panel's HTML, and a message as the panel would post it. */
  ctx.registerCommand('fuzzPanelHtml', () => fuzz.panel.html);
  ctx.registerCommand('fuzzPanelMessage', (raw: unknown) => {
    const m = parseMessage(raw);
    return m ? fuzz.onMessage(m) : undefined;
  });
  ctx.registerCommand(FUZZ_COMMAND, async (raw?: unknown): Promise<FuzzReport | undefined> => {
    const arg = raw as Partial<FuzzArgs> | undefined;
    if (!vscode.workspace.isTrusted || !arg?.file || !arg.handler) return undefined;
    const target: FuzzArgs = { ...arg, file: arg.file, handler: arg.handler };
    const runner = await runners.get(vscode.Uri.file(target.file));
    if (!runner) return undefined;
    const found = await fuzzWithProgress(runner, target);
    if (!found) return undefined;
    // The target as the workspace shows it (the extension host's current directory is elsewhere).
    const report = { ...found, target: `${vscode.workspace.asRelativePath(target.file)}::${target.handler}` };
    fuzz.record(target, report);
    output.clear();
    output.append(formatFuzzText(report));
    fuzz.show();
    await tellOutcome(fuzz, target, report);
    return report;
  });
}

/** The smallest failure as the panel says it: its outcome and what the crash read (#45 item 5). */
export function smallestSaid(f: { outcome: string; overBudget: boolean; error?: string }): string {
  const error = f.error ? `: ${f.error.length > 160 ? `${f.error.slice(0, 159)}…` : f.error}` : '';
  return `${f.outcome}${f.overBudget ? ', over budget' : ''}${error}`;
}
