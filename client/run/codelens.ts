// CodeLenses above every hook: "▶ Run hook" and "point · lane · 500 ms" (Cayu: "phase · id").
// From the language server's `hooksmith/hooks` answer, so they follow edits. Where Run would be:
// "✖ cannot run: N errors" while the file has errors the engine rejects (the click shows them),
// and "Trust this folder to run hooks" in an untrusted workspace (running executes the user's code).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HooksmithContext } from '../context';

export const RUN_HOOK_COMMAND = 'hooksmith.runHook';
export const RUN_ALL_COMMAND = 'hooksmith.runAllHooksInFile';
export const DEBUG_HOOK_COMMAND = 'hooksmith.debugHook';
export const TRUST_COMMAND = 'workbench.trust.manage';

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
    const errors = blockingErrors(doc.uri);
    const lenses: vscode.CodeLens[] = [];
    for (const agent of this.ctx.hooks.current?.agents ?? []) {
      for (const h of agent.hooks) {
        if (path.resolve(h.file) !== file || h.range.start.line >= doc.lineCount) continue;
        const line = firstDecoratorLine(doc, h.range.start.line);
        const range = new vscode.Range(line, 0, line, 0);
        lenses.push(new vscode.CodeLens(range, runCommand(h, errors)));
        // Debug beside Run, in the same row, when the hook can run.
        if (vscode.workspace.isTrusted && !errors.length)
          lenses.push(new vscode.CodeLens(range, debugCommand(h)));
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
    // Where a file has several hooks and can run: "run all" on the first one.
    const runnable = vscode.workspace.isTrusted && errors.length === 0;
    const hooks = lenses.filter((l) => l.command?.command === RUN_HOOK_COMMAND).length;
    if (runnable && hooks >= 2) {
      const first = lenses[0]!.range;
      lenses.unshift(
        new vscode.CodeLens(first, {
          title: `▶ Run all ${hooks} hooks in this file`,
          command: RUN_ALL_COMMAND,
          arguments: [{ file }],
          tooltip: 'Run every hook of this file against its point’s first saved sample',
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}

function runCommand(
  h: { file: string; handler: string; point: string },
  errors: vscode.Diagnostic[],
): vscode.Command {
  if (!vscode.workspace.isTrusted)
    return {
      title: '$(shield) Trust this folder to run hooks',
      command: TRUST_COMMAND,
      tooltip: 'Restricted mode: running a hook executes your code. Diagnostics work without trust.',
    };
  const args = [{ file: h.file, handler: h.handler }];
  if (errors.length) {
    const n = errors.length;
    const lines = errors.slice(0, 5).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    return {
      title: `✖ cannot run: ${n} error${n === 1 ? '' : 's'}`,
      command: RUN_HOOK_COMMAND,
      arguments: args,
      tooltip: `The engine rejects this module at load time; click to see what blocks it.\n${lines.join('\n')}`,
    };
  }
  return {
    title: '▶ Run hook',
    command: RUN_HOOK_COMMAND,
    arguments: args,
    tooltip: `Run ${h.handler} against a sample ${h.point} payload`,
  };
}

function debugCommand(h: { file: string; handler: string; point: string }): vscode.Command {
  return {
    title: '$(debug-alt) Debug hook',
    command: DEBUG_HOOK_COMMAND,
    arguments: [{ file: h.file, handler: h.handler }],
    tooltip: `Run ${h.handler} under the debugger (debugpy): breakpoints stop it, budgets are not enforced`,
  };
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
