// Cayu's eval corpus (`cayu eval --corpus FILE`, cayu 0.15: one JSON document, schema_version 4,
// catalogue/engine-lines/cayu-0.15-eval.json) read as Hooksmith scenarios: one per case. A case
// holds only the user's side (up to 16 user messages), so it plays as one turn starting with
// them all (one run's input, as cayu eval sends it) with a model playing the agent; without a
// model it cannot play. Its deterministic assertions map onto `expect:`, the others are listed
// as not checked. The engine names the file on its command
// line (no path convention), so Hooksmith finds corpora by name: `*.cayu-eval.json`.
// Hooksmith checks the shape it plays; content revisions (sha256 of each case) only the engine
// verifies (`cayu eval validate FILE`).
import { z } from 'zod';
import { CAYU_EVAL_KINDS, CAYU_EVAL_LINE } from '../catalogue/cayu-eval-line';

export const CAYU_EVAL_FILE = /\.cayu-eval\.json$/;

export const isCayuEvalPath = (file: string): boolean => CAYU_EVAL_FILE.test(file);

const limits = CAYU_EVAL_LINE.facts.limits;
const ID = /^[a-z][a-z0-9._-]*$/; // the engine's portable id (evals/corpus.py _portable_id)
const REVISION = /^sha256:[0-9a-f]{64}$/;
const nonblank = z.string().refine((s) => s.trim() !== '', 'must not be blank');
const portableId = z.string().max(128).regex(ID, 'a lowercase id: a-z first, then a-z 0-9 . _ -');

const message = z.looseObject({ role: z.literal('user').optional(), text: nonblank });
const runInput = z
  .looseObject({
    messages: z.array(message).max(limits.EVAL_CORPUS_MAX_MESSAGES_PER_CASE).optional(),
    opaque_external_case_ref: z.unknown().optional(),
  })
  .refine(
    (i) => (i.messages?.length ?? 0) > 0 || (i.opaque_external_case_ref ?? null) !== null,
    'Run input requires messages or one opaque external case reference',
  );

const assertion = z.looseObject({
  id: portableId,
  kind: z.string().refine((k) => CAYU_EVAL_KINDS.includes(k), {
    message: `an assertion kind of cayu ${CAYU_EVAL_LINE.version}: ${CAYU_EVAL_KINDS.join(', ')}`,
  }),
});
export type CayuAssertion = z.infer<typeof assertion> & Record<string, unknown>;

const evalCase = z
  .looseObject({
    id: portableId,
    revision: z.string().regex(REVISION),
    suite_id: portableId,
    name: nonblank,
    input: runInput.nullable(),
    assertions: z.array(assertion).min(1).max(limits.EVAL_CORPUS_MAX_ASSERTIONS_PER_CASE),
  })
  .refine((c) => new Set(c.assertions.map((a) => a.id)).size === c.assertions.length, {
    message: 'Eval case assertion IDs must be unique',
  });
export type CayuEvalCase = z.infer<typeof evalCase>;

const sortedUnique = (ids: string[]) => ids.every((id, i) => i === 0 || ids[i - 1]! < id);

export const cayuEvalCorpus = z
  .looseObject({
    schema_version: z.literal(CAYU_EVAL_LINE.facts.schemaVersion),
    revision: z.string().regex(REVISION),
    target_key: portableId,
    evidence_policy: z.record(z.string(), z.unknown()),
    suites: z
      .array(z.looseObject({ id: portableId }))
      .min(1)
      .max(limits.EVAL_CORPUS_MAX_SUITES),
    cases: z.array(evalCase).min(1).max(limits.EVAL_CORPUS_MAX_CASES),
  })
  .superRefine((doc, ctx) => {
    const suites = doc.suites.map((s) => s.id);
    if (!sortedUnique(suites))
      ctx.addIssue({ code: 'custom', path: ['suites'], message: 'suites must be sorted by unique id' });
    if (!sortedUnique(doc.cases.map((c) => c.id)))
      ctx.addIssue({ code: 'custom', path: ['cases'], message: 'cases must be sorted by unique id' });
    doc.cases.forEach((c, i) => {
      if (!suites.includes(c.suite_id))
        ctx.addIssue({ code: 'custom', path: ['cases', i, 'suite_id'], message: `no suite '${c.suite_id}'` });
    });
  });
export type CayuEvalCorpus = z.infer<typeof cayuEvalCorpus>;

/** An assertion Hooksmith does not check on a played case: its kind and why (never passed). */
export interface NotChecked {
  /** Its index in the case's `assertions` (its line in the file). */
  index: number;
  id: string;
  kind: string;
  why: string;
}

/** An assertion Hooksmith checks: the `expect:` entries it became (their results judge it). */
export interface Checked {
  index: number;
  id: string;
  kind: string;
  /** Key paths of the played scenario's results, e.g. ['expect', 'tool_called', 1]. */
  paths: (string | number)[][];
}

/** One corpus case as a Hooksmith scenario, with what of its assertions stays unchecked. */
export interface CayuEvalScenario {
  /** The case's index in `cases` (its key path is ['cases', index]). */
  index: number;
  name: string;
  /** Why it cannot play as a scenario at all (no user messages), or undefined. */
  unplayable?: string;
  scenario: Record<string, unknown>;
  checked: Checked[];
  notChecked: NotChecked[];
}

type Expect = Record<string, unknown[] | unknown>;

/** Adds an item to the list under `key` (each item its own check, its own result); maps: no reason. */
const push = (e: Expect, key: string, value: unknown): undefined => {
  e[key] = [...((e[key] as unknown[] | undefined) ?? []), value];
  return undefined;
};

/** Adds a deterministic assertion to `expect`, or returns why it is not checked. */
function mapAssertion(a: CayuAssertion, expect: Expect): string | undefined {
  switch (a.kind) {
    case 'root_status':
      if (expect.status !== undefined) return 'a second root_status';
      expect.status = a.expected === 'failed' ? 'error' : 'completed';
      return undefined;
    case 'final_output_equals':
      if (a.comparison === 'json') return 'a JSON comparison of the final output';
      return push(expect, 'final_message', { equals: a.expected });
    case 'final_output_contains':
      return push(expect, 'final_message', { contains: a.expected });
    case 'tool_called':
      return mapToolCalled(a, expect);
    case 'tools_called_in_order':
      return mapOrder(a.tool_names as string[], expect);
    default:
      return `${a.kind}: only cayu eval checks it (the engine's run evidence, a judge or the workspace)`;
  }
}

function mapToolCalled(a: CayuAssertion, expect: Expect): string | undefined {
  const min = (a.min_count as number | undefined) ?? 1;
  const max = (a.max_count as number | null | undefined) ?? null;
  if (max === 0) push(expect, 'tool_not_called', { tool_name: a.tool_name });
  else if (min === 1 && max === null) push(expect, 'tool_called', { tool_name: a.tool_name });
  else return `tool_called with counts (min_count ${min}, max_count ${max}): Hooksmith does not count calls`;
  return undefined;
}

function mapOrder(names: string[], expect: Expect): string | undefined {
  if (new Set(names).size !== names.length) return 'tools_called_in_order with a repeated tool';
  for (const name of names) push(expect, 'tool_called', { tool_name: name });
  for (let i = 1; i < names.length; i++)
    push(expect, 'order', { first: `tool_call:${names[i - 1]}`, then: `tool_call:${names[i]}` });
  return undefined;
}

/** The scenario one case plays: its user messages as turns, its deterministic checks as expect. */
export function cayuEvalScenario(c: CayuEvalCase, index: number): CayuEvalScenario {
  const expect: Expect = {};
  const checked: Checked[] = [];
  const notChecked: NotChecked[] = [];
  (c.assertions as CayuAssertion[]).forEach((a, i) => {
    const before = { ...expect };
    const why = mapAssertion(a, expect);
    if (why) notChecked.push({ index: i, id: a.id, kind: a.kind, why });
    else checked.push({ index: i, id: a.id, kind: a.kind, paths: addedPaths(before, expect) });
  });
  const messages = c.input?.messages ?? [];
  const unplayable = messages.length
    ? undefined
    : 'no user messages: the case has no input (captured only) or an opaque external reference only cayu eval resolves';
  // One run whose input is every message, as cayu eval sends a case (cayu/evals/execution.py:1202):
  // the agent answers once.
  const users = messages.map((m) => m.text);
  const scenario = {
    name: c.name,
    ...(users.length ? { user: users.length === 1 ? users[0] : users } : {}),
    ...(Object.keys(expect).length ? { expect } : {}),
  };
  return { index, name: c.name, scenario, checked, notChecked, ...(unplayable ? { unplayable } : {}) };
}

/** The `expect:` entries one assertion added: a list's new items, a key set or replaced. */
function addedPaths(before: Expect, after: Expect): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const [key, value] of Object.entries(after)) {
    const was = before[key];
    if (Array.isArray(value)) {
      const from = Array.isArray(was) ? was.length : 0;
      for (let i = from; i < value.length; i++) out.push(['expect', key, i]);
    } else if (value !== was) out.push(['expect', key]);
  }
  return out;
}

/** Why a corpus case cannot play without a model, in the CLI's or the editor's words. */
export function needsCayuModel(audience: 'cli' | 'editor' = 'cli'): string {
  const setting = audience === 'editor' ? 'the hooksmith.model setting' : 'hooksmith test --model …';
  return `needs a model: a Cayu eval case scripts only the user's messages, a model plays the agent; give one (${setting})`;
}
