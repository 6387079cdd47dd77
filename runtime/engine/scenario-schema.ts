// Turn scenarios (`*.scenario.yaml` / `*.scenario.json`): what the user says, what the mock LLM
// answers (in order), what mock tools return, knowledge passages, interruption. The JSON Schema
// in schemas/scenario.schema.json is generated from this (scripts/gen-schemas.ts).
//
// Quiet calls: a completion with `quiet: rephrase | confirm_rephrase | set_fields` is a quiet
// LLM call, played where it stands in the list (between main-loop completions). It fires the
// model request/response points with that context and never counts as an iteration.
import { z } from 'zod';
import { MANTLE_POINTS, QUIET_CALLS } from '../catalogue';
import { CATALOGUE_RASA_PRO } from '../catalogue/wiring';
import { scenarioExpect, scenarioGoals } from './expect-schema';
import { modelConfig } from '../models';

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
  turns: 1_000,
  simulatedTurns: 50,
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
    raises: z
      .string()
      .optional()
      .describe(
        "The tool raises an exception (RuntimeError) with this message: the result is the message (is_error: true); Cayu's after_tool_call hooks run but their modify is ignored (a tool's default effect is external).",
      ),
    denied: z
      .string()
      .optional()
      .describe(
        "Cayu: the agent's tool policy denies the call with this reason; the tool and the before_tool_call hooks do not run, after_tool_call hooks observe.",
      ),
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

const interrupt = z
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
  .describe('Interrupt the turn: status cancelled.');

/**
 * The user's side of a turn: one message, or several the turn starts with together, as a Cayu
 * run's input carries them (RunRequest.messages; `cayu eval` sends a corpus case's messages so,
 * cayu/evals/execution.py:1202). Mantle takes one message a turn.
 */
const userInput = z
  .union([z.string(), z.array(z.string()).min(1).max(SCENARIO_LIMITS.turns)])
  .describe(
    'The user message that starts the turn, or a list: several messages the turn starts with together (one Cayu run’s input; the agent answers once).',
  );

const completions = z
  .array(scenarioCompletion)
  .max(SCENARIO_LIMITS.completions)
  .default([])
  .describe('The mock LLM’s completions, in the order the engine asks for them.');

/** One turn of a conversation: its user message, its completions, what differs from the scenario's. */
export const scenarioTurn = z
  .strictObject({
    name: z.string().optional().describe('Shown in the timeline and the Testing view (default: "turn N").'),
    user: userInput,
    completions: completions.describe('The mock LLM’s completions for this turn, in order.'),
    tools: z
      .record(z.string(), scenarioTool)
      .optional()
      .describe('Mock tools for this turn, by name, over the scenario’s `tools`.'),
    passages: z
      .array(scenarioPassage)
      .max(SCENARIO_LIMITS.passages)
      .optional()
      .describe('Knowledge passages the search returns in this turn (instead of `knowledge.passages`).'),
    interrupt: interrupt.optional(),
    expect: scenarioExpect.optional().describe('What this turn must show (its events, bot text, tools).'),
  })
  .describe('One turn of the conversation.');

/**
 * One form or the other: a one-turn scenario (`user`) or a conversation (`turns`). Checked even
 * when other keys are invalid (`when`), so a missing `user` is named with the rest.
 */
function oneForm(sc: Record<string, unknown>, ctx: z.RefinementCtx): void {
  // Runs on any input (`when`): a document that is no mapping is reported by the object check.
  if (typeof sc !== 'object' || sc === null || Array.isArray(sc)) return;
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (sc.user_simulation !== undefined) {
    // An LLM plays the user: it writes every user message, and a model answers as the agent.
    for (const key of ['user', 'turns', 'completions', 'interrupt'])
      if (sc[key] !== undefined && !(key === 'completions' && Array.isArray(sc[key]) && !sc[key].length))
        issue(
          key,
          `\`${key}\` and \`user_simulation\` exclude each other: the simulated user writes the turns`,
        );
    return;
  }
  if (sc.turns === undefined) {
    if (sc.user === undefined)
      issue('user', 'a scenario needs `user` (or `turns`, a conversation, or `user_simulation`)');
    return;
  }
  if (sc.user !== undefined)
    issue('user', '`user` and `turns` exclude each other: put the message in a turn');
  if (Array.isArray(sc.completions) && sc.completions.length)
    issue('completions', 'with `turns`, each turn holds its own `completions`');
  if (sc.interrupt !== undefined) issue('interrupt', 'with `turns`, interrupt a turn (`turns[i].interrupt`)');
}

/** An LLM plays the user, turn by turn, until it says its goal is reached or the turn limit. */
export const userSimulation = z
  .strictObject({
    context: z
      .string()
      .min(1)
      .describe('Who the user is and what they want: the briefing of the model that plays them.'),
    max_turns: z
      .number()
      .int()
      .positive()
      .max(SCENARIO_LIMITS.simulatedTurns)
      .default(5)
      .describe('The conversation ends after this many user turns at the latest.'),
    stop_when: z
      .string()
      .min(1)
      .optional()
      .describe(
        'When the simulated user ends the conversation, in plain words (default: when its goal is reached or cannot be).',
      ),
    model: modelConfig
      .optional()
      .describe(
        'The model that plays the user (default: the scenario’s `model`, or the one given for every scenario).',
      ),
  })
  .describe('An LLM-played user (Mantle’s simulation_context): needs a model for the agent too.');

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
    user: userInput
      .optional()
      .describe('The user message that starts the turn (a one-turn scenario), or a list.'),
    turns: z
      .array(scenarioTurn)
      .min(1)
      .max(SCENARIO_LIMITS.turns)
      .optional()
      .describe(
        'A conversation: its turns in order, played on one warm host (instead of `user`/`completions`).',
      ),
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
    system_prompt: z
      .string()
      .default('You are a helpful assistant.')
      .describe(
        'The agent’s instructions: the first message of every model request (what a real `model:` is told).',
      ),
    completions,
    user_simulation: userSimulation.optional(),
    model: modelConfig
      .optional()
      .describe(
        'A real model plays the agent once the scripted completions run out (or from the start): Hooksmith sends it the hooked request, `system_prompt` as its instructions; its exchanges are recorded to .hooksmith/cassettes/<scenario>.jsonl and replayed.',
      ),
    tools: z.record(z.string(), scenarioTool).default({}).describe('Mock tools by name (every turn’s).'),
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
    cayu: z
      .strictObject({
        app_hooks: z
          .array(z.string())
          .default([])
          .describe(
            'RuntimeHook classes registered at app scope (CayuApp(runtime_hooks=…)), in that order: they run before the agent-scope hooks.',
          ),
      })
      .optional()
      .describe(
        'How the Cayu app registers the hooks (default: every hook at agent scope, in file/class order).',
      ),
    interrupt: interrupt.optional(),
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
        `Also fire the points the engine does not invoke (rasa-pro ${CATALOGUE_RASA_PRO}: ${MANTLE_POINTS.filter(
          (p) => !p.wired,
        )
          .map((p) => p.id)
          .join(', ')}), labelled so.`,
      ),
    expect: scenarioExpect.optional().describe('What the played turn (or the whole conversation) must show.'),
    goals: scenarioGoals.optional(),
  })
  .superRefine(oneForm, { when: () => true })
  .describe('A Hooksmith turn scenario, or a conversation of turns.');

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioTurn = z.infer<typeof scenarioTurn>;
export type ScenarioCompletion = z.infer<typeof scenarioCompletion>;
export type UserSimulation = z.infer<typeof userSimulation>;
export type ScenarioToolCall = z.infer<typeof scenarioToolCall>;
