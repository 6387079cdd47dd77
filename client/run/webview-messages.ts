// Messages the result and timeline webviews post back: open a traceback frame, re-run, open a
// file. Everything that arrives is checked: the webview shows hook output, so never trust it.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

export type WebviewMessage =
  | { type: 'open'; file: string; line: number }
  | { type: 'rerun' }
  | { type: 'openPayload' }
  | { type: 'openScenario' }
  /** A timeline hook name: `relative/file.py::handler` under the simulation's agent. */
  | { type: 'openHook'; hook: string };

export function parseMessage(raw: unknown): WebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (
    m.type === 'open' &&
    typeof m.file === 'string' &&
    typeof m.line === 'number' &&
    Number.isInteger(m.line)
  )
    return { type: 'open', file: m.file, line: m.line };
  if (m.type === 'openHook' && typeof m.hook === 'string' && m.hook.length < 4096)
    return { type: 'openHook', hook: m.hook };
  if (m.type === 'rerun' || m.type === 'openPayload' || m.type === 'openScenario') return { type: m.type };
  return undefined;
}

/** Opens `file` at 1-based `line` beside nothing (in the first editor group). */
export async function openAt(file: string, line: number): Promise<void> {
  if (!fs.existsSync(file)) {
    void vscode.window.showWarningMessage(
      `Hooksmith: ${file} is not on disk (a frame inside Python or the host).`,
    );
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const pos = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.window.showTextDocument(doc, {
    viewColumn: vscode.ViewColumn.One,
    selection: new vscode.Range(pos, pos),
    preserveFocus: false,
  });
}
