// What a payload may hold so that every hop (Node → the host's json.loads → the hook → back)
// carries it unchanged: bounded nesting (Python's json and copy recurse, ~1,000 frames), finite
// numbers (1e400 parses to Infinity, which JSON writes as null), well-formed strings (a lone
// surrogate becomes '?' in UTF-8), and a bounded size. Input breaking one of these is refused,
// naming its JSON path, rather than altered.
import { jsonPath } from './json-path';

export const JSON_LIMITS = {
  /** Deepest nesting of objects/arrays accepted in a payload or scenario. */
  depth: 100,
  /** Largest payload (as JSON text) a hook is handed or may return. */
  bytes: 64 * 1024 * 1024,
} as const;

// With the u flag a well-formed pair is one code point: only lone surrogates match.
const LONE_SURROGATE = /\p{Cs}/u;

/** "path: what is wrong" for the first value JSON cannot carry faithfully, else undefined. */
export function unfaithfulJson(value: unknown, maxDepth: number = JSON_LIMITS.depth): string | undefined {
  // Iterative: a recursive walk is what overflows on 5,000 levels.
  const stack: { v: unknown; path: PropertyKey[] }[] = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'number') {
      if (!Number.isFinite(v))
        return `${jsonPath(path)}: ${String(v)} is out of JSON's number range (a literal such as 1e400 overflows)`;
    } else if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v))
        return `${jsonPath(path)}: a lone UTF-16 surrogate cannot be carried as UTF-8`;
    } else if (v !== null && typeof v === 'object') {
      if (path.length >= maxDepth)
        return `${jsonPath(path)}: nested deeper than ${maxDepth} levels (the limit for payloads)`;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
      } else {
        const entries = Object.entries(v);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [k, child] = entries[i]!;
          if (LONE_SURROGATE.test(k))
            return `${jsonPath([...path, k])}: a key with a lone UTF-16 surrogate cannot be carried as UTF-8`;
          stack.push({ v: child, path: [...path, k] });
        }
      }
    }
  }
  return undefined;
}
