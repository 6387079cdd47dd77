// The face of real-engine mode for Mantle: rasa-pro's own hook runner plays each Mantle hook call
// (run_modify / run_observers, rasa/mantle/hooks/runner.py) where rasa.mantle.hooks is importable
// and the mode (mantle-engine.ts: the run's options give it) allows it. A whole rasa-pro turn
// needs a trained model and a license (rasa/mantle/processor.py), so the turn is Hooksmith's
// (PlayRequest.turn) and each hook call in it is the runner's (the host's mantle_real.py).
// players.ts registers it and routes every Mantle call through `calls`; nothing else imports this folder.
import { RunInputError } from '../run-hook';
import type { HostCall, HostFact, HostPort } from '../host-port';
import type { PlayerChoice, RealPlayer } from '../player';
import type { EngineMode } from '../engine-mode';

/** The label of a call rasa-pro's runner played. */
export const realPlayedBy = (version: string) => `rasa-pro ${version} hook runner`;
/** The label of a call the emulation played, with why it did. */
export const emulationPlayedBy = (why: string) => `Hooksmith's Mantle emulation (${why})`;
export const NOT_INSTALLED = 'rasa-pro not installed';
const FORCED = 'forced: hooksmith.mantle.engine emulation';
const NO_RUNNER = 'rasa.mantle.hooks.runner does not import in this interpreter';
const REAL_WITHOUT_ENGINE =
  'hooksmith.mantle.engine is "real" but rasa.mantle.hooks is not importable in the selected interpreter (install rasa-pro there, or choose auto)';

/**
 * Whether the runner plays Mantle calls now, or why the emulation does; throws RunInputError when
 * the mode demands the runner and rasa-pro is not importable. Asked per call, with the mode the call's run gives.
 */
async function decide(installed: () => Promise<boolean>, mode: EngineMode): Promise<PlayerChoice> {
  if (mode === 'emulation') return { real: false, playedBy: emulationPlayedBy(FORCED) };
  if (await installed().catch(() => false)) return { real: true };
  if (mode === 'real') throw new RunInputError('load', REAL_WITHOUT_ENGINE);
  return { real: false, playedBy: emulationPlayedBy(NOT_INSTALLED) };
}

/** The host's answer when the call asked for the runner: who played it, in the player's words. */
function runnerPlayed(fact: HostFact, mode: EngineMode): HostFact {
  if (fact.rasaPro) return { ...fact, playedBy: realPlayedBy(fact.rasaPro) };
  // The host never answered (killed, crashed) or never reached the call (the module did not load).
  if (fact.kind === 'load-error' || fact.kind === 'crashed' || (fact.kind === 'timed-out' && fact.hard))
    return fact;
  if (mode === 'real') throw new RunInputError('load', `hooksmith.mantle.engine is "real" but ${NO_RUNNER}`);
  return { ...fact, playedBy: emulationPlayedBy(NO_RUNNER) };
}

async function playCall(
  host: HostPort,
  call: HostCall,
  installed: () => Promise<boolean>,
  mode: EngineMode,
): Promise<HostFact> {
  const choice = await decide(installed, mode);
  if (!choice.real) return { ...(await host.invoke(call)), playedBy: choice.playedBy! };
  return runnerPlayed(await host.invoke({ ...call, mantleRunner: true }), mode);
}

export interface MantleRealPlayer extends RealPlayer {
  /**
   * `host` whose Mantle calls this player routes: through rasa-pro's runner, or the emulation
   * (each fact says who played); other calls pass through. `installed`: the host's interpreter
   * imports rasa.mantle.hooks. `mode`: the run's (mantle-engine.ts), asked at each call: a changed
   * setting applies at once.
   */
  calls(host: HostPort, installed: () => Promise<boolean>, mode: () => EngineMode): HostPort;
}

export const mantleRealPlayer: MantleRealPlayer = {
  id: 'mantle-real',
  engine: 'mantle',
  mode: (req) => req.mantleEngine ?? 'auto',
  concerns: (hooks) => hooks.modify.size > 0 || hooks.observe.size > 0,
  turnIsHooksmiths: true,
  emulationPlayedBy,
  // Who played rides on each call (the result's mantlePlayedBy), not on the result's playedBy (Cayu's).
  choose: async (req, installed) =>
    (await decide(installed, req.mantleEngine ?? 'auto')).real ? { real: true } : { real: false },
  calls: (host, installed, mode) => ({
    invoke: (call) =>
      call.engine === 'mantle' ? playCall(host, call, installed, mode()) : host.invoke(call),
    endRun: () => host.endRun?.(),
    dispose: () => host.dispose(),
  }),
  // The request's host routes its Mantle calls through the runner (players.ts gives `calls`'s port).
  play: (req) => req.turn(req),
};
