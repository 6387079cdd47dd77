// Cayu API lines as data: where each release line puts the hook API, ToolResult and the events
// (the five phases, the actions and the context fields are the same on every line, and so is
// fail-open). Read from cayu-dev/cayu: v0.3.0 defines the hook API in src/cayu/runtime/hooks.py
// (re-exported by cayu.runtime and cayu; cayu.observability holds only the event sinks),
// ToolResult in src/cayu/core/tools.py, events in src/cayu/core/events.py; the newer layout in
// cayu/observability/hooks.py (re-exported by cayu.observability only), cayu/tools/base.py and
// cayu/events.py, as the installed cayu 0.15.0 has it. scripts/gen-cayu-line.py reads an installed
// cayu into cayu-lines/cayu-<version>.json; test/unit/cayu-line-data.test.ts holds these lines to
// those files. One line per process, as for Mantle.
import { bumpCatalogueGeneration } from './api-lines';

export type CayuLineId = 'cayu-0.3' | 'cayu-newer';

export interface CayuLine {
  id: CayuLineId;
  /** For messages: "cayu 0.3". */
  title: string;
  /** The module that defines the hook API: its presence in an installed cayu identifies the line. */
  hooksModule: string;
  /** The module new code imports the hook API from (what completion, quick fixes and hovers write). */
  importModule: string;
  /** Every module that exports the hook API (RuntimeHook, phases, contexts, decisions). */
  hookModules: readonly string[];
  /** Modules that re-export only some hook-API names (module → those names). */
  partialHookModules?: Readonly<Record<string, readonly string[]>>;
  toolResultModule: string;
  /** Every module that exports ToolResult. */
  toolResultModules: readonly string[];
  eventsModule: string;
  /** Every module that exports Event and EventType. */
  eventsModules: readonly string[];
}

export const CAYU_LINES: readonly CayuLine[] = [
  {
    id: 'cayu-0.3',
    title: 'cayu 0.3',
    hooksModule: 'cayu.runtime.hooks',
    importModule: 'cayu.runtime.hooks',
    hookModules: ['cayu.runtime.hooks', 'cayu.runtime', 'cayu'],
    toolResultModule: 'cayu.core.tools',
    toolResultModules: ['cayu.core.tools', 'cayu.core', 'cayu'],
    eventsModule: 'cayu.core.events',
    eventsModules: ['cayu.core.events', 'cayu.core', 'cayu'],
  },
  {
    id: 'cayu-newer',
    title: 'cayu 0.9 and newer',
    // Read from the installed cayu 0.15.0 (cayu-lines/cayu-0.15.0.json, scripts/gen-cayu-line.py):
    // the hook API is exported by cayu.observability(.hooks) only; `cayu` and `cayu.runtime` raise
    // ImportError for its names ("cayu.RuntimeHook was removed. Use `from cayu.observability import
    // RuntimeHook`": cayu/_api.py:46-56, cayu/data/public_api_imports.json).
    hooksModule: 'cayu.observability.hooks',
    importModule: 'cayu.observability',
    hookModules: ['cayu.observability.hooks', 'cayu.observability'],
    toolResultModule: 'cayu.tools.base',
    toolResultModules: ['cayu.tools.base', 'cayu.tools', 'cayu'],
    eventsModule: 'cayu.events',
    eventsModules: ['cayu.events', 'cayu'],
  },
];

/** Set once a line is chosen: the host process inherits it (its shim serves that line's modules). */
export const CAYU_LINE_ENV = 'HOOKSMITH_CAYU_LINE';
export const CAYU_LINE_IDS = CAYU_LINES.map((l) => l.id);

/** No line chosen (no cayu installed, no override): every public path of both layouts is accepted. */
let active: CayuLine | undefined;

export function findCayuLine(id: string | null | undefined): CayuLine | undefined {
  return CAYU_LINES.find((l) => l.id === id);
}

export function activeCayuLine(): CayuLine | undefined {
  return active;
}

export function useCayuLine(id: CayuLineId | undefined): CayuLine | undefined {
  const line = id === undefined ? undefined : findCayuLine(id);
  if (id !== undefined && !line) throw new Error(`unknown Cayu API line ${id}`);
  if (line !== active) {
    active = line;
    bumpCatalogueGeneration();
  }
  return line;
}

/** What an installed cayu tells: which layout modules it has, and its distribution version. */
export interface InstalledCayu {
  version: string | null;
  /** Module name → found (cayu.runtime.hooks, cayu.observability.hooks). */
  modules?: Readonly<Record<string, boolean>>;
}

/** The version's line when its modules were not read: 0.3.x and older are 0.3, 0.9 on the newer. */
function lineOfVersion(version: string): CayuLineId | undefined {
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major === 0 && minor <= 3) return 'cayu-0.3';
  if (major > 0 || minor >= 9) return 'cayu-newer';
  return undefined;
}

/**
 * The line an installed cayu speaks: the one whose defining module it has (the newer wins when it
 * has both), else its version's; `override` (the setting, the CLI option) wins; none: undefined.
 */
export function cayuLineFor(
  installed: InstalledCayu | undefined,
  override?: string | null,
): CayuLineId | undefined {
  const chosen = findCayuLine(override);
  if (chosen) return chosen.id;
  if (!installed?.version) return undefined;
  const found = [...CAYU_LINES].reverse().find((l) => installed.modules?.[l.hooksModule]);
  return found?.id ?? lineOfVersion(installed.version);
}

export type CayuNameKind = 'hooks' | 'toolResult' | 'events';

const EVENT_NAMES = new Set(['Event', 'EventType']);

/** Which of a line's module groups exports a Cayu public name (hook API names by default). */
export function cayuNameKind(name: string): CayuNameKind {
  if (name === 'ToolResult') return 'toolResult';
  return EVENT_NAMES.has(name) ? 'events' : 'hooks';
}

export function modulesOf(line: CayuLine, kind: CayuNameKind): readonly string[] {
  return kind === 'hooks'
    ? line.hookModules
    : kind === 'toolResult'
      ? line.toolResultModules
      : line.eventsModules;
}

export function canonicalModule(line: CayuLine, kind: CayuNameKind): string {
  return kind === 'hooks'
    ? line.importModule
    : kind === 'toolResult'
      ? line.toolResultModule
      : line.eventsModule;
}

/** Where new code imports `name` from on the active line (no line: `fallback`). */
export function cayuImportModuleFor(name: string, fallback: string): string {
  return active ? canonicalModule(active, cayuNameKind(name)) : fallback;
}

/**
 * Where new code imports the hook API from, and the modules an existing import of it may already
 * use (joined rather than duplicated): the active line's, else every public path (`all`, the first
 * preferred).
 */
export function cayuHookImportModules(all: readonly string[]): {
  module: string;
  equivalentModules: string[];
} {
  if (!active) return { module: all[0]!, equivalentModules: all.slice(1) };
  return {
    module: active.importModule,
    equivalentModules: active.hookModules.filter((m) => m !== active!.importModule),
  };
}
