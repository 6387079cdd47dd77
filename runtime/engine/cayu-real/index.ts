// The face of real-engine mode for Cayu: the installed `cayu` runtime plays a scenario's Cayu
// phases (play.ts), where it is importable, the mode allows it and the scenario is one the
// runtime can play (scenario-spec.ts emulationOnly). players.ts registers it; nothing else imports
// this folder.
import * as path from 'node:path';
import { activeCayuLine, findCayuLine } from '../../catalogue';
import type { AgentHooks } from '../agent-hooks';
import { RunInputError } from '../run-hook';
import type { RealPlayer } from '../player';
import { emulationPlayedBy, NOT_INSTALLED } from '../engine-mode';
import { playCayuReal } from './play';
import { emulationOnly } from './scenario-spec';

/** Not installed, and the line the emulation follows when the hooks' own imports chose it. */
function notInstalled(hooks: AgentHooks): string {
  const of = hooks.cayuLineOfImports;
  if (!of || activeCayuLine()) return NOT_INSTALLED;
  const title = findCayuLine(of.line)?.title ?? of.line;
  return `${NOT_INSTALLED}; following ${title}, as ${path.relative(hooks.root, of.file)} imports its hook API`;
}

export const cayuRealPlayer: RealPlayer = {
  id: 'cayu-real',
  engine: 'cayu',
  mode: (req) => req.cayuEngine ?? 'auto',
  concerns: (hooks) => hooks.hasCayu,
  emulationPlayedBy,
  async choose(req, installed) {
    const { hooks, scenario } = req;
    const mode = this.mode(req);
    if (mode === 'emulation')
      return { real: false, playedBy: emulationPlayedBy('forced: hooksmith.cayu.engine emulation') };
    if (!(await installed())) {
      if (mode === 'real')
        throw new RunInputError(
          'load',
          'hooksmith.cayu.engine is "real" but cayu is not importable in the selected interpreter (install cayu there, or choose auto)',
        );
      return { real: false, playedBy: emulationPlayedBy(notInstalled(hooks)) };
    }
    const why = emulationOnly(scenario, hooks);
    return why ? { real: false, playedBy: emulationPlayedBy(why) } : { real: true };
  },
  play: ({ host, hooks, scenario, source, safetyStopMs }) =>
    playCayuReal(host, hooks, scenario, source, safetyStopMs),
};
