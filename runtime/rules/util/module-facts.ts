// Lookups several rules make on every module, computed once per model and shared (models are
// never changed once built; a new text gets a new model). Without it, a rule asked "does the
// module bind this name?" by scanning every function, class and import — once per call in
// each hook body, which made blocking-call quadratic in the module's size.
import { MANTLE_MODULE } from '../../catalogue';
import type { FunctionDef, HookModule } from '../../python/model';

export interface ModuleFacts {
  /** Names the module binds itself: module-level functions, classes and import local names. */
  bound: ReadonlySet<string>;
  /** A `from rasa.mantle.hooks import *` is present (at any level). */
  mantleWildcard: boolean;
  /** Module-level functions, then every method of every class. */
  allFunctions: readonly FunctionDef[];
  /**
   * First segments of every import's qualified name and module ("time", "rasa", "cayu"). A
   * reference's qualified name is an import's qualified name (or a wildcard import's module) plus
   * the rest of the dotted name (model.ts, NameRef.qualified), so its first segment is one of
   * these: a rule looking for `time.sleep` has nothing to find when "time" is missing.
   */
  importRoots: ReadonlySet<string>;
}

/** "a.b.c" → "a". */
export function firstSegment(dotted: string): string {
  const dot = dotted.indexOf('.');
  return dot < 0 ? dotted : dotted.slice(0, dot);
}

/** Whether some qualified name in the module can start with one of `roots` (see ModuleFacts.importRoots). */
export function importsAnyRoot(module: HookModule, roots: Iterable<string>): boolean {
  const have = moduleFacts(module).importRoots;
  for (const r of roots) if (have.has(r)) return true;
  return false;
}

const cache = new WeakMap<HookModule, ModuleFacts>();

export function moduleFacts(module: HookModule): ModuleFacts {
  let facts = cache.get(module);
  if (!facts) {
    facts = computeFacts(module);
    cache.set(module, facts);
  }
  return facts;
}

function computeFacts(module: HookModule): ModuleFacts {
  const bound = new Set<string>();
  const allFunctions: FunctionDef[] = [];
  for (const f of module.functions) {
    bound.add(f.name);
    allFunctions.push(f);
  }
  for (const c of module.classes) {
    bound.add(c.name);
    for (const m of c.methods) allFunctions.push(m);
  }
  let mantleWildcard = false;
  const importRoots = new Set<string>();
  for (const b of module.imports) {
    bound.add(b.localName);
    if (b.isWildcard && b.module === MANTLE_MODULE) mantleWildcard = true;
    importRoots.add(firstSegment(b.qualified));
    importRoots.add(firstSegment(b.module));
  }
  return { bound, mantleWildcard, allFunctions, importRoots };
}
