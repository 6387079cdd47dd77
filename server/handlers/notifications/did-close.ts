// textDocument/didClose: the buffer is dropped; a hook module on disk is analysed again from its file.
import type { DidCloseTextDocumentParams } from 'vscode-languageserver/node';
import type { Session } from '../../session';

export function didClose(s: Session, { textDocument: d }: DidCloseTextDocumentParams): void {
  s.out.closed(d.uri);
  if (s.cases.handles(d.uri)) {
    s.caseScheduler.cancel(d.uri);
    return s.cases.close(d.uri);
  }
  s.scheduler.cancel(s.analyser.keyOf(d.uri));
  const state = s.analyser.close(d.uri);
  if (state) s.scheduler.schedule(state.key, 'background');
}
