// Mantle's eval scenario files as written (`eval/scenarios/*.yml`, rasa.com/docs/mantle/testing/
// scenarios): `scenario:` with `name`, `type`, `simulation_context`, `setup.initial_slots` and
// `goals` (criteria, assertions). Mantle plays the user with an LLM from `simulation_context`;
// so does Hooksmith once a model is given (`user_simulation`, sim-user.ts), or the file carries
// a scripted conversation under `scenario.hooksmith` (Hooksmith's extension key: a scenario's keys).
import * as path from 'node:path';
import { z } from 'zod';
import { scenarioGoals } from './expect-schema';

const jsonObject = z.record(z.string(), z.unknown());

/** The values of `scenario.type` Mantle's docs name (rasa.com/docs/mantle/testing/scenarios, Fields). */
export const MANTLE_SCENARIO_TYPE_EXAMPLES = ['happy_path', 'edge_case'] as const;

export const mantleScenarioDocument = z
  .strictObject({
    $schema: z.string().optional(),
    scenario: z
      .strictObject({
        name: z.string().min(1).describe('The label of this scenario in result files and the batch summary.'),
        // Mantle's docs name `happy_path` and `edge_case` and say any value outside its list fails
        // validation, but the whole list is not published where we can read it: offered, not enforced.
        type: z
          .string()
          .min(1)
          .optional()
          .meta({ examples: [...MANTLE_SCENARIO_TYPE_EXAMPLES] })
          .describe(
            'The kind of case the scenario covers, such as happy_path or edge_case (one of Mantle’s values; it does not change how the scenario runs). Hooksmith checks it is a text, not Mantle’s list.',
          ),
        simulation_context: z
          .string()
          .min(1)
          .describe(
            'A plain-language briefing for the LLM that plays the user across the whole conversation.',
          ),
        setup: z
          .strictObject({
            initial_slots: jsonObject.optional().describe('Slot values set before the first user turn.'),
          })
          .optional(),
        goals: scenarioGoals.optional(),
        hooksmith: jsonObject
          .optional()
          .describe(
            'Hooksmith’s extension: a scripted conversation (a scenario’s keys: turns, tools, knowledge, …) so the file runs under Hooksmith; Mantle plays the user itself.',
          ),
      })
      .describe('A Mantle eval scenario.'),
  })
  .describe('A Mantle eval scenario file (eval/scenarios/*.yml).');

export type MantleScenarioDocument = z.infer<typeof mantleScenarioDocument>;

/** Where Mantle keeps its scenarios: `<agent>/eval/scenarios/<name>.yml`. */
export function isMantleScenarioPath(file: string): boolean {
  const dir = path.dirname(file);
  return (
    /\.ya?ml$/.test(file) && path.basename(dir) === 'scenarios' && path.basename(path.dirname(dir)) === 'eval'
  );
}

/** A parsed document in Mantle's form (a `scenario:` mapping at its top). */
export function isMantleDocument(doc: unknown): doc is { scenario: unknown } {
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc) && 'scenario' in doc;
}

/** The agent a Mantle scenario file belongs to: the folder holding `eval/`. */
export function mantleAgentBase(file: string): string {
  return isMantleScenarioPath(file) ? path.dirname(path.dirname(path.dirname(file))) : path.dirname(file);
}

/** Why a Mantle file with only simulation_context cannot play, in the CLI's or the editor's words. */
export function needsMantleModel(audience: 'cli' | 'editor' = 'cli'): string {
  const setting = audience === 'editor' ? 'the hooksmith.model setting' : 'hooksmith test --model …';
  return `needs a model: an LLM plays the user from simulation_context; give one (${setting}, or scenario.hooksmith.model), or add a scripted conversation under scenario.hooksmith (turns: …)`;
}

export const NEEDS_MANTLE = needsMantleModel('cli');

/** Mantle's docs: a scenario without goals records its conversation and cannot fail. */
export const TRANSCRIPT_ONLY =
  "transcript only: without goals Mantle records this conversation's transcript and the file cannot fail; add goals (assertions) to check it";

/**
 * The Hooksmith scenario a Mantle document plays: its scripted conversation, or else an
 * LLM-played user from `simulation_context` (runnable once a model is given). `scripted` says which.
 */
export function hooksmithScenarioOf(doc: MantleScenarioDocument): {
  scenario: Record<string, unknown>;
  scripted: boolean;
} {
  const { name, goals, hooksmith = {}, simulation_context } = doc.scenario;
  const base = { ...hooksmith, name, ...(goals ? { goals } : {}) };
  if ('turns' in hooksmith || 'user' in hooksmith) return { scenario: base, scripted: true };
  const own = (hooksmith.user_simulation ?? {}) as Record<string, unknown>;
  return {
    scenario: { ...base, user_simulation: { context: simulation_context, ...own } },
    scripted: !!hooksmith.model || !!own.model,
  };
}

/** A key of the played scenario → where it stands in the Mantle file (goals, or the conversation). */
export function mantleKeyPath(p: readonly (string | number)[]): (string | number)[] {
  return p[0] === 'goals' || p[0] === 'name' ? ['scenario', ...p] : ['scenario', 'hooksmith', ...p];
}
