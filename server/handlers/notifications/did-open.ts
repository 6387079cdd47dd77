// textDocument/didOpen: a case file goes to the case files; a hook module is analysed now, then the
// other modules of its agent (an editor opened on one file learns its agent's duplicate hooks).
import type { DidOpenTextDocumentParams } from 'vscode-languageserver/node';
import type { Session } from '../../session';

export function didOpen(s: Session, { textDocument: d }: DidOpenTextDocumentParams): void {
  s.out.opened(d.uri);
  if (s.cases.handles(d.uri)) {
    s.cases.open(d.uri, d.text, d.version);
    return void s.caseScheduler.runNow(d.uri);
  }
  const state = s.analyser.open(d.uri, d.text, d.version);
  if (s.analyser.savesOnly(state)) s.tellSaveOnly(state);
  // The agent's other modules (an editor on one file, no root) once its classification is known.
  // Opened documents are validated one at a time in the order they were opened, before the background.
  void s.scheduler.runNow(state.key, 'open').then(async () => {
    for (const key of s.analyser.adoptAgentOf(state)) await s.scheduler.runNow(key, 'background');
  });
}
