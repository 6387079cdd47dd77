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
  for (const b of module.imports) {
    bound.add(b.localName);
    if (b.isWildcard && b.module === MANTLE_MODULE) mantleWildcard = true;
  }
  return { bound, mantleWildcard, allFunctions };
}
