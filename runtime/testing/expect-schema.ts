// Expectations: what makes a scenario or a saved payload a test. A scenario's `expect:` block
// (or Mantle's `goals.assertions` list, same keys one per item) is checked against the played
// turn; a payload file's `expect` block against one run of the hook its `hook:` key names.
// The JSON Schemas (schemas/scenario.schema.json, payload.schema.json) are generated from these.
import { z } from 'zod';

const OUTCOMES = [
  'returned',
  'retry-model',
  'hook-rejection',
  'crashed',
  'timed-out',
  'invalid-return',
  'ignored-signal',
] as const;

const jsonObject = z.record(z.string(), z.unknown());
const oneOrMany = <T extends z.ZodType>(s: T) => z.union([s, z.array(s)]);

/** Text of what the user saw: each key one check; several keys must all hold. */
export const textMatch = z
  .strictObject({
    equals: z.string().optional().describe('The text equals this exactly.'),
    contains: oneOrMany(z.string()).optional().describe('The text contains this (each of these).'),
    matches: z.string().optional().describe('The text matches this regular expression (JavaScript syntax).'),
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

/** Selects timeline events: a point id (`tool_call`), a handler (`guard_orders`), or both (`tool_call:guard_orders`). */
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

/** One Mantle-style assertion: a mapping with exactly one of the expect keys. */
export const goalAssertion = z
  .strictObject(expectShape)
  .refine((o) => Object.values(o).filter((v) => v !== undefined).length === 1, {
    message: 'an assertion has exactly one key',
  });

export const scenarioGoals = z
  .strictObject({
    assertions: z.array(goalAssertion).default([]).describe('Mantle eval style: a list of one-key checks.'),
  })
  .describe('Mantle eval scenario goals (assertions only; criteria need an LLM judge).');

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
