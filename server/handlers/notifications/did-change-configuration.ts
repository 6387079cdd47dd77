// workspace/didChangeConfiguration: pushed settings replace the given ones, pulled ones are asked for
// again; the workspace is rescanned (extra agent roots) and every open buffer analysed again.
import type { DidChangeConfigurationParams } from 'vscode-languageserver/node';
import { settingsSection } from '../../settings';
import type { Session } from '../../session';

export async function didChangeConfiguration(s: Session, p: DidChangeConfigurationParams): Promise<void> {
  const pushed = settingsSection(p?.settings);
  if (pushed !== undefined) s.givenSettings = pushed;
  s.settings.clear();
  s.environment.filesChanged();
  await s.scanWorkspace();
  for (const state of s.analyser.all()) if (state.buffer) await s.scheduler.runNow(state.key, 'open');
}
