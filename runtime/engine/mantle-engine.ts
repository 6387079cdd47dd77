// Who plays Mantle hook calls: the installed rasa-pro's hook runner (real-engine mode) or
// Hooksmith's emulation, as engine-mode.ts says it for Cayu. `auto` (the default): the runner
// wherever rasa.mantle.hooks is importable in the selected interpreter. The editor sets it from
// hooksmith.mantle.engine, the CLI's --mantle-engine through the env. No engine imports: the CLI's
// entry validates the option without loading the engine; the Mantle player (mantle-real/) reads it.
import { ENGINE_MODES, type EngineMode } from './engine-mode';

export const MANTLE_ENGINES = ENGINE_MODES;
export const MANTLE_ENGINE_ENV = 'HOOKSMITH_MANTLE_ENGINE';

let configured: EngineMode | undefined;

export function parseMantleEngine(value: string | undefined | null): EngineMode | undefined {
  return (MANTLE_ENGINES as readonly string[]).includes(value ?? '') ? (value as EngineMode) : undefined;
}

/** The editor's setting (the CLI sets the env instead); undefined: the env, else auto. */
export function configureMantleEngine(value: string | undefined): void {
  configured = parseMantleEngine(value);
}

export function mantleEngine(): EngineMode {
  return configured ?? parseMantleEngine(process.env[MANTLE_ENGINE_ENV]) ?? 'auto';
}
