// textDocument/documentSymbol: a case file's outline, or a hook module's hooks.
import type { DocumentSymbol, DocumentSymbolParams } from 'vscode-languageserver/node';
import { caseSymbols } from '../../features/case-language';
import { documentSymbols } from '../../features/symbols';
import type { Session } from '../../session';

export function documentSymbol(s: Session, p: DocumentSymbolParams): DocumentSymbol[] {
  const view = s.cases.view(p.textDocument.uri);
  return view ? caseSymbols(view) : documentSymbols(s.analyser, p);
}
