// Messages the result and timeline webviews post back: open a traceback frame, re-run, open a
// file. Everything that arrives is checked: the webview shows hook output, so never trust it.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

export type WebviewMessage =
  | { type: 'open'; file: string; line: number }
  | { type: 'rerun' }
  | { type: 'openPayload' }
  /** The run panel's payload bar: open the payload to edit, re-run with a saved one, set a field. */
  | { type: 'editPayload' }
  | { type: 'pickPayload'; file: string }
  | { type: 'editField'; key: string; value: string | number | boolean }
  | { type: 'openScenario' }
  /** The timeline: record the scenario's model exchanges again (the cassette cannot answer). */
  | { type: 'rerecord' }
  /** The "needs a model" refusal: open the hooksmith.model setting. */
  | { type: 'setModel' }
  /** The fuzz panel: save the shrunk failing payload as a payload case. */
  | { type: 'saveFuzzCase' }
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
  if (m.type === 'pickPayload' && typeof m.file === 'string' && m.file.length < 4096)
    return { type: 'pickPayload', file: m.file };
  if (
    m.type === 'editField' &&
    typeof m.key === 'string' &&
    m.key.length < 1024 &&
    (typeof m.value === 'string' || typeof m.value === 'number' || typeof m.value === 'boolean')
  )
    return { type: 'editField', key: m.key, value: m.value };
  if (
    m.type === 'rerun' ||
    m.type === 'editPayload' ||
    m.type === 'openPayload' ||
    m.type === 'openScenario' ||
    m.type === 'rerecord' ||
    m.type === 'setModel' ||
    m.type === 'saveFuzzCase'
  )
    return { type: m.type };
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
