// Mantle's eval scenario files (`eval/scenarios/*.yml`) as the installed rasa-pro loads them:
// `scenario:` with `name`, `simulation_context`, `setup.initial_slots` and `goals` (assertions,
// criteria, expected_tools), every key and assertion kind from the engine's own schema
// (mantle-eval-schema.ts, catalogue/engine-lines/rasa-pro-3.21-eval.json). rasa-pro 3.21 has no
// `type:` (its loader refuses it, though the docs describe one). Mantle plays the user with an
// LLM from `simulation_context`; so does Hooksmith once a model is given (`user_simulation`,
// sim-user.ts), or the file carries a scripted conversation under `scenario.hooksmith`
// (Hooksmith's extension key: a scenario's keys; rasa-pro's loader refuses a file carrying it).
import * as path from 'node:path';
import { z } from 'zod';
import { ISSUE_KIND_PARAM, nearestKey, SUGGESTION_PARAM } from '../json/json-path';
import { engineScenarioShape, TYPE_KEY_REFUSED } from './mantle-eval-schema';

const jsonObject = z.record(z.string(), z.unknown());

const scenarioShape = {
  ...engineScenarioShape(),
  hooksmith: jsonObject
    .optional()
    .describe(
      'Hooksmith’s extension: a scripted conversation (a scenario’s keys: turns, tools, knowledge, expect, …) so the file runs under Hooksmith; Mantle plays the user itself, and rasa-pro’s loader refuses a file carrying this key.',
    ),
};
const SCENARIO_KEYS = Object.keys(scenarioShape);

/** A key the engine's scenario mapping does not define: `type` with the engine's own words. */
function unknownScenarioKeys(o: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const key of Object.keys(o)) {
    if (SCENARIO_KEYS.includes(key)) continue;
    const suggestion = key === 'type' ? undefined : nearestKey(key, SCENARIO_KEYS);
    const meant = suggestion ? ` (did you mean '${suggestion}'?)` : '';
    ctx.addIssue({
      code: 'custom',
      path: [key],
      message: key === 'type' ? TYPE_KEY_REFUSED : `unknown key '${key}'${meant}`,
      params: {
        [ISSUE_KIND_PARAM]: 'unknown-key',
        ...(suggestion ? { [SUGGESTION_PARAM]: suggestion } : {}),
      },
    });
  }
}

export const mantleScenarioDocument: z.ZodType<MantleScenarioDocument> = z
  .strictObject({
    $schema: z.string().optional(),
    scenario: z
      .looseObject(scenarioShape)
      // Reported beside the other issues of the mapping (a missing simulation_context too).
      .superRefine(unknownScenarioKeys, { when: () => true } as never)
      .meta({ additionalProperties: false })
      .describe('A Mantle eval scenario.'),
  })
  .describe(
    'A Mantle eval scenario file (eval/scenarios/*.yml).',
  ) as unknown as z.ZodType<MantleScenarioDocument>;

/** A parsed Mantle document (the shape is the engine's data, so its type is written out here). */
export interface MantleScenarioDocument {
  $schema?: string;
  scenario: {
    name: string;
    simulation_context: string;
    setup?: { initial_slots?: Record<string, unknown> };
    goals?: { assertions?: Record<string, unknown>[]; criteria?: string[]; expected_tools?: unknown[] };
    hooksmith?: Record<string, unknown>;
  };
}

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
  const played = goals ? { goals: playedGoals(goals) } : {};
  const base = { ...hooksmith, name, ...played };
  if ('turns' in hooksmith || 'user' in hooksmith) return { scenario: base, scripted: true };
  const own = (hooksmith.user_simulation ?? {}) as Record<string, unknown>;
  return {
    scenario: { ...base, user_simulation: { context: simulation_context, ...own } },
    scripted: !!hooksmith.model || !!own.model,
  };
}

/**
 * The engine's goals as the played scenario's: its assertions and criteria (Hooksmith reports
 * what it cannot check as not checked); expected_tools, which only Mantle's evaluator scores,
 * as one more such item, so it is listed, never passed.
 */
function playedGoals(g: NonNullable<MantleScenarioDocument['scenario']['goals']>) {
  return {
    assertions: [
      ...(g.assertions ?? []),
      ...(g.expected_tools?.length ? [{ expected_tools: g.expected_tools }] : []),
    ],
    criteria: g.criteria ?? [],
  };
}

/** A key of the played scenario → where it stands in the Mantle file (goals, or the conversation). */
export function mantleKeyPath(p: readonly (string | number)[]): (string | number)[] {
  return p[0] === 'goals' || p[0] === 'name' ? ['scenario', ...p] : ['scenario', 'hooksmith', ...p];
}
