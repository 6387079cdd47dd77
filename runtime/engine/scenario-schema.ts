// Turn scenarios (`*.scenario.yaml` / `*.scenario.json`): what the user says, what the mock LLM
// answers (in order), what mock tools return, knowledge passages, interruption. The JSON Schema
// in schemas/scenario.schema.json is generated from this (scripts/gen-schemas.ts).
//
// Quiet calls: a completion with `quiet: rephrase | confirm_rephrase | set_fields` is a quiet
// LLM call, played where it stands in the list (between main-loop completions). It fires the
// model request/response points with that context and never counts as an iteration.
import { z } from 'zod';
import { QUIET_CALLS } from '../catalogue';
import { scenarioExpect, scenarioGoals } from './expect-schema';

const jsonObject = z.record(z.string(), z.unknown());

// Bounds: a scenario scripts one turn, and the simulator really sleeps its latencies; numbers
// beyond these are mistakes (2e9 ms is 23 days; past 2^31 ms Node's timers fire at once).
export const SCENARIO_LIMITS = {
  /** Scripted latency of one completion, tool or knowledge search. */
  latencyMs: 60_000,
  maxIterations: 1_000,
  completions: 10_000,
  toolCallsPerCompletion: 1_000,
  passages: 10_000,
} as const;

const latencyMs = z.number().nonnegative().max(SCENARIO_LIMITS.latencyMs).default(0);

export const scenarioToolCall = z.strictObject({
  id: z.string().optional().describe('Tool-call id; generated (call_<n>) when absent.'),
  tool_name: z.string().min(1).describe('Tool to call: a mock tool of `tools`, or the knowledge tool.'),
  tool_args: jsonObject
    .default({})
    .describe('Arguments (a JSON object). For the knowledge tool: {"query": "..."}.'),
});

export const scenarioCompletion = z
  .strictObject({
    text: z.string().nullable().optional().describe('Assistant text of this completion.'),
    tool_calls: z
      .array(scenarioToolCall)
      .max(SCENARIO_LIMITS.toolCallsPerCompletion)
      .default([])
      .describe('Tool calls of this completion (one batch).'),
    latency_ms: latencyMs.describe('Scripted provider latency (the simulator waits this long).'),
    quiet: z
      .enum(QUIET_CALLS)
      .optional()
      .describe(
        'Play this completion as a quiet call (rephrase, confirm_rephrase, set_fields) instead of a main-loop iteration.',
      ),
    error: z
      .string()
      .optional()
      .describe('The provider fails with this message: the turn ends with status error.'),
  })
  .describe(
    'One scripted LLM completion. Neither text nor tool_calls: an empty completion (the engine retries with the same hooked request).',
  );

export const scenarioTool = z
  .strictObject({
    value: z
      .unknown()
      .optional()
      .describe(
        'The JSON value the tool returns; the engine serialises it to JSON text for the tool result.',
      ),
    error: z.string().optional().describe('The tool fails with this message (is_error: true).'),
    latency_ms: latencyMs.describe('Scripted tool latency.'),
  })
  .describe('A mock tool.');

export const scenarioPassage = z
  .object({
    text: z.string(),
    scope: z.string().default('faq'),
    source: z.string().default('faq.md'),
    score: z.number().optional(),
  })
  .loose();

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().optional().describe('Shown in the timeline header.'),
    agent: z
      .string()
      .optional()
      .describe(
        'Agent root, relative to this file (default: the folder holding the scenario); it must lie inside this file’s folder tree or the workspace.',
      ),
    user: z.string().describe('The user message that starts the turn.'),
    sender_id: z.string().min(1).default('demo-user'),
    channel: z
      .union([z.string(), z.strictObject({ name: z.string(), metadata: jsonObject.default({}) })])
      .default('rest')
      .describe('Channel name, or {name, metadata}.'),
    call: jsonObject
      .nullable()
      .default(null)
      .describe('Telephony/session metadata, when the channel supplies it.'),
    is_voice: z.boolean().default(false),
    system_prompt: z.string().default('You are a helpful assistant.'),
    completions: z
      .array(scenarioCompletion)
      .max(SCENARIO_LIMITS.completions)
      .default([])
      .describe('The mock LLM’s completions, in the order the engine asks for them.'),
    tools: z.record(z.string(), scenarioTool).default({}).describe('Mock tools by name.'),
    knowledge: z
      .strictObject({
        tool: z
          .string()
          .default('search_knowledge')
          .describe('The tool name that searches knowledge (fires the knowledge query/results points).'),
        passages: z.array(scenarioPassage).max(SCENARIO_LIMITS.passages).default([]),
        latency_ms: latencyMs,
      })
      .optional(),
    interrupt: z
      .strictObject({
        after_iteration: z
          .number()
          .int()
          .nonnegative()
          .max(SCENARIO_LIMITS.maxIterations)
          .describe(
            'Interrupt (e.g. barge-in) once this many main-loop iterations have finished; 0: before the first model request.',
          ),
      })
      .optional()
      .describe('Interrupt the turn: status cancelled.'),
    max_iterations: z
      .number()
      .int()
      .positive()
      .max(SCENARIO_LIMITS.maxIterations)
      .default(10)
      .describe('Per-turn iteration cap.'),
    fire_unwired: z
      .boolean()
      .default(false)
      .describe(
        'Also fire incoming_message and outgoing_text, which the engine does not invoke today (labelled so).',
      ),
    expect: scenarioExpect.optional(),
    goals: scenarioGoals.optional(),
  })
  .describe('A Hooksmith turn scenario.');

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioCompletion = z.infer<typeof scenarioCompletion>;
export type ScenarioToolCall = z.infer<typeof scenarioToolCall>;
