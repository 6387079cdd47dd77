// Who plays Mantle hook calls: the installed rasa-pro's hook runner (real-engine mode) or
// Hooksmith's emulation, as engine-mode.ts says it for Cayu. `auto` (the default): the runner
// wherever rasa.mantle.hooks is importable in the selected interpreter. It travels as an option: the
// editor's hooksmith.mantle.engine and the CLI's --mantle-engine reach the runner in
// HookRunnerOptions.mantleEngine, read at each call; no module keeps it. Below them,
// HOOKSMITH_MANTLE_ENGINE. No engine imports: the CLI's entry validates the option without loading the engine.
import { ENGINE_MODES, type EngineMode } from './engine-mode';

export const MANTLE_ENGINES = ENGINE_MODES;
export const MANTLE_ENGINE_ENV = 'HOOKSMITH_MANTLE_ENGINE';

export function parseMantleEngine(value: string | undefined | null): EngineMode | undefined {
  return (MANTLE_ENGINES as readonly string[]).includes(value ?? '') ? (value as EngineMode) : undefined;
}

/** The mode given (the editor's setting, the CLI's option), else HOOKSMITH_MANTLE_ENGINE, else auto. */
export function mantleEngine(given?: string): EngineMode {
  return parseMantleEngine(given) ?? parseMantleEngine(process.env[MANTLE_ENGINE_ENV]) ?? 'auto';
}
