// The one place that chooses who plays a scenario's Cayu phases: the installed runtime
// (play.ts) or Hooksmith's emulation (simulator.ts). Neither imports the other.
import { RunInputError } from '../run-hook';
import type { Scenario } from '../scenario-schema';
import type { AgentHooks } from '../sim-agent';
import { cayuEngine, emulationPlayedBy, NOT_INSTALLED } from './engine-mode';
import type { SimulationResult } from '../api';
import { emulationOnly } from './scenario-spec';

export type CayuPlayer = { real: true } | { real: false; playedBy?: string };

/** `installed`: the host's interpreter imports the real cayu. */
export function cayuPlayer(hooks: AgentHooks, sc: Scenario, installed: boolean): CayuPlayer {
  if (!hooks.hasCayu) return { real: false };
  const mode = cayuEngine();
  if (mode === 'emulation')
    return { real: false, playedBy: emulationPlayedBy('forced: hooksmith.cayu.engine emulation') };
  if (!installed) {
    if (mode === 'real')
      throw new RunInputError(
        'load',
        'hooksmith.cayu.engine is "real" but cayu is not importable in the selected interpreter (install cayu there, or choose auto)',
      );
    return { real: false, playedBy: emulationPlayedBy(NOT_INSTALLED) };
  }
  const why = emulationOnly(sc, hooks);
  return why ? { real: false, playedBy: emulationPlayedBy(why) } : { real: true };
}

/**
 * The installed runtime's result; `emulate` when that cayu cannot drive a scenario (no runtime API:
 * another layout, a stub) and the mode allows the emulation, which then names why it played.
 */
export async function realOrElse(
  played: SimulationResult | { unavailable: string },
  emulate: (playedBy: string) => Promise<SimulationResult>,
): Promise<SimulationResult> {
  if (!('unavailable' in played)) return played;
  if (cayuEngine() === 'real')
    throw new RunInputError(
      'load',
      `hooksmith.cayu.engine is "real" but the installed cayu cannot drive a scenario: ${played.unavailable}`,
    );
  return emulate(emulationPlayedBy(`the installed cayu cannot drive a scenario: ${played.unavailable}`));
}
