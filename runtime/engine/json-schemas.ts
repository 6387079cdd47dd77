// JSON Schemas generated from the zod sources (catalogue payloads, Cayu contexts, scenarios) for
// editor completion and validation. scripts/gen-schemas.ts writes them to schemas/; a test
// proves the committed files are current.
//
// Layout: schemas/scenario.schema.json; schemas/payload.schema.json (anyOf every payload type
// and Cayu context, for `.hooksmith/payloads/*.json` via jsonValidation); and one file per type
// under schemas/payloads/ — the best completion, for a payload file whose `$schema` names it.
import { z } from 'zod';
import { allFields, CAYU_PHASE_IDS, PAYLOAD_TYPES, payloadSchema, type PayloadType } from '../catalogue';
import { CAYU_CONTEXT_SCHEMAS } from './cayu-context';
import { payloadCaseKeys } from './expect-schema';
import { scenarioSchema } from './scenario-schema';
import { mantleScenarioDocument } from './mantle-scenario';

type Json = Record<string, unknown>;

function toJson(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-7',
    unrepresentable: 'any',
    // A bigint is a JSON integer beyond 2^53 (runtime/json/lossless-json.ts): in the file, an integer.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === 'bigint') jsonSchema.type = 'integer';
    },
  }) as Json;
}

/** Lets a file name its own schema (`"$schema": "…"`) although unknown keys are refused. */
function allowSchemaKey(s: Json, extra: Json = {}): Json {
  const props = (s.properties ?? {}) as Json;
  return {
    ...s,
    properties: {
      $schema: { type: 'string', description: 'The JSON Schema of this file.' },
      ...extra,
      ...props,
    },
  };
}

/** A payload file may also be a test case of a hook (runtime/engine/expect-schema.ts). */
function payloadCaseProperties(): Json {
  const out: Json = {};
  for (const [k, s] of Object.entries(payloadCaseKeys)) out[k] = withoutDraft(toJson(s));
  return out;
}

function payloadJson(type: PayloadType): Json {
  const s = allowSchemaKey(toJson(payloadSchema(type)), payloadCaseProperties());
  const props = s.properties as Record<string, Json>;
  for (const f of allFields(type)) {
    const what =
      f.mutability === 'mutable'
        ? 'mutable'
        : f.mutability === 'identity'
          ? 'read-only identity, restored by the engine'
          : 'read-only, restored by the engine';
    if (props[f.name])
      props[f.name] = { ...props[f.name], description: `${f.doc} (${f.pythonType}; ${what})` };
  }
  return { title: type.name, description: type.doc, ...s };
}

function cayuJson(phase: (typeof CAYU_PHASE_IDS)[number]): Json {
  return {
    title: `Cayu ${phase} context`,
    description: `Context data of a Cayu ${phase} hook (hooksmith run Class.${phase}).`,
    ...allowSchemaKey(toJson(CAYU_CONTEXT_SCHEMAS[phase]), payloadCaseProperties()),
  };
}

function withoutDraft(s: Json): Json {
  const { $schema: _drop, ...rest } = s;
  return rest;
}

const DRAFT = 'http://json-schema.org/draft-07/schema#';

/** Relative path under schemas/ → schema object. */
export function buildSchemas(): Record<string, Json> {
  const out: Record<string, Json> = {};
  const definitions: Json = {};
  for (const t of PAYLOAD_TYPES) {
    const s = payloadJson(t);
    out[`payloads/${t.name}.schema.json`] = s;
    definitions[t.name] = withoutDraft(s);
  }
  for (const phase of CAYU_PHASE_IDS) {
    const s = cayuJson(phase);
    out[`payloads/cayu-${phase}.schema.json`] = s;
    definitions[`cayu_${phase}`] = withoutDraft(s);
  }
  out['payload.schema.json'] = {
    $schema: DRAFT,
    title: 'Hooksmith payload file',
    description:
      'A sample payload for `hooksmith run`: the fields of one Mantle payload type (identity included), or the context data of a Cayu phase.',
    definitions,
    anyOf: Object.keys(definitions).map((k) => ({ $ref: `#/definitions/${k}` })),
  };
  out['scenario.schema.json'] = {
    title: 'Hooksmith turn scenario',
    ...allowSchemaKey(toJson(scenarioSchema)),
  };
  out['mantle-scenario.schema.json'] = {
    title: 'Mantle eval scenario file',
    ...toJson(mantleScenarioDocument),
  };
  return out;
}

/** A payload case's own keys (`hook`, `expect`, …): the editor's completion in `.hooksmith/payloads/*.json`. */
export function payloadCaseJson(): Json {
  return { type: 'object', properties: payloadCaseProperties() };
}

/** The text written for a schema (stable: two-space JSON and a newline). */
export function schemaText(s: Json): string {
  return JSON.stringify(s, null, 2) + '\n';
}
