// CodeLenses above every hook: "▶ Run hook" and "point · lane · 500 ms" (Cayu: "phase · id").
// From the language server's `hooksmith/hooks` answer, so they follow edits; none when the
// workspace is untrusted (running executes the user's code).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HooksmithContext } from '../context';

export const RUN_HOOK_COMMAND = 'hooksmith.runHook';

export class HookCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly ctx: HooksmithContext) {
    this.subscriptions = [
      this.emitter,
      ctx.hooks.onDidChange(() => this.emitter.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.emitter.fire()),
    ];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!vscode.workspace.isTrusted) return [];
    const file = path.resolve(doc.uri.fsPath);
    const lenses: vscode.CodeLens[] = [];
    for (const agent of this.ctx.hooks.current?.agents ?? []) {
      for (const h of agent.hooks) {
        if (path.resolve(h.file) !== file || h.range.start.line >= doc.lineCount) continue;
        const line = firstDecoratorLine(doc, h.range.start.line);
        const range = new vscode.Range(line, 0, line, 0);
        lenses.push(
          new vscode.CodeLens(range, {
            title: '▶ Run hook',
            command: RUN_HOOK_COMMAND,
            arguments: [{ file: h.file, handler: h.handler }],
            tooltip: `Run ${h.handler} against a sample ${h.point} payload`,
          }),
        );
        const facts =
          h.engine === 'cayu'
            ? `phase · ${h.point}`
            : `${h.point} · ${h.lane}${h.timeoutMs !== undefined ? ` · ${h.timeoutMs} ms` : ''}${h.wired ? '' : ' · not wired'}`;
        lenses.push(
          new vscode.CodeLens(range, {
            title: facts,
            command: '',
            tooltip: h.wired
              ? 'Insertion point, lane and timeout budget'
              : 'The engine does not invoke this point today',
          }),
        );
      }
    }
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
