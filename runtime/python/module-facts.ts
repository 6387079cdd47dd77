// Lookups several rules make on a module, computed at most once per model (per-model.ts) and
// each only when first asked for: a clean module never needs most of them. Without them, a rule
// asked "does the module bind this name?" by scanning every function, class and import — once
// per call in each hook body, which made blocking-call quadratic in the module's size.
import { MANTLE_MODULE } from '../catalogue';
import type { FunctionDef, HookModule } from './model';
import { perModel } from './per-model';

interface ImportFacts {
  roots: ReadonlySet<string>;
  mantleWildcard: boolean;
}

/** Names the module binds itself: module-level functions, classes and import local names. */
export const boundNames = perModel((module): ReadonlySet<string> => {
  const bound = new Set<string>();
  for (const f of module.functions) bound.add(f.name);
  for (const c of module.classes) if (c.enclosing === undefined) bound.add(c.name);
  for (const b of module.imports) bound.add(b.localName);
  return bound;
});

/** Module-level functions, then every method of every class. */
export const allFunctions = perModel((module): readonly FunctionDef[] => {
  const all: FunctionDef[] = [...module.functions];
  for (const c of module.classes) for (const m of c.methods) all.push(m);
  return all;
});

const importFacts = perModel((module): ImportFacts => {
  const roots = new Set<string>();
  let mantleWildcard = false;
  for (const b of module.imports) {
    roots.add(firstSegment(b.qualified));
    roots.add(firstSegment(b.module));
    if (b.isWildcard && b.module === MANTLE_MODULE) mantleWildcard = true;
  }
  return { roots, mantleWildcard };
});

/** A `from rasa.mantle.hooks import *` is present (at any level). */
export function hasMantleWildcard(module: HookModule): boolean {
  return importFacts(module).mantleWildcard;
}

/**
 * First segments of every import's qualified name and module ("time", "rasa", "cayu"). A
 * reference's qualified name is an import's qualified name (or a wildcard import's module) plus
 * the rest of the dotted name (model.ts, NameRef.qualified), so its first segment is one of
 * these: a rule looking for `time.sleep` has nothing to find when "time" is missing.
 */
export function importRoots(module: HookModule): ReadonlySet<string> {
  return importFacts(module).roots;
}

/** Whether some qualified name in the module can start with one of `roots` (see importRoots). */
export function importsAnyRoot(module: HookModule, roots: Iterable<string>): boolean {
  const have = importRoots(module);
  for (const r of roots) if (have.has(r)) return true;
  return false;
}

/** "a.b.c" → "a". */
export function firstSegment(dotted: string): string {
  const dot = dotted.indexOf('.');
  return dot < 0 ? dotted : dotted.slice(0, dot);
}
