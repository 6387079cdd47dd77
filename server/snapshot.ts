// One version of one document, as request handlers read it (ruff's DocumentSnapshot): its text and
// the diagnostics computed for that text, taken once the analysis of the version the client last
// sent has run. A result computed from it names its version, so an answer for version 7 is never
// taken for version 8 (code actions check `Session.isCurrent` before answering unversioned clients).
import type { Analyser, ModuleState } from './analyser';
import type { Scheduler } from './scheduler';
import { snapshotOf, type Snapshot } from './features/code-actions';

export interface DocumentSnapshot extends Snapshot {
  /** The module the snapshot was taken of (the analyser replaces it when the file is reopened). */
  readonly state: ModuleState;
}

/**
 * The module with the diagnostics of its current version: a request about a document is about the
 * version the client last sent, so an analysis still pending for it is run first. Undefined for a
 * document that is no hook module, analysed only on save, or still changing after five tries.
 */
export async function settledSnapshot(
  analyser: Analyser,
  scheduler: Scheduler,
  uri: string,
): Promise<DocumentSnapshot | undefined> {
  for (let tries = 0; tries < 5; tries++) {
    const state = analyser.get(uri);
    if (!state) return undefined;
    if (!state.buffer || state.diagnosticsVersion === state.buffer.version)
      return { ...snapshotOf(state, uri), state };
    if (analyser.waitsForSave(state)) return undefined;
    scheduler.cancel(state.key);
    await scheduler.runNow(state.key);
  }
  return undefined;
}
