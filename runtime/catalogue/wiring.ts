// Whether the engine invokes a Mantle point, and on whose word: the one answer the not-wired rule,
// Run Hook's notes, the simulator (which points fire) and the timeline's label all give, so they
// never disagree. The setting wins; else the installed rasa-pro; else the catalogue.
import type { MantlePoint } from './index';
import { activeMantleLine } from './api-lines';
import { spelledPoint } from './mantle-points';

export const WIRED_POINTS_SETTING = 'the hooksmith.mantle.wiredPoints setting';
export const WIRED_POINTS_OPTION = 'the --wired-points option';

/** The release the catalogue describes. */
export const CATALOGUE_RASA_PRO = '3.21';

/** What decides it: the hooksmith.mantle.wiredPoints setting, the installed engine (RuleEnvironment fits). */
export interface WiringSource {
  wiredPoints?: ReadonlySet<string>;
  /** Who listed `wiredPoints` (default: the setting); the CLI's `--wired-points`. */
  wiredBy?: string;
  engine?: { rasaPro: string | null };
}

export interface Wiring {
  wired: boolean;
  /** "rasa-pro 3.21", "the hooksmith.mantle.wiredPoints setting". */
  by: string;
}

function newerThanCatalogue(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map((n) => parseInt(n, 10));
  const [cMajor, cMinor] = CATALOGUE_RASA_PRO.split('.').map((n) => parseInt(n, 10)) as [number, number];
  return major > cMajor || (major === cMajor && minor > cMinor);
}

/**
 * The setting wins; else the installed rasa-pro: the catalogue's release and older as catalogued,
 * a newer release invokes every point (its public hooks page says incoming/outgoing text are now
 * invoked); else the catalogue.
 */
export function pointWired(point: MantlePoint, source: WiringSource | undefined): Wiring {
  if (source?.wiredPoints)
    return {
      wired: source.wiredPoints.has(point.id) || source.wiredPoints.has(spelledPoint(point.id)),
      by: source.wiredBy ?? WIRED_POINTS_SETTING,
    };
  const line = activeMantleLine();
  if (line.invokesEveryPoint) return { wired: true, by: line.title };
  const version = source?.engine?.rasaPro;
  if (version && newerThanCatalogue(version)) return { wired: true, by: `rasa-pro ${version}` };
  return { wired: point.wired, by: `rasa-pro ${version ?? CATALOGUE_RASA_PRO}` };
}

/** "not invoked by rasa-pro 3.21": the words for a point that is not wired, everywhere. */
export function notInvokedBy(by: string): string {
  return `not invoked by ${by}`;
}
