// The Cayu runtime puts no timeout around a hook: this is Hooksmith's own safety stop for a hook
// that never returns, far above any real hook's time. The editor sets it from the
// hooksmith.cayu.safetyStopSeconds setting, the CLI from --cayu-safety-stop (cli/host-options.ts): both
// reach the runner in HookRunnerOptions.cayuSafetyStopS, read at each run; no module keeps it.
// HOOKSMITH_CAYU_SAFETY_STOP_S in the environment below them. A leaf (no imports).
export const DEFAULT_CAYU_SAFETY_STOP_S = 120;
export const CAYU_SAFETY_STOP_ENV = 'HOOKSMITH_CAYU_SAFETY_STOP_S';
/** The largest stop accepted: a day. */
export const MAX_CAYU_SAFETY_STOP_S = 86_400;

/** A whole number of seconds from 1 to a day, as typed; undefined otherwise. */
export function parseSafetyStopSeconds(value: string | number | undefined | null): number | undefined {
  const text = typeof value === 'number' ? String(value) : (value ?? '');
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= MAX_CAYU_SAFETY_STOP_S ? n : undefined;
}

/** The stop given (the editor's setting, the CLI's option), else HOOKSMITH_CAYU_SAFETY_STOP_S, else 120 s; in ms. */
export function cayuSafetyStopMs(given?: number): number {
  const s =
    parseSafetyStopSeconds(given) ??
    parseSafetyStopSeconds(process.env[CAYU_SAFETY_STOP_ENV]) ??
    DEFAULT_CAYU_SAFETY_STOP_S;
  return s * 1000;
}
