// textDocument/completion: a case file's keys and values, or a hook module's points, payloads and fields.
import type { CompletionItem, CompletionParams } from 'vscode-languageserver/node';
import { caseCompletions } from '../../features/case-language';
import { forClient } from '../../features/client-text';
import { completions } from '../../features/completion';
import type { Session } from '../../session';

export async function completion(s: Session, p: CompletionParams): Promise<CompletionItem[]> {
  const view = s.cases.view(p.textDocument.uri);
  if (view) return forClient.completions(s.client, caseCompletions(view, p.position, !s.client.vscode));
  return forClient.completions(s.client, completions(s.analyser, p, await s.wiring(p.textDocument.uri)));
}
