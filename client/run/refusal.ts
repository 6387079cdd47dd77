// A refused run or simulation (RunInputError, ScenarioError) as the result panel's content:
// workspace-relative paths, each blocking error a link; a brief status-bar note instead of a
// sticky toast (the panel says it all, and a toast would outlive a fixed re-run).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookDiagnostic } from '../../runtime/rules/diagnostics';
import type { RunInputError } from '../../runtime/engine/run-hook';
import type { ScenarioError } from '../../runtime/engine/scenario-load';
import type { Refusal } from '../../runtime/ui/refusal-html';
import { loadErrorView } from '../../runtime/ui/load-error-html';

/** A file of the user's own code: in a workspace folder, not in an installed package. */
export function isUserFile(file: string): boolean {
  return (
    !!vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file)) &&
    !/[\\/](site|dist)-packages[\\/]/.test(file)
  );
}

/** Workspace-relative when inside a folder; the absolute path otherwise (never `../../tmp/…`). */
export function shownPath(file: string): string {
  const rel = vscode.workspace.asRelativePath(file, false);
  return path.isAbsolute(rel) ? file : rel;
}

function problemsOf(diagnostics: readonly HookDiagnostic[]): Refusal['problems'] {
  return diagnostics.map((d) => ({
    file: d.file,
    shown: shownPath(d.file),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    code: d.code,
    severity: d.severity,
    message: d.message,
  }));
}

export function refusalOf(
  err: RunInputError | ScenarioError,
  subject: string,
  actions: Refusal['actions'],
): Refusal {
  const diagnostics = 'diagnostics' in err ? err.diagnostics : [];
  const kind = 'kind' in err ? err.kind : 'scenario';
  const n = diagnostics.length;
  const reason =
    kind === 'check' && n
      ? `The engine would refuse ${n === 1 ? 'this error' : `these ${n} errors`} when it loads the agent (rasa train), so Hooksmith does not run it either.`
      : err.message;
  return {
    subject,
    reason,
    problems: problemsOf(diagnostics),
    // For a check refusal the problems are the details, linked.
    details: n ? [] : err.details,
    ...('loadError' in err && err.loadError
      ? { loadError: loadErrorView(err.loadError, isUserFile, shownPath) }
      : {}),
    actions,
  };
}

/** The refusal for the output channel: the panel's words and paths (never the CLI's `../../tmp/…`). */
export function refusalLog(r: Refusal): string {
  const lines = [
    ...r.problems.map(
      (p) => `${p.shown}:${p.line}:${p.column}: ${p.severity ?? 'error'} ${p.code ?? ''}: ${p.message}`,
    ),
    ...r.details,
  ];
  return `${r.subject}: ${r.reason}${lines.length ? `\n  ${lines.join('\n  ')}` : ''}`;
}

/** The refusal note in the status bar now, if any (one at a time). */
let shownNote: vscode.Disposable | undefined;

/** A short note in the status bar: the panel holds the details. */
export function noteRefusal(subject: string, r: Refusal): void {
  const n = r.problems.length;
  shownNote?.dispose();
  shownNote = vscode.window.setStatusBarMessage(
    `$(error) Hooksmith: ${subject} cannot run${n ? ` (${n} error${n === 1 ? '' : 's'})` : ''}`,
    8000,
  );
}

/** A later run or simulation that did run: an earlier "cannot run" note no longer holds (#45 item 5). */
export function clearRefusalNote(): void {
  shownNote?.dispose();
  shownNote = undefined;
}
