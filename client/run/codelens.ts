// CodeLenses above every hook, one row per hook (lens-row.ts says which and in what order).
// From the language server's `hooksmith/hooks` answer, so they follow edits, the file's errors
// and workspace trust.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HooksmithContext } from '../context';
import { hookLensRow, runAllLens, type FileLensState } from './lens-row';

export { DEBUG_HOOK_COMMAND, RUN_ALL_COMMAND, RUN_HOOK_COMMAND, TRUST_COMMAND } from './lens-row';

/** Hooksmith's error diagnostics of a document: the engine refuses a module that has any. */
export function blockingErrors(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === 'hooksmith' && d.severity === vscode.DiagnosticSeverity.Error);
}

export class HookCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly ctx: HooksmithContext) {
    this.subscriptions = [
      this.emitter,
      ctx.hooks.onDidChange(() => this.emitter.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.emitter.fire()),
      // The run lens follows the file's errors.
      vscode.languages.onDidChangeDiagnostics(() => this.emitter.fire()),
    ];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const file = path.resolve(doc.uri.fsPath);
    const state: FileLensState = {
      trusted: vscode.workspace.isTrusted,
      errors: blockingErrors(doc.uri).map((d) => `line ${d.range.start.line + 1}: ${d.message}`),
    };
    const lenses: vscode.CodeLens[] = [];
    let hooks = 0;
    for (const agent of this.ctx.hooks.current?.agents ?? []) {
      for (const h of agent.hooks) {
        if (path.resolve(h.file) !== file || h.range.start.line >= doc.lineCount) continue;
        hooks++;
        const line = firstDecoratorLine(doc, h.range.start.line);
        const range = new vscode.Range(line, 0, line, 0);
        for (const spec of hookLensRow(h, state)) lenses.push(new vscode.CodeLens(range, spec));
      }
    }
    const all = runAllLens(file, hooks, state);
    if (all && lenses[0]) lenses.unshift(new vscode.CodeLens(lenses[0].range, all));
    return lenses;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}

/** The lens goes above the decorators of the `def`, not between them and it. */
export function firstDecoratorLine(doc: vscode.TextDocument, defLine: number): number {
  let line = defLine;
  while (
    line > 0 &&
    doc
      .lineAt(line - 1)
      .text.trimStart()
      .startsWith('@')
  )
    line--;
  return line;
}
