// textDocument/codeAction: the rules' fixes for one snapshot of the module. Edits carry the version
// where the client takes it; for a client that does not, actions computed while the document moved
// on are computed again on the new version (three tries).
import type { CodeAction, CodeActionParams } from 'vscode-languageserver/node';
import { codeActions } from '../../features/code-actions';
import type { Session } from '../../session';

export async function codeAction(s: Session, p: CodeActionParams): Promise<CodeAction[]> {
  const uri = p.textDocument.uri;
  if (s.cases.handles(uri)) return s.cases.codeActions(p, s.client);
  for (let tries = 0; tries < 3; tries++) {
    const snap = await s.snapshot(uri);
    if (!snap) return [];
    const actions = await codeActions(s.analyser, snap.state, snap, p, s.client);
    if (s.isCurrent(snap) || s.client.documentChanges) return actions;
  }
  return [];
}
