// textDocument/hover: a case file's keys, or a hook module's decorators, payloads and fields, read
// once the version the client sees is analysed.
import type { Hover, HoverParams } from 'vscode-languageserver/node';
import { caseHover } from '../../features/case-language';
import { forClient } from '../../features/client-text';
import { hover as hoverOf } from '../../features/hover';
import type { Session } from '../../session';

export async function hover(s: Session, p: HoverParams): Promise<Hover | null> {
  const view = s.cases.view(p.textDocument.uri);
  if (view) return caseHover(view, p.position);
  await s.snapshot(p.textDocument.uri);
  return forClient.hover(s.client, hoverOf(s.analyser, p, await s.wiring(p.textDocument.uri)));
}
