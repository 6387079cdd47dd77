// Who plays a Cayu scenario: the installed `cayu` runtime (real-engine mode) or Hooksmith's
// emulation. `auto` (the default): the runtime wherever `cayu` is importable in the selected
// interpreter. It travels as an option: the editor's hooksmith.cayu.engine and the CLI's --cayu-engine
// reach the runner in HookRunnerOptions.cayuEngine, and each scenario's PlayRequest carries it; no
// module keeps it. Below them, HOOKSMITH_CAYU_ENGINE.
// A leaf (no imports): the CLI's entry validates the option without loading the engine. Beside the
// players (player.ts), not inside one: the CLI, the editor and the choice (players.ts) all read it.
/** Who plays an engine's hooks: its installed runtime where importable, always it, or the emulation. */
export const ENGINE_MODES = ['auto', 'real', 'emulation'] as const;
export type EngineMode = (typeof ENGINE_MODES)[number];
export const CAYU_ENGINES = ENGINE_MODES;
export type CayuEngine = EngineMode;
export const CAYU_ENGINE_ENV = 'HOOKSMITH_CAYU_ENGINE';

export function parseCayuEngine(value: string | undefined | null): CayuEngine | undefined {
  return (CAYU_ENGINES as readonly string[]).includes(value ?? '') ? (value as CayuEngine) : undefined;
}

/** The mode given (the editor's setting, the CLI's option), else HOOKSMITH_CAYU_ENGINE, else auto. */
export function cayuEngine(given?: string): CayuEngine {
  return parseCayuEngine(given) ?? parseCayuEngine(process.env[CAYU_ENGINE_ENV]) ?? 'auto';
}

/** The label of a result the installed runtime played. */
export const realPlayedBy = (version: string) => `cayu ${version} runtime`;
/** The label of a result the emulation played, with why it did. */
export const emulationPlayedBy = (why: string) => `Hooksmith's Cayu emulation (${why})`;
export const NOT_INSTALLED = 'cayu not installed';

/**
 * Why one phase call (`run`, `fuzz`, Run Hook) is the emulation's even where cayu is importable:
 * cayu 0.3 calls a phase only inside its own tool round or session end, with a context it builds
 * from the live session (runtime/_tool_round_executor.py, runtime/_session_engine.py); it has no
 * entry point that calls one hook on a context the user gives. A scenario is the runtime's.
 */
export const SINGLE_CALL =
  'one phase call on the context you give: the cayu runtime only calls a phase inside its own tool round or session end; a scenario (simulate, test) plays through the runtime';

/** Who plays one phase call (`installed`: the host's interpreter imports the real cayu). */
export function singleCallPlayedBy(installed: boolean, mode: CayuEngine): string {
  if (mode === 'emulation') return emulationPlayedBy('forced: hooksmith.cayu.engine emulation');
  return emulationPlayedBy(installed ? SINGLE_CALL : NOT_INSTALLED);
}
