// Who plays a Cayu scenario: the installed `cayu` runtime (real-engine mode) or Hooksmith's
// emulation. `auto` (the default): the runtime wherever `cayu` is importable in the selected
// interpreter. The editor sets it from hooksmith.cayu.engine, the CLI's --cayu-engine through the env.
// A leaf (no imports): the CLI's entry validates the option without loading the engine.
export const CAYU_ENGINES = ['auto', 'real', 'emulation'] as const;
export type CayuEngine = (typeof CAYU_ENGINES)[number];
export const CAYU_ENGINE_ENV = 'HOOKSMITH_CAYU_ENGINE';

let configured: CayuEngine | undefined;

export function parseCayuEngine(value: string | undefined | null): CayuEngine | undefined {
  return (CAYU_ENGINES as readonly string[]).includes(value ?? '') ? (value as CayuEngine) : undefined;
}

/** The editor's setting (the CLI sets the env instead); undefined: the env, else auto. */
export function configureCayuEngine(value: string | undefined): void {
  configured = parseCayuEngine(value);
}

export function cayuEngine(): CayuEngine {
  return configured ?? parseCayuEngine(process.env[CAYU_ENGINE_ENV]) ?? 'auto';
}

/** The label of a result the installed runtime played. */
export const realPlayedBy = (version: string) => `cayu ${version} runtime`;
/** The label of a result the emulation played, with why it did. */
export const emulationPlayedBy = (why: string) => `Hooksmith's Cayu emulation (${why})`;
export const NOT_INSTALLED = 'cayu not installed';
