// The expectations of a case before it runs (the Testing view lists them): key path, label
// and line, in the order evaluate-scenario.ts / evaluate-payload.ts report them.
import { mantleKeyPath } from '../engine/mantle-scenario';
import { loadScenario } from '../engine/scenario-load';
import type { TestCase } from './cases';
import { CHECKED_KEYS, type TextMatch } from '../engine/expect-schema';
import { clip, describeText } from './match';
import { sourceLines, type KeyPath } from './source-lines';
import { parseJson } from '../json/lossless-json';
import { caseSource, cayuEvalPlan } from './cayu-eval-cases';

export interface PlannedExpectation {
  path: KeyPath;
  label: string;
  line: number;
  /** A conversation's per-turn expectation: its 1-based turn (the view lists it under the turn). */
  turn?: number;
}

export { pathKey } from './source-lines';

/** A case's item id: `FILE::case`, or a Cayu eval corpus case's `FILE#<case id>` (a file of many cases). */
export const caseItemId = (c: TestCase): string => (c.cayuEval ? caseSource(c) : `${c.file}::case`);

function labelOf(key: string, v: unknown): string {
  const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  if (key === 'tool_called' || key === 'tool_not_called') return `${key} ${String(o.tool_name)}`;
  if (key === 'hook_outcome')
    return `hook_outcome ${[o.point, o.hook].filter(Boolean).join(' ')}: ${String(o.outcome)}`;
  if (key === 'payload_after')
    return `payload_after ${[o.point, o.hook].filter(Boolean).join(' ') || 'any hook'}`;
  if (typeof o.skill_id === 'string') return `${key} ${o.skill_id}`;
  if (key === 'order') return `order ${String(o.first)} before ${String(o.then)}`;
  // One item of a list of final_message checks each: what it checks tells them apart.
  if (key === 'final_message') return `final_message ${clip(describeText(o as TextMatch), 60)}`;
  if (key === 'status' || key === 'outcome') return `${key}: ${String(v)}`;
  if (v === 'snapshot' || (typeof v === 'object' && v !== null && 'snapshot' in v)) return `${key} snapshot`;
  return key;
}

function plan(block: Record<string, unknown>, base: KeyPath, lineOf: (p: KeyPath) => number) {
  const out: PlannedExpectation[] = [];
  for (const [key, value] of Object.entries(block)) {
    if (value === undefined || value === false) continue;
    // A goals check Hooksmith does not make is one item, whatever its value (evaluate-scenario.ts).
    const whole = base[0] === 'goals' && !CHECKED_KEYS.has(key);
    const items: [unknown, number?][] =
      Array.isArray(value) && !whole ? value.map((v, i) => [v, i]) : [[value]];
    for (const [v, i] of items) {
      const path = i === undefined ? [...base, key] : [...base, key, i];
      out.push({ path, label: labelOf(key, v), line: lineOf(path) });
    }
  }
  return out;
}

export function plannedExpectations(c: TestCase): PlannedExpectation[] {
  const { lineOf } = sourceLines(c.text);
  if (c.kind === 'payload') {
    const expect = (parseJson(c.text) as { expect?: Record<string, unknown> }).expect ?? {};
    return plan(expect, ['expect'], lineOf);
  }
  if (c.cayuEval) return cayuEvalPlan(c);
  if (c.engineOnly && !c.scenario)
    return [{ path: ['scenario'], label: 'scenario (needs a model)', line: c.line }];
  const { scenario } = loadScenario(c.file);
  // A Mantle file's keys stand under scenario / scenario.hooksmith, as run-cases.ts reports them.
  const at = c.mantle ? mantleKeyPath : (p: KeyPath) => [...p];
  const inFile = (p: KeyPath) => lineOf(at(p));
  const out: PlannedExpectation[] = [];
  scenario.turns?.forEach((t, i) => {
    if (t.expect)
      for (const e of plan(t.expect, ['turns', i, 'expect'], inFile))
        out.push({ ...e, label: `turn ${i + 1}: ${e.label}`, turn: i + 1 });
  });
  if (scenario.expect) out.push(...plan(scenario.expect, ['expect'], inFile));
  scenario.goals?.assertions.forEach((a, i) => out.push(...plan(a, ['goals', 'assertions', i], inFile)));
  scenario.goals?.criteria.forEach((_, i) => {
    const path = ['goals', 'criteria', i];
    out.push({ path, label: `criterion ${i + 1}`, line: inFile(path) });
  });
  if (c.mantle && !scenario.goals && !out.length)
    out.push({ path: ['goals'], label: 'transcript only (no goals)', line: c.line });
  return out.map((e) => ({ ...e, path: at(e.path) }));
}
