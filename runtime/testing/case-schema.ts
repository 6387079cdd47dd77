// The JSON Schema of a scenario or payload-case file, and what it says at a path: the keys a
// mapping takes and each key's description, type and allowed values (editor completion and hover
// outside VS Code, whose own schema support needs package.json's yaml/jsonValidation).
import { buildSchemas, payloadCaseJson } from '../engine/json-schemas';
import { isPayloadFile } from './discover-cases';
import type { CasePath } from './case-cursor';

type Json = Record<string, unknown>;

let built: Record<string, Json> | undefined;

/** The schema of a case file (built once, on first use). */
export function caseSchema(file: string): Json {
  if (isPayloadFile(file)) return payloadCaseJson();
  built ??= buildSchemas();
  return /\.scenario\.(ya?ml|json)$/.test(file)
    ? built['scenario.schema.json']!
    : built['mantle-scenario.schema.json']!;
}

/** The alternatives of a schema (anyOf / oneOf / allOf flattened). */
function variants(s: Json | undefined): Json[] {
  if (!s) return [];
  const alts = [s.anyOf, s.oneOf, s.allOf].flatMap((a) => (Array.isArray(a) ? (a as Json[]) : []));
  return [s, ...alts.flatMap(variants)];
}

/** The schemas at `path` (a number is a list item; a key no `properties` names goes to `additionalProperties`). */
export function schemasAt(root: Json, path: CasePath): Json[] {
  let here = variants(root);
  for (const seg of path) {
    here = here.flatMap((s) => {
      if (typeof seg === 'number') return variants(s.items as Json | undefined);
      const props = s.properties as Record<string, Json> | undefined;
      if (props?.[seg]) return variants(props[seg]);
      const extra = s.additionalProperties;
      return extra && typeof extra === 'object' ? variants(extra as Json) : [];
    });
  }
  return here;
}

export interface SchemaKey {
  name: string;
  description?: string;
}

/** The keys the mapping at `path` takes (first description wins). */
export function keysAt(root: Json, path: CasePath): SchemaKey[] {
  const out = new Map<string, SchemaKey>();
  for (const s of schemasAt(root, path)) {
    for (const [name, p] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
      if (name === '$schema') continue;
      const description = describe(p);
      const had = out.get(name);
      if (!had) out.set(name, { name, description });
      else had.description ??= description;
    }
  }
  return [...out.values()];
}

/** The description of the value at `path`, with its type. */
export function describeAt(root: Json, path: CasePath): string | undefined {
  return schemasAt(root, path).map(describe).find(Boolean);
}

/** The values a key takes when the schema lists them (enum, const, boolean). */
export function valuesAt(root: Json, path: CasePath): string[] {
  const out = new Set<string>();
  for (const s of schemasAt(root, path)) {
    for (const v of (s.enum as unknown[] | undefined) ?? []) out.add(String(v));
    if (s.const !== undefined) out.add(String(s.const));
    if (s.type === 'boolean') ['true', 'false'].forEach((v) => out.add(v));
  }
  return [...out];
}

function describe(s: Json): string | undefined {
  const found = variants(s).find((v) => typeof v.description === 'string');
  return found?.description as string | undefined;
}
