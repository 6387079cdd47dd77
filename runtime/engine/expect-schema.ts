// Expectations: what makes a scenario or a saved payload a test. A scenario's `expect:` block
// (or Mantle's `goals.assertions` list, same keys one per item) is checked against the played
// turn; a payload file's `expect` block against one run of the hook its `hook:` key names.
// The JSON Schemas (schemas/scenario.schema.json, payload.schema.json) are generated from these.
import { OUTCOMES } from './api';
import { userRegexProblem } from './user-regex';
import leven from 'leven';
import { z } from 'zod';
import { ISSUE_KIND_PARAM, OTHER_BRANCH, SUGGESTION_PARAM } from '../json/json-path';

const jsonObject = z.record(z.string(), z.unknown());
const oneOrMany = <T extends z.ZodType>(s: T) => z.union([s, z.array(s)]);

/** Text of what the user saw: each key one check; several keys must all hold. */
export const textMatch = z
  .strictObject({
    equals: z.string().optional().describe('The text equals this exactly.'),
    contains: oneOrMany(z.string()).optional().describe('The text contains this (each of these).'),
    matches: z
      .string()
      .superRefine((source, ctx) => {
        const problem = userRegexProblem(source);
        if (problem)
          ctx.addIssue({
            code: 'custom',
            message: `invalid regular expression: ${problem}`,
            params: { [ISSUE_KIND_PARAM]: 'invalid-regex' },
          });
      })
      .optional()
      .describe(
        'The text matches this regular expression (RE2 syntax: JavaScript’s without look-around or back-references).',
      ),
    not_contains: oneOrMany(z.string())
      .optional()
      .describe('The text contains none of these (case-sensitive).'),
  })
  .describe('Checks on a text. Several keys: all must hold.');

/** `snapshot` (not recorded yet) or `{snapshot: value}` (recorded by `hooksmith test --update`). */
const snapshotOf = <T extends z.ZodType>(value: T) =>
  z.union([z.literal('snapshot'), z.strictObject({ snapshot: value })]);

export const toolExpectation = z
  .strictObject({
    tool_name: z.string().min(1).describe('The tool.'),
    arguments: jsonObject
      .optional()
      .describe('Subset match of the arguments the tool ran with (nested objects too).'),
  })
  .describe('A tool the engine ran (a tool blocked or short-circuited by a hook did not run).');

/**
 * Selects timeline events: a point id (`tool_call`), a handler (`guard_orders`), or both
 * (`tool_call:guard_orders`).
 */
const eventSelector = z
  .string()
  .min(1)
  .describe(
    'A point or phase (`tool_call`), a hook (`guard_orders`, `hooks/tool_hooks.py::guard_orders`), or `point:hook`.',
  );

export const hookExpectation = z
  .strictObject({
    point: z.string().min(1).optional().describe('Insertion point or Cayu phase.'),
    hook: z.string().min(1).optional().describe('Handler name, or FILE::HANDLER relative to the agent.'),
    outcome: z.enum(OUTCOMES).describe('Some run of this hook at this point had this outcome.'),
  })
  .describe("A hook's outcome at a point (at least one matching run).");

export const payloadExpectation = z
  .strictObject({
    point: z.string().min(1).optional().describe('Insertion point or Cayu phase.'),
    hook: z.string().min(1).optional().describe('Handler name, or FILE::HANDLER relative to the agent.'),
    where: jsonObject
      .optional()
      .describe('Only runs whose input payload matches this subset (e.g. {tool_name: lookup_customer}).'),
    fields: jsonObject
      .optional()
      .describe('Subset match of the payload after the hook (every matching run).'),
    not_contains: oneOrMany(z.string())
      .optional()
      .describe('The payload after the hook, as JSON text, contains none of these (every matching run).'),
  })
  .describe('The payload the engine carries on with after a hook.');

export const orderExpectation = z
  .strictObject({
    first: eventSelector.describe('Happens (its first occurrence) …'),
    then: eventSelector.describe('… before the first occurrence of this.'),
  })
  .describe('Event order: both happen, the first occurrence of `first` before that of `then`.');

const STATUS = z.enum(['completed', 'cancelled', 'error']);

const expectShape = {
  status: STATUS.optional().describe('How the turn ended.'),
  transcript: z
    .union([textMatch, snapshotOf(z.string())])
    .optional()
    .describe(
      'The user-visible bot text (bot lines joined by a newline): checks, or `snapshot` (recorded by --update).',
    ),
  agent_message: textMatch
    .optional()
    .describe('Mantle name: some single bot message (one line the user saw) passes these checks.'),
  final_message: oneOrMany(textMatch)
    .optional()
    .describe(
      "The last bot message (Cayu's final output) passes these checks; a list: each item its own check.",
    ),
  tool_called: oneOrMany(toolExpectation).optional().describe('Tools the engine ran (Mantle name).'),
  tool_not_called: oneOrMany(toolExpectation)
    .optional()
    .describe('Tools that did not run (with `arguments`: not with those arguments).'),
  hook_outcome: oneOrMany(hookExpectation).optional(),
  payload_after: oneOrMany(payloadExpectation).optional(),
  within_budget: z.boolean().optional().describe('true: no hook ran over its budget (timeout_ms).'),
  no_crashes: z
    .boolean()
    .optional()
    .describe('true: no hook crashed, timed out, returned an invalid value or raised an ignored signal.'),
  order: oneOrMany(orderExpectation).optional().describe('Event order (A before B).'),
};

export const scenarioExpect = z.strictObject(expectShape).describe('What the played turn must show.');

// Mantle's skill checks (rasa.com/docs/mantle/reference/assertions, section "Skill": Key /
// Required / Optional). They read skill lifecycle events, which only the Mantle engine records;
// a hook simulation has no skills, so they are accepted and reported as not checked.
const skillId = z.string().min(1).describe('The skill folder name (skills/<skill_id>/skill.md).');
const stepId = z
  .string()
  .min(1)
  .optional()
  .describe('The step the skill was on when the event was recorded.');
const skillCheck = <T extends z.ZodRawShape>(shape: T) =>
  z
    .strictObject(shape)
    .optional()
    .describe(
      'Mantle skill check: accepted, reported as not checked by Hooksmith (needs the Mantle engine).',
    );
const engineOnlyShape = {
  skill_activated: skillCheck({ skill_id: skillId }),
  skill_completed: skillCheck({ skill_id: skillId }),
  skill_cancelled: skillCheck({ skill_id: skillId, step_id: stepId }),
  skill_interrupted: skillCheck({ skill_id: skillId, step_id: stepId }),
  skill_resumed: skillCheck({ skill_id: skillId, step_id: stepId }),
};

/** Keys Hooksmith checks, and Mantle keys it knows but cannot check. */
export const CHECKED_KEYS: ReadonlySet<string> = new Set(Object.keys(expectShape));
export const ENGINE_ONLY_KEYS: ReadonlySet<string> = new Set(Object.keys(engineOnlyShape));
const KNOWN = [...CHECKED_KEYS, ...ENGINE_ONLY_KEYS];

/** A key one or two edits from a known one is a typo, not another engine's check. */
export const nearKnownKey = (key: string): string | undefined => KNOWN.find((k) => leven(key, k) <= 2);

const oneKey = (o: object) => Object.values(o).filter((v) => v !== undefined).length === 1;

/** One Mantle assertion that Hooksmith knows: exactly one key, checked or engine-only. */
const knownAssertion = z.looseObject({ ...expectShape, ...engineOnlyShape }).superRefine((o, ctx) => {
  const unknown = Object.keys(o).filter((k) => !KNOWN.includes(k));
  if (unknown.length) ctx.addIssue({ code: 'custom', message: `not a key Hooksmith knows ${OTHER_BRANCH}` });
  else if (!oneKey(o)) ctx.addIssue({ code: 'custom', message: 'an assertion has exactly one key' });
});

/**
 * Any other one-key assertion: one of Mantle's checks Hooksmith does not check (ordered blocks,
 * memory, flows, …). Accepted so a Mantle goals block stays usable, and reported as not checked;
 * never a pass. A near miss of a known key is an error (a typo).
 */
const otherAssertion = z
  .record(
    z.string().regex(new RegExp(`^(?!(${KNOWN.join('|')})$)`), `a key Hooksmith knows ${OTHER_BRANCH}`),
    z.unknown(),
  )
  .refine((o) => Object.keys(o).length === 1, { message: 'an assertion has exactly one key' })
  .superRefine((o, ctx) => {
    for (const k of Object.keys(o)) {
      const near = nearKnownKey(k);
      if (near)
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `unknown key '${k}' (did you mean '${near}'?)`,
          params: { [ISSUE_KIND_PARAM]: 'unknown-key', [SUGGESTION_PARAM]: near },
        });
    }
  })
  .describe(
    "Another of Mantle's checks: accepted, reported as not checked by Hooksmith (needs the Mantle engine).",
  );

export const goalAssertion = z.union([knownAssertion, otherAssertion]);

export const scenarioGoals = z
  .strictObject({
    assertions: z
      .array(goalAssertion)
      .default([])
      .describe(
        "Mantle's deterministic checks, one key per item; those a hook simulation cannot make are reported as not checked.",
      ),
    criteria: z
      .array(z.string())
      .default([])
      .describe(
        'Plain-language criteria an LLM judge scores in Mantle: accepted, reported as not checked by Hooksmith.',
      ),
  })
  .describe('Mantle eval scenario goals.');

export const payloadCaseExpect = z
  .strictObject({
    outcome: z.enum(OUTCOMES).optional().describe('The run ends with this outcome.'),
    fields: z
      .union([snapshotOf(jsonObject), jsonObject])
      .optional()
      .describe(
        'Subset match of the returned payload (after the payload wall); `snapshot` records the whole payload with --update.',
      ),
    not_contains: oneOrMany(z.string())
      .optional()
      .describe('The returned payload, as JSON text, contains none of these.'),
    signal_contains: z
      .string()
      .optional()
      .describe("The raised signal's message (RetryModel feedback or HookRejection reason) contains this."),
    within_budget: z.boolean().optional().describe('true: the hook ran within its budget.'),
  })
  .describe('What one run of the hook against this payload must show.');

/** The keys a payload file may carry besides the payload's fields. */
export const payloadCaseKeys = {
  hook: z
    .string()
    .regex(/::/)
    .describe('The hook this payload tests: FILE::HANDLER, FILE relative to the agent root.'),
  expect: payloadCaseExpect,
};

export type ScenarioExpect = z.infer<typeof scenarioExpect>;
export type PayloadCaseExpect = z.infer<typeof payloadCaseExpect>;
export type TextMatch = z.infer<typeof textMatch>;
export type ToolExpectation = z.infer<typeof toolExpectation>;
export type HookExpectation = z.infer<typeof hookExpectation>;
export type PayloadExpectation = z.infer<typeof payloadExpectation>;
export type OrderExpectation = z.infer<typeof orderExpectation>;
