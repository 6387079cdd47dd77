// The Mantle eval-file schema as the installed rasa-pro checks it, built from its own schema
// (catalogue/mantle-eval-line.ts: scenario_schema.yml as the package ships it, read by
// scripts/introspect-mantle-eval.py). pykwalify's rules as rasa-pro 3.21's load_scenario applies
// them (rasa/builder/copilot/mcp_server/tools/scenario.py:84), which
// test/runtime/mantle-eval-line.test.ts holds equal to the loader's verdicts:
// - a map's keys are those its `mapping` names (else "Key 'x' was not defined"), any key where
//   it names only `regex;` keys; `range` bounds its number of keys (an assertion has exactly one);
// - a null value: refused where `required` ("required.novalue"), `nullable: false`, or a map is
//   expected ("is not a dict"); taken elsewhere (a list, a text);
// - `float` takes whole numbers too; `include` names a `schema;<name>` of the same file;
// - then the pydantic models (scenario.py:43-71): goals' lists are lists, criteria texts.
import { z } from 'zod';
import { EVAL_ENGINE, MANTLE_EVAL_LINE, type EvalSchemaNode } from '../catalogue/mantle-eval-line';
import { ISSUE_KIND_PARAM, nearestKey, SUGGESTION_PARAM } from '../json/json-path';

const SCHEMA = MANTLE_EVAL_LINE.schema;
const FACTS = MANTLE_EVAL_LINE.facts;

/** Where the pydantic models refuse a null pykwalify takes (ScenarioGoals: List[...], List[str]). */
const NOT_NULL = new Set(['goals.assertions', 'goals.criteria', 'goals.expected_tools', 'goals.criteria[]']);

function resolved(node: EvalSchemaNode): EvalSchemaNode {
  if (!node.include) return node;
  const named = SCHEMA[`schema;${node.include}`];
  if (!named) throw new Error(`${MANTLE_EVAL_LINE.schemaFile}: no schema;${node.include}`);
  return { ...named, ...(node.required ? { required: true } : {}) };
}

function typeOf(node: EvalSchemaNode): string {
  return node.type ?? (node.mapping ? 'map' : node.sequence ? 'seq' : 'any');
}

/** The value of `node` where it is not null. */
function valueOf(node: EvalSchemaNode, at: string): z.ZodType {
  switch (typeOf(node)) {
    case 'str':
      return z.string();
    case 'bool':
      return z.boolean();
    case 'float':
    case 'number':
      return z.number();
    case 'int':
      return z.number().int();
    case 'map':
      return mapOf(node, at);
    case 'seq':
      return seqOf(node, at);
    default:
      return z.unknown();
  }
}

/** `node` as one key's value (or one list item's): null where pykwalify and the models take it. */
function slotOf(raw: EvalSchemaNode, at: string): z.ZodType {
  const node = resolved(raw);
  let value = valueOf(node, at);
  if (node.enum) value = z.enum(node.enum as [string, ...string[]]);
  const nullTaken = typeOf(node) !== 'map' && node.nullable !== false && !node.required && !NOT_NULL.has(at);
  if (nullTaken) return value.nullable();
  // `any` takes null in zod; pykwalify's `nullable: false` (and `required`) does not.
  return typeOf(node) === 'any' ? value.refine((v) => v !== null, 'a value (null is refused)') : value;
}

const keysIn = (range: EvalSchemaNode['range']): string =>
  range?.min === range?.max ? `exactly ${range?.min}` : `${range?.min ?? 0} to ${range?.max ?? 'any'}`;

function mapOf(node: EvalSchemaNode, at: string): z.ZodType {
  const mapping = node.mapping ?? {};
  const keys = Object.keys(mapping);
  const regex = keys.filter((k) => k.startsWith('regex;'));
  if (!keys.length || regex.length === keys.length) {
    const value = regex.length ? slotOf(mapping[regex[0]!]!, `${at}{}`) : z.unknown();
    return z.record(z.string(), value);
  }
  const shape: Record<string, z.ZodType> = {};
  for (const k of keys) {
    const child = mapping[k]!;
    const slot = slotOf(child, `${at ? `${at}.` : ''}${k}`);
    shape[k] = resolved(child).required ? slot : slot.optional();
  }
  const map = z.strictObject(shape);
  const range = node.range;
  if (!range) return map;
  return map.superRefine((o, ctx) => {
    const n = Object.keys(o).length;
    if ((range.min !== undefined && n < range.min) || (range.max !== undefined && n > range.max))
      ctx.addIssue({ code: 'custom', message: `takes ${keysIn(range)} key(s), has ${n}` });
  });
}

function seqOf(node: EvalSchemaNode, at: string): z.ZodType {
  const items = (node.sequence ?? []).map((s) => slotOf(s, `${at}[]`));
  const item = items.length === 1 ? items[0]! : z.union(items as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  let list = z.array(item);
  if (node.range?.min !== undefined) list = list.min(node.range.min);
  if (node.range?.max !== undefined) list = list.max(node.range.max);
  return withFuncCheck(list, node);
}

/**
 * rasa/e2e_test/pykwalify_extensions.py require_assertion_keys (facts.assertionsCheck): an empty
 * bot_uttered, or its buttons null or empty, is refused. Its flow_started and
 * pattern_clarification_contains checks are not mirrored (the schema takes any value there).
 */
function withFuncCheck(list: z.ZodType, node: EvalSchemaNode): z.ZodType {
  if (node.func !== 'require_assertion_keys') return list;
  return list.superRefine((value, ctx) => {
    (value as unknown[]).forEach((a, i) => {
      const uttered = (a as Record<string, unknown> | null)?.bot_uttered;
      if (!uttered || typeof uttered !== 'object') return;
      const o = uttered as Record<string, unknown>;
      if (!Object.keys(o).length)
        ctx.addIssue({ code: 'custom', path: [i, 'bot_uttered'], message: 'an empty bot_uttered' });
      else if ('buttons' in o && !(Array.isArray(o.buttons) && o.buttons.length))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'bot_uttered', 'buttons'],
          message: 'buttons null or empty',
        });
    });
  });
}

/** A key's description in the editor: what the engine says it is, and where. */
const described = (key: string, source: string, what: string) => `${what} (${EVAL_ENGINE}: ${source})`;

function withDescriptions(
  shape: Record<string, z.ZodType>,
  facts: readonly { key: string; source: string }[],
  what: (key: string) => string,
): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(shape)) {
    const fact = facts.find((f) => f.key === k);
    out[k] = fact ? v.describe(described(k, fact.source, what(k))) : v;
  }
  return out;
}

const ASSERTION_WHAT = (k: string) =>
  `the ${k} assertion, checked by the Mantle engine against its tracker; Hooksmith reports it as not checked`;

/** The engine's goals: assertions (one kind per item), criteria, expected_tools. */
function goalsOf(node: EvalSchemaNode): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, child] of Object.entries(node.mapping ?? {}))
    shape[k] = (k === 'assertions' ? assertionsOf(resolved(child)) : slotOf(child, `goals.${k}`)).optional();
  return z.strictObject(
    withDescriptions(shape, FACTS.goalsKeys, (k) =>
      k === 'assertions'
        ? 'deterministic checks against the tracker, one kind per item'
        : k === 'criteria'
          ? 'plain-language criteria an LLM judge scores; Hooksmith reports them as not checked'
          : 'the tools the run is expected to call (tool_called, or a tool_group), scored by the Mantle evaluator; Hooksmith reports them as not checked',
    ),
  );
}

/** goals.assertions: a list, each item exactly one of the engine's kinds, with its shape. */
function assertionsOf(node: EvalSchemaNode): z.ZodType {
  const item = resolved(node.sequence![0]!);
  const kinds = withDescriptions(
    (mapOf({ ...item, range: undefined }, 'goals.assertions[]') as z.ZodObject).shape as Record<
      string,
      z.ZodType
    >,
    FACTS.assertionKinds,
    ASSERTION_WHAT,
  );
  const one = FACTS.oneKeyPerAssertion.range;
  const known = Object.keys(kinds);
  const assertion = z
    .looseObject(kinds)
    .superRefine(
      (o, ctx) => {
        const keys = Object.keys(o);
        for (const key of keys.filter((k) => !known.includes(k))) {
          const suggestion = nearestKey(key, known);
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `'${key}' is not an assertion kind of ${EVAL_ENGINE} (${FACTS.assertionKinds.length} kinds, ${MANTLE_EVAL_LINE.schemaFile}); its loader refuses the file${suggestion ? ` (did you mean '${suggestion}'?)` : ''}. Hooksmith's own checks go under scenario.hooksmith.expect`,
            params: {
              [ISSUE_KIND_PARAM]: 'unknown-key',
              ...(suggestion ? { [SUGGESTION_PARAM]: suggestion } : {}),
            },
          });
        }
        if (keys.length !== one.min || keys.length !== one.max)
          ctx.addIssue({
            code: 'custom',
            message: `an assertion has ${keysIn(one)} key (its kind), has ${keys.length}`,
          });
      },
      { when: () => true } as never,
    )
    .meta({ additionalProperties: false })
    .describe(`One assertion: one of ${EVAL_ENGINE}'s ${FACTS.assertionKinds.length} kinds.`);
  return withFuncCheck(z.array(assertion), node);
}

/** The `scenario:` mapping's keys as rasa-pro checks them (name, simulation_context, setup, goals). */
export function engineScenarioShape(): Record<string, z.ZodType> {
  const scenario = (SCHEMA as EvalSchemaNode).mapping!.scenario!;
  const shape: Record<string, z.ZodType> = {};
  for (const [k, child] of Object.entries(scenario.mapping!)) {
    const slot = k === 'goals' ? goalsOf(child) : slotOf(child, k);
    shape[k] = child.required ? slot : slot.optional();
  }
  return withDescriptions(shape, FACTS.scenarioKeys, (k) =>
    k === 'name'
      ? 'the label of this scenario in result files and the batch summary'
      : k === 'simulation_context'
        ? 'a plain-language briefing for the LLM that plays the user across the whole conversation'
        : k === 'setup'
          ? 'initial state set before the simulation starts (initial_slots)'
          : 'the pass condition: assertions, criteria, expected_tools',
  );
}

/** The keys the engine's scenario mapping takes (for an unknown key's message). */
export const ENGINE_SCENARIO_KEYS: readonly string[] = FACTS.scenarioKeys.map((k) => k.key);

/** Why a `type:` key is refused: the engine's schema has none, its loader says so. */
export const TYPE_KEY_REFUSED = `${EVAL_ENGINE}'s eval scenario has no \`type\` (${FACTS.typeKey.source}); its loader refuses the file: ${FACTS.typeKey.loader.error ?? 'not defined'}`;
