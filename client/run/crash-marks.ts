// A red gutter mark on the line where the last run crashed (the innermost traceback frame in a
// file of the workspace), as test runners mark a failing assertion. Cleared when the next run
// starts, so a mark always belongs to the latest result.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunResult } from '../../runtime/engine/api';

export interface CrashMark {
  file: string;
  /** 1-based. */
  line: number;
  message: string;
}

export class CrashMarks implements vscode.Disposable {
  private readonly type: vscode.TextEditorDecorationType;
  private marks: CrashMark[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(extension: vscode.ExtensionContext) {
    this.type = vscode.window.createTextEditorDecorationType({
      gutterIconPath: extension.asAbsolutePath('media/crash.svg'),
      gutterIconSize: 'contain',
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
      overviewRulerColor: new vscode.ThemeColor('editorError.foreground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    this.subscription = vscode.window.onDidChangeVisibleTextEditors(() => this.paint());
  }

  /** Forgets every mark (a new run starts). */
  clear(): void {
    this.marks = [];
    this.paint();
  }

  /** Marks where `result` crashed, when it did (the last frame inside `result.file`'s agent, else in the hook file). */
  add(result: RunResult, agentRoot: string): void {
    const frames = result.error?.traceback ?? [];
    if (result.outcome !== 'crashed' || !frames.length) return;
    const inside = (f: string) => !path.relative(agentRoot, f).startsWith('..');
    const frame = [...frames].reverse().find((f) => inside(f.file)) ?? frames[frames.length - 1]!;
    this.marks.push({
      file: path.resolve(frame.file),
      line: frame.line,
      message: `${result.handler} crashed here: ${result.error!.type}: ${result.error!.message}`,
    });
    this.paint();
  }

  current(): readonly CrashMark[] {
    return this.marks;
  }

  private paint(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.scheme !== 'file') continue;
      const file = path.resolve(editor.document.uri.fsPath);
      editor.setDecorations(
        this.type,
        this.marks
          .filter((m) => m.file === file && m.line - 1 < editor.document.lineCount)
          .map((m) => ({
            range: new vscode.Range(m.line - 1, 0, m.line - 1, 0),
            hoverMessage: new vscode.MarkdownString().appendText(m.message),
          })),
      );
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.type.dispose();
  }
}
