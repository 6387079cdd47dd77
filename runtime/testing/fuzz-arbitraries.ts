// fast-check arbitraries derived from the catalogue's zod schemas: payloads for a Mantle point
// or a Cayu phase that pass the engine's validation, with unicode, empty and huge strings,
// and a tool result's `value` as the engine sends it (JSON text).
import fc from 'fast-check';
import type { z } from 'zod';
import { getPayloadType, payloadSchema, type PayloadTypeName } from '../catalogue';
import type { CayuPhaseId } from '../catalogue';
import { CAYU_CONTEXT_SCHEMAS } from '../engine/cayu-context';
import { narrowBigInt, stringifyJson } from '../json/lossless-json';

type Def = {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  shape?: Record<string, z.ZodType>;
};

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Text a hook meets in real turns: mostly short unicode, sometimes empty, blank or huge. */
export function textArb(minLength = 0): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ minLength, maxLength: 12 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...['', ' ', '\n', '  \t '].filter((s) => s.length >= minLength)),
    },
    // size 'max': long strings that still shrink down to the shortest.
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength: 4_000, size: 'max' }) },
  );
}

/** An integer beyond 2^53 that Cayu's portable JSON (signed 64-bit) and Python's int both take. */
const bigInt64 = (min = -(2n ** 63n)) => fc.bigInt({ min, max: 2n ** 63n - 1n }).map((v) => narrowBigInt(v));

/** JSON values; some objects hold integers a number cannot (they arrive as bigint, lossless-json.ts). */
const json = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.string({ maxLength: 8 }),
        fc.oneof(bigInt64(), fc.jsonValue({ maxDepth: 2 })),
        {
          maxKeys: 4,
        },
      ),
    },
  );

function checks(d: Def): Record<string, unknown>[] {
  return (d.checks ?? []).map((c) => c._zod.def);
}

function numberArb(d: Def): fc.Arbitrary<number> {
  const cs = checks(d);
  const isInt = cs.some((c) => c.check === 'number_format' && String(c.format).includes('int'));
  const min = cs.find((c) => c.check === 'greater_than')?.value as number | undefined;
  const max = cs.find((c) => c.check === 'less_than')?.value as number | undefined;
  return isInt
    ? fc.integer({ min: min ?? -1_000_000, max: max ?? 1_000_000_000 })
    : fc.double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true, noDefaultInfinity: true });
}

/** The arbitrary of a zod schema (the subset of zod the catalogue uses). */
export function arbitraryOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const d = defOf(schema);
  switch (d.type) {
    case 'string': {
      const min = checks(d).find((c) => c.check === 'min_length')?.minimum as number | undefined;
      return textArb(min ?? 0);
    }
    case 'number':
      return numberArb(d);
    case 'bigint': {
      const min = checks(d).find((c) => c.check === 'greater_than')?.value as bigint | undefined;
      return bigInt64(min);
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constantFrom(...(d.values ?? []));
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries ?? {}));
    case 'nullable':
      return fc.option(arbitraryOf(d.innerType!), { nil: null });
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
      return arbitraryOf(d.innerType!);
    case 'array':
      return fc.array(arbitraryOf(d.element!), { maxLength: 4 });
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), arbitraryOf(d.valueType!), { maxKeys: 4 });
    case 'union':
      return fc.oneof(...(d.options ?? []).map(arbitraryOf));
    case 'object':
      return objectArb(schema);
    default:
      return json();
  }
}

function objectArb(schema: z.ZodType, override: Record<string, fc.Arbitrary<unknown>> = {}) {
  const shape = defOf(schema).shape ?? {};
  const arbs: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [key, s] of Object.entries(shape)) {
    arbs[key] = override[key] ?? arbitraryOf(s);
    const t = defOf(s).type;
    if (t !== 'optional' && t !== 'default') required.push(key);
  }
  return fc.record(arbs, { requiredKeys: required });
}

/** A tool's value as the engine serialises it, or plain text a tool returned. */
const toolValue = () =>
  fc.oneof(
    { weight: 3, arbitrary: json().map((v) => stringifyJson(v)) },
    { weight: 1, arbitrary: textArb() },
  );

export function payloadArbitrary(type: PayloadTypeName): fc.Arbitrary<Record<string, unknown>> {
  const schema = payloadSchema(getPayloadType(type));
  const override: Record<string, fc.Arbitrary<unknown>> = type === 'ToolResultPayload'
    ? { value: toolValue() }
    : {};
  return objectArb(schema, override) as fc.Arbitrary<Record<string, unknown>>;
}

export function cayuContextArbitrary(phase: CayuPhaseId): fc.Arbitrary<Record<string, unknown>> {
  return objectArb(CAYU_CONTEXT_SCHEMAS[phase]) as fc.Arbitrary<Record<string, unknown>>;
}
