// initialized: file watching is registered where the client allows it dynamically, then the
// workspace is scanned; a hooks request waits for the end of this first scan.
import { DidChangeWatchedFilesNotification } from 'vscode-languageserver/node';
import type { Session } from '../../session';

export async function initialized(s: Session): Promise<void> {
  try {
    if (s.canWatchDynamically) {
      await s.connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/*.py' }, { globPattern: '**/hooks' }],
      });
    }
    await s.scanWorkspace();
  } finally {
    s.firstScanDone();
  }
}
