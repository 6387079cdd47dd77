// A run's recorded model exchanges are written by the command that owns the run (CLI simulate and
// test, the editor's Simulate Turn and Testing view), not inside the model step: through the
// atomic writer (workspace/, above models/ in the layer order), after the cassette's path is
// checked (a link out of the agent is refused; the missing folders are made).
import type { SimulationResult } from '../engine/api';
import { CassetteError, checkCassettePath } from '../engine/model-step';
import { writeFileAtomic } from '../workspace/atomic-file';

/**
 * Writes the cassette a simulation recorded (`models.unsaved`), then marks the result `saved`;
 * returns the file written, or undefined when the run recorded nothing. A cassette that cannot be
 * written is a CassetteError, as a malformed one is.
 */
export function saveCassette(result: SimulationResult): string | undefined {
  const models = result.models;
  const pending = models?.unsaved;
  if (!models || !pending) return undefined;
  checkCassettePath(pending.file, true);
  try {
    writeFileAtomic(pending.file, pending.text);
  } catch (err) {
    throw new CassetteError(`cannot write ${pending.file}: ${(err as Error).message}`);
  }
  delete models.unsaved;
  models.saved = true;
  return pending.file;
}
