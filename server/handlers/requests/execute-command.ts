// workspace/executeCommand: the one command the server runs, opening a rule's page (features/rule-page.ts).
import type { ExecuteCommandParams } from 'vscode-languageserver/node';
import { OPEN_RULE_PAGE_COMMAND } from '../../../runtime/lsp/shared';
import { openRulePage } from '../../features/rule-page';
import type { Session } from '../../session';

export async function executeCommand(s: Session, p: ExecuteCommandParams): Promise<null> {
  if (p.command === OPEN_RULE_PAGE_COMMAND) await openRulePage(s.connection, s.client, p.arguments?.[0]);
  return null;
}
