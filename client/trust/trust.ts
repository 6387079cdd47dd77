// Workspace Trust: diagnostics work everywhere, but running a hook executes the user's code,
// so run/simulate refuse in an untrusted workspace and say how to trust it.
import * as vscode from 'vscode';

export const UNTRUSTED_MESSAGE = 'Running a hook executes your code: trust this workspace to run it';

/** True when trusted; otherwise tells the user (with "Manage Workspace Trust") and returns false. */
export function ensureTrusted(): boolean {
  if (vscode.workspace.isTrusted) return true;
  const manage = 'Manage Workspace Trust';
  void vscode.window.showWarningMessage(`Hooksmith: ${UNTRUSTED_MESSAGE}.`, manage).then((choice) => {
    if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return false;
}
