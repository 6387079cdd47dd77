// The peek after a run with failures. VS Code opens it by itself only as
// `testing.automaticallyOpenPeekView` says, and that setting's default is `never`; so when the user
// has not set it, a run that failed opens the peek of the first failure in a file shown in an
// editor (the message at its line, expected vs actual), as VS Code's `failureInVisibleDocument`
// does: no editor is opened for it. A user who set the setting (to anything) gets VS Code's own
// behaviour only.
import * as vscode from 'vscode';

export const CONTROLLER_ID = 'hooksmith';

/** VS Code's id of a test item in the workbench: the controller's and every ancestor's id, NUL-joined. */
export function workbenchTestId(item: vscode.TestItem): string {
  const ids: string[] = [];
  for (let i: vscode.TestItem | undefined = item; i; i = i.parent) ids.unshift(i.id);
  return [CONTROLLER_ID, ...ids].join('\0');
}

/** True when the user (or the workspace) chose when the peek opens. */
function peekSettingChosen(): boolean {
  const i = vscode.workspace.getConfiguration('testing').inspect('automaticallyOpenPeekView');
  return [i?.globalValue, i?.workspaceValue, i?.workspaceFolderValue].some((v) => v !== undefined);
}

/** Opens the peek of the first failed case shown in an editor; false when none opened. */
export async function peekFirstFailure(failed: readonly vscode.TestItem[]): Promise<boolean> {
  const shown = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
  const first = failed.find((i) => i.uri && shown.has(i.uri.toString()));
  if (!first || peekSettingChosen()) return false;
  const opened = await vscode.commands.executeCommand('vscode.peekTestError', workbenchTestId(first)).then(
    (v) => v === true,
    () => false,
  );
  return opened;
}
