// The one place that chooses who plays a scenario, and who plays each Mantle hook call. A player
// of an installed engine (player.ts RealPlayer) registers in REAL_PLAYERS; the emulation plays
// what none takes. The players never import each other (test/unit/layering.test.ts derives that
// wall from the folders): a player that plays inside Hooksmith's turn loop gets it as PlayRequest.turn.
import type { SimulationResult } from './api';
import { cayuRealPlayer } from './cayu-real';
import { emulationPlayer } from './emulation';
import type { HostPort } from './host-port';
import { mantleRealPlayer } from './mantle-real';
import type { EngineName, Player, PlayRequest, RealPlayer } from './player';
import type { EngineMode } from './engine-mode';
import { RunInputError } from './run-hook';

/**
 * The installed engines' players, asked in this order: the first whose engine has hooks in the
 * agent decides. A new one is added here and nowhere else.
 */
export const REAL_PLAYERS: readonly RealPlayer[] = [cayuRealPlayer, mantleRealPlayer];

/** Every player, the emulation first (the layering test checks each folder is one of these). */
export const PLAYERS: readonly Player[] = [emulationPlayer, ...REAL_PLAYERS];

/** Per engine: whether the host's interpreter imports it (asked only when its player has a say). */
export type InstalledEngines = Partial<Record<EngineName, () => Promise<boolean>>>;

/** A scenario to play, before players.ts gives it Hooksmith's turn loop. */
export type ScenarioRequest = Omit<PlayRequest, 'turn'>;

export interface Chosen {
  player: Player;
  /** The emulation plays instead of an engine's player: the label saying why. */
  playedBy?: string;
}

const notInstalled = async () => false;

/**
 * `host` whose Mantle hook calls the Mantle player routes (rasa-pro's runner where importable and
 * `mode` allows it, else the emulation), each naming who played: `run`, `fuzz` and every scenario.
 */
export function mantleCalls(host: HostPort, installed: InstalledEngines, mode: () => EngineMode): HostPort {
  return mantleRealPlayer.calls(host, installed.mantle ?? notInstalled, mode);
}

export async function choosePlayer(req: PlayRequest, installed: InstalledEngines): Promise<Chosen> {
  const concerned = REAL_PLAYERS.find((p) => p.concerns(req.hooks));
  if (!concerned) return { player: emulationPlayer };
  // Real models drive the turn through the emulation's loop; an engine driving its own turn has no place for them.
  if (req.models && !concerned.turnIsHooksmiths)
    return {
      player: emulationPlayer,
      playedBy: concerned.emulationPlayedBy('a model plays the agent or the user'),
    };
  const choice = await concerned.choose(req, installed[concerned.engine] ?? notInstalled);
  return choice.real ? { player: concerned } : { player: emulationPlayer, playedBy: choice.playedBy };
}

/** Plays `scenario` with the chosen player; the emulation where an engine turns out unable (unless forced real). */
export async function playScenario(
  scenario: ScenarioRequest,
  installed: InstalledEngines,
): Promise<SimulationResult> {
  const req: PlayRequest = {
    ...scenario,
    host: mantleCalls(scenario.host, installed, () => scenario.mantleEngine ?? 'auto'),
    turn: (r) => emulationPlayer.play(r),
  };
  const { player, playedBy } = await choosePlayer(req, installed);
  const emulate = async (label?: string): Promise<SimulationResult> => {
    const r = await emulationPlayer.play(req);
    return label ? { ...r, playedBy: label } : r;
  };
  if (player.id === emulationPlayer.id) return emulate(playedBy);
  const played = await player.play(req);
  if (!('unavailable' in played)) return played;
  const real = player as RealPlayer;
  if (real.mode(req) === 'real')
    throw new RunInputError(
      'load',
      `hooksmith.${real.engine}.engine is "real" but the installed ${real.engine} cannot drive a scenario: ${played.unavailable}`,
    );
  return emulate(
    real.emulationPlayedBy(`the installed ${real.engine} cannot drive a scenario: ${played.unavailable}`),
  );
}
