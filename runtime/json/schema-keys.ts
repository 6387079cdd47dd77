// The keys a zod object schema allows at a path of a document, for did-you-mean on an unknown
// key. Walks through optional, default, nullable, pipes, arrays, records and every union branch.
import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas `s` stands for once wrappers are taken off (a union: each of its branches). */
function unwrap(s: z.ZodType, depth = 0): z.ZodType[] {
  if (depth > 20) return [];
  const d = defOf(s);
  const inner = d.innerType ?? d.in ?? (d.type === 'lazy' ? d.getter?.() : undefined);
  if (inner) return unwrap(inner, depth + 1);
  if (d.type === 'union') return (d.options ?? []).flatMap((o) => unwrap(o, depth + 1));
  return [s];
}

function child(s: z.ZodType, seg: PropertyKey): z.ZodType[] {
  const d = defOf(s);
  if (d.type === 'object' && typeof seg === 'string' && d.shape?.[seg]) return [d.shape[seg]];
  if (d.type === 'array' && typeof seg === 'number' && d.element) return [d.element];
  if (d.type === 'record' && d.valueType) return [d.valueType];
  return [];
}

export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let here = unwrap(schema);
  for (const seg of path) here = here.flatMap((s) => child(s, seg).flatMap((c) => unwrap(c)));
  const keys = here.flatMap((s) => {
    const d = defOf(s);
    return d.type === 'object' ? Object.keys(d.shape ?? {}) : [];
  });
  return [...new Set(keys)];
}
