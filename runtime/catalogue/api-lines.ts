// Engine API lines as data: the names an engine release spells, so every command (check, run,
// simulate, payload, test, fuzz) and every editor feature speaks the one the installed engine
// speaks. The catalogue's tables are written in the spec's names; selecting a line respells them
// in place (decorators, payload classes; a point's id stays the catalogue's inside Hooksmith, and
// the line's spelling of it is accepted wherever a point is named). One line per process.
import type { PointId } from './mantle-points';
import { spellPayloads, type PayloadTypeName } from './mantle-payloads';
import { MANTLE_POINTS, spellPoints } from './mantle-points';
import { refreshMantleExports } from './mantle-exports';

export type MantleLineId = 'rasa-pro-3.21' | 'mantle-newest';

export interface MantleLine {
  id: MantleLineId;
  /** For messages: "rasa-pro 3.21 (the spec)". */
  title: string;
  /** Catalogue point id → the id this line spells. */
  points: Partial<Record<PointId, string>>;
  /** Catalogue payload class → the class this line exports. */
  payloads: Partial<Record<PayloadTypeName, string>>;
  /** The engine invokes every point (else the catalogue's `wired` says). */
  invokesEveryPoint: boolean;
}

export const MANTLE_LINES: readonly MantleLine[] = [
  {
    id: 'rasa-pro-3.21',
    title: 'rasa-pro 3.21 (the spec)',
    points: {},
    payloads: {},
    invokesEveryPoint: false,
  },
  {
    id: 'mantle-newest',
    title: "Rasa Mantle's newest docs",
    points: { outgoing_text: 'outgoing_message' },
    payloads: { OutgoingTextPayload: 'OutgoingMessagePayload' },
    invokesEveryPoint: true,
  },
];

/** Set once a line is chosen: the host process inherits it, and it overrides the installed engine. */
export const MANTLE_LINE_ENV = 'HOOKSMITH_MANTLE_LINE';

export const DEFAULT_MANTLE_LINE: MantleLineId = 'rasa-pro-3.21';
export const MANTLE_LINE_IDS = MANTLE_LINES.map((l) => l.id);

let active: MantleLine = MANTLE_LINES[0]!;
let generation = 0;

/** Bumped on every change of line: values derived from the catalogue's names are recomputed. */
export function catalogueGeneration(): number {
  return generation;
}

/** A Cayu line change (cayu-lines.ts) changes what the rules say: derived values are recomputed too. */
export function bumpCatalogueGeneration(): void {
  generation++;
}
const CATALOGUE_POINT_PAYLOADS = MANTLE_POINTS.map((p) => p.payloadType);

export function findMantleLine(id: string): MantleLine | undefined {
  return MANTLE_LINES.find((l) => l.id === id);
}

export function activeMantleLine(): MantleLine {
  return active;
}

/** Selects the line every catalogue lookup answers in (the CLI once at start, the server on a change). */
export function useMantleLine(id: MantleLineId): MantleLine {
  const line = findMantleLine(id);
  if (!line) throw new Error(`unknown Mantle API line ${id}`);
  if (line === active) return line;
  active = line;
  generation++;
  spellPoints(new Map(Object.entries(line.points)));
  spellPayloads(new Map(Object.entries(line.payloads)));
  MANTLE_POINTS.forEach((p, i) => {
    const name = CATALOGUE_POINT_PAYLOADS[i]!;
    (p as { payloadType: PayloadTypeName }).payloadType = (line.payloads[name] ?? name) as PayloadTypeName;
  });
  refreshMantleExports();
  return line;
}

/**
 * The line an installed rasa.mantle.hooks speaks: the one whose renamed names it exports (a line
 * renames nothing when it is the spec's); none read: the spec's. `override` (the setting, the CLI
 * option) wins.
 */
export function mantleLineFor(
  installedNames: readonly string[] | undefined,
  override?: string,
): MantleLineId {
  const chosen = override ? findMantleLine(override) : undefined;
  if (chosen) return chosen.id;
  if (!installedNames) return DEFAULT_MANTLE_LINE;
  const names = new Set(installedNames);
  const speaks = (l: MantleLine) =>
    Object.values(l.payloads).some((n) => names.has(n)) ||
    Object.values(l.points).some((p) => names.has(`on_${p}`) || names.has(`modify_${p}`));
  return MANTLE_LINES.find((l) => l.id !== DEFAULT_MANTLE_LINE && speaks(l))?.id ?? DEFAULT_MANTLE_LINE;
}

/** The name a decorator or payload class has on the active line when `name` is its old spelling. */
export function renamedOnActiveLine(name: string): string | undefined {
  for (const [from, to] of Object.entries(active.payloads)) if (name === from) return to;
  for (const [from, to] of Object.entries(active.points)) {
    if (name === `on_${from}`) return `on_${to}`;
    if (name === `modify_${from}`) return `modify_${to}`;
  }
  return undefined;
}
