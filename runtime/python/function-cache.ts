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

/** Forgets every cached def (tests that measure a cold build). */
export function clearFunctionCache(): void {
  cache.clear();
}

/** A key for the import scope the defs of a module resolve names through. */
export function scopeKey(imports: readonly ImportBinding[]): string {
  let k = '';
  for (const b of imports) k += `${b.isWildcard ? '*' : b.localName}=${b.qualified}|${b.module}\n`;
  return k;
}
