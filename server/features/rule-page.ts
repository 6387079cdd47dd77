// `workspace/executeCommand` hooksmith.server.openRulePage [code]: the "Show documentation"
// action of clients other than VS Code. The rule's page on the web opens through
// `window/showDocument` where the client has it; otherwise its address is shown to copy.
import { MessageType, ShowMessageNotification, type Connection } from 'vscode-languageserver';
import { ruleDocsUrl } from '../../runtime/rules/diagnostics';
import type { ClientProfile } from '../client-profile';

export async function openRulePage(
  connection: Connection,
  client: ClientProfile,
  code: unknown,
): Promise<void> {
  if (typeof code !== 'string' || !/^[a-z0-9-]+$/.test(code)) {
    throw new Error(`expected a rule code, got ${JSON.stringify(code)}`);
  }
  const uri = ruleDocsUrl(code);
  if (client.showDocument) {
    const r = await connection.window.showDocument({ uri, external: true });
    if (r.success) return;
  }
  void connection.sendNotification(ShowMessageNotification.type, {
    type: MessageType.Info,
    message: `Hooksmith rule ${code}: ${uri}`,
  });
}
