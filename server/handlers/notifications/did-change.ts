// textDocument/didChange: the edit is applied and the analysis scheduled (debounced); a buffer too
// large to analyse on every edit waits for its save.
import type { DidChangeTextDocumentParams } from 'vscode-languageserver/node';
import type { Session } from '../../session';

export function didChange(
  s: Session,
  { textDocument: d, contentChanges }: DidChangeTextDocumentParams,
): void {
  if (s.cases.handles(d.uri)) {
    s.cases.change(d.uri, contentChanges, d.version);
    return s.caseScheduler.schedule(d.uri);
  }
  const state = s.analyser.change(d.uri, contentChanges, d.version);
  if (!state) return;
  if (!s.analyser.savesOnly(state)) s.scheduler.schedule(state.key);
  else {
    s.scheduler.cancel(state.key);
    s.tellSaveOnly(state);
  }
}
