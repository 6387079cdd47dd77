// FunctionDefs of recent builds, for the language server's rebuild on every keystroke: most
// functions of an edited module are unchanged, and a FunctionDef is a pure function of the
// def's source text, where it starts (LSP position), its class and the module's import scope.
// Models are plain data that nobody mutates, so a hit returns the same objects.
import type { FunctionDef, ImportBinding } from './model';

/** One def's model and the function-local imports its body added (replayed on a hit). */
export interface CachedFunction {
  def: FunctionDef;
  localImports: ImportBinding[];
}

/** Bound on entries: a few thousand defs of a few open modules. */
const MAX_ENTRIES = 4000;
const cache = new Map<string, CachedFunction>();

export function cachedFunction(key: string): CachedFunction | undefined {
  const hit = cache.get(key);
  if (hit) {
    // Least recently used first: re-insert at the end.
    cache.delete(key);
    cache.set(key, hit);
  }
  return hit;
}

export function cacheFunction(key: string, value: CachedFunction): void {
  cache.set(key, value);
  if (cache.size > MAX_ENTRIES) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
}

/** Paths built before, least recently built first. */
const builtPaths = new Map<string, true>();
const MAX_PATHS = 256;
let oneShot = false;

/**
 * For a process that builds each path once (`hooksmith check`): no def is ever cached and no
 * path remembered. Besides the bookkeeping, this spares V8 a deoptimisation of the model builder
 * when the 257th path first evicts the oldest.
 */
export function buildEachPathOnce(): void {
  oneShot = true;
  builtPaths.clear();
}

/**
 * Whether to cache the defs of this build of `path`: only from its second build on (the
 * language server's rebuild after an edit). A one-shot `check` builds each path once and would
 * only pay for keeping defs alive.
 */
export function cachingFor(path: string): boolean {
  if (oneShot) return false;
  const seen = builtPaths.delete(path);
  builtPaths.set(path, true);
  if (builtPaths.size > MAX_PATHS) {
    const oldest = builtPaths.keys().next();
    if (!oldest.done) builtPaths.delete(oldest.value);
  }
  return seen;
}

/** Forgets every cached def and built path (tests that measure a cold build), and undoes buildEachPathOnce. */
export function clearFunctionCache(): void {
  cache.clear();
  builtPaths.clear();
  oneShot = false;
}

/** Short ids for import scopes: a module's scope text is long, and each def's key holds it. */
const scopeIds = new Map<string, string>();

/** A short key for the import scope the defs of a module resolve names through. */
export function scopeKey(imports: readonly ImportBinding[]): string {
  let k = '';
  for (const b of imports) k += `${b.isWildcard ? '*' : b.localName}=${b.qualified}|${b.module}\n`;
  let id = scopeIds.get(k);
  if (id === undefined) {
    if (scopeIds.size >= MAX_ENTRIES) scopeIds.clear();
    id = `s${nextScopeId++}`;
    scopeIds.set(k, id);
  }
  return id;
}
let nextScopeId = 0;
