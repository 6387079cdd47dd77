// textDocument/didSave: the moment a buffer analysed on save only is analysed.
import type { DidSaveTextDocumentParams } from 'vscode-languageserver/node';
import type { Session } from '../../session';

export async function didSave(s: Session, { textDocument: d }: DidSaveTextDocumentParams): Promise<void> {
  const state = s.analyser.get(d.uri);
  if (state && s.analyser.savesOnly(state)) await s.scheduler.runNow(state.key);
}
