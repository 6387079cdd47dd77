// workspace/didChangeWatchedFiles: files changed on disk are read again; a created or deleted
// hooks.py or hooks/ can turn other files into hook modules or not, so the workspace is rescanned.
import { FileChangeType, type DidChangeWatchedFilesParams } from 'vscode-languageserver/node';
import { errText } from '../../analyser';
import { uriPath } from '../../convert';
import type { Session } from '../../session';

const KIND = {
  [FileChangeType.Created]: 'created',
  [FileChangeType.Deleted]: 'deleted',
  [FileChangeType.Changed]: 'changed',
} as const;

export async function didChangeWatchedFiles(
  s: Session,
  { changes }: DidChangeWatchedFilesParams,
): Promise<void> {
  s.environment.filesChanged();
  let structural = false;
  const keys = new Set<string>();
  for (const c of changes) {
    const file = uriPath(c.uri);
    if (!file) continue;
    const kind = KIND[c.type] ?? 'changed';
    if (kind !== 'changed') structural = true;
    try {
      for (const k of s.analyser.diskChanged(file, kind)) keys.add(k);
    } catch (err) {
      s.log(`[hooksmith] could not read ${file}: ${errText(err)}`); // one bad file never stops the rest
    }
  }
  if (structural) {
    for (const k of s.analyser.rescan()) keys.add(k);
    void s.extraScanner.start(s.extra);
  }
  for (const k of keys) await s.scheduler.runNow(k, 'background');
}
