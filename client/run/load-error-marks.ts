// A diagnostic (source "hooksmith", code "load-error") on the line where a hook module failed to
// load: the innermost frame in the user's code (or a SyntaxError's place), and the import line in
// the hook file when the failure is in a module it imports. Cleared once the module loads again.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoadErrorView } from '../../runtime/ui/load-error-html';
import { loadErrorPlace } from '../../runtime/ui/load-error-html';

export const LOAD_ERROR_CODE = 'load-error';

export class LoadErrorMarks implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('hooksmith-load-errors');
  /** Hook file → the files it marked. */
  private readonly marked = new Map<string, string[]>();

  /** Marks why `hookFile` failed to load (replacing its previous marks). */
  set(hookFile: string, v: LoadErrorView): void {
    this.clear(hookFile);
    const place = loadErrorPlace(v);
    if (!place) return;
    const hook = path.resolve(hookFile);
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const add = (file: string, line: number, column: number, message: string) => {
      const pos = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
      const d = new vscode.Diagnostic(
        // To the end of the line (the editor clamps the end to the line's length).
        new vscode.Range(pos, pos.with({ character: 10_000 })),
        message,
        vscode.DiagnosticSeverity.Error,
      );
      d.source = 'hooksmith';
      d.code = LOAD_ERROR_CODE;
      const key = path.resolve(file);
      byFile.set(key, [...(byFile.get(key) ?? []), d]);
    };
    const what = `${v.type}: ${v.message}`;
    add(
      place.file,
      place.line,
      place.column,
      `${what} — the module fails to load here, so none of its hooks register`,
    );
    if (path.resolve(place.file) !== hook) {
      // The hook file's own frame: the import that pulled the failing module in.
      const own = v.frames.find((f) => path.resolve(f.file) === hook);
      if (own)
        add(
          hook,
          own.line,
          1,
          `importing this fails (${what} at ${path.basename(place.file)}:${place.line})`,
        );
    }
    for (const [file, diags] of byFile) this.collection.set(vscode.Uri.file(file), diags);
    this.marked.set(hook, [...byFile.keys()]);
  }

  /** The module of `hookFile` loaded: its marks go. */
  clear(hookFile: string): void {
    const hook = path.resolve(hookFile);
    for (const file of this.marked.get(hook) ?? []) this.collection.delete(vscode.Uri.file(file));
    this.marked.delete(hook);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
