// workspace/didChangeWorkspaceFolders: the folders change and are scanned. Routed as a plain
// notification: the library's workspace-folders helper throws when the client lacks support.
import type { DidChangeWorkspaceFoldersParams } from 'vscode-languageserver/node';
import { uriPath } from '../../convert';
import type { Session } from '../../session';

export async function didChangeWorkspaceFolders(
  s: Session,
  { event: { added, removed } }: DidChangeWorkspaceFoldersParams,
): Promise<void> {
  const gone = new Set(removed.map((f) => uriPath(f.uri)));
  s.folders = [
    ...s.folders.filter((f) => !gone.has(f)),
    ...added.map((f) => uriPath(f.uri)).filter((p): p is string => !!p),
  ];
  await s.scanWorkspace();
}
