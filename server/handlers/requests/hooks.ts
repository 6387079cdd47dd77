// hooksmith/hooks: every agent's hooks for the explorer and CodeLens, after the first workspace scan
// (never a false "no hooks" while it runs).
import type { HooksParams, HooksResult } from '../../../runtime/lsp/shared';
import { listHooks } from '../../features/hooks-list';
import type { Session } from '../../session';

export async function hooks(s: Session, p: HooksParams | undefined): Promise<HooksResult> {
  await s.firstScan;
  return listHooks(s.analyser, p ?? {}, await s.wiring(undefined));
}
