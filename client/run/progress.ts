// A progress notification only for work that takes more than a moment (a warm run is a few
// milliseconds; the first one starts Python). Cancelling calls `onCancel` (e.g. stop the host).
import * as vscode from 'vscode';

export const PROGRESS_DELAY_MS = 300;

export async function withDelayedProgress<T>(
  title: string,
  work: Promise<T>,
  onCancel?: () => void,
): Promise<T> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  await Promise.race([work.catch(() => undefined), new Promise((r) => setTimeout(r, PROGRESS_DELAY_MS))]);
  if (settled) return work;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: onCancel !== undefined },
    async (_progress, token) => {
      const sub = token.onCancellationRequested(() => onCancel?.());
      try {
        return await work;
      } finally {
        sub.dispose();
      }
    },
  );
}
