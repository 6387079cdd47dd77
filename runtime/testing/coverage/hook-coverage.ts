// Hook coverage: for each agent, each of its hooks × the cases that ran it and with which
// outcomes, and the points / phases it hooks that no case fired. Read from the cases' results
// (the timelines of scenarios, the runs of payload cases): it needs no tracer.
import * as path from 'node:path';
import type { Outcome } from '../../engine/api';
import { loadAgentHooks, type AgentHook, type AgentHooks } from '../../engine/agent-hooks';
import { jsonEqual } from '../../json/json-equal';
import type { CaseResult } from '../cases';

export const OUTCOME_KINDS = ['returned', 'modified', 'blocked', 'signal', 'crashed', 'timed-out'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** How a kind reads in the table. */
export const OUTCOME_WORDS: Record<OutcomeKind, string> = {
  returned: 'returned',
  modified: 'modified',
  blocked: 'blocked',
  signal: 'raised a signal',
  crashed: 'crashed',
  'timed-out': 'timed out',
};

export interface HookRow {
  /** "hooks/tool_hooks.py::guard_orders" (relative to the agent root). */
  hook: string;
  engine: 'mantle' | 'cayu';
  /** Mantle point id or Cayu phase id. */
  point: string;
  lane: 'observe' | 'modify' | 'phase';
  /** Absolute file. */
  file: string;
  /** Cases that ran it at least once. */
  cases: number;
  /** Calls by outcome. */
  outcomes: Partial<Record<OutcomeKind, number>>;
}

export interface AgentHookCoverage {
  agentRoot: string;
  hooks: HookRow[];
  exercised: number;
  /** Percentage of hooks some case ran (100 for an agent without hooks). */
  percent: number;
  /** Points (Mantle) / phases (Cayu) the agent hooks that no case fired. */
  unfired: { engine: 'mantle' | 'cayu'; point: string }[];
}

const CAYU_MODIFIED = new Set(['proceed_modified', 'modify']);
const CAYU_BLOCKED = new Set(['block', 'short_circuit']);

/** The kind of one call, from its outcome and what it did to the payload (Mantle) or decided (Cayu). */
export function outcomeKind(outcome: Outcome, lane: string, before: unknown, after: unknown): OutcomeKind {
  if (outcome === 'crashed' || outcome === 'invalid-return') return 'crashed';
  if (outcome === 'timed-out') return 'timed-out';
  if (outcome !== 'returned') return 'signal';
  if (lane === 'phase') {
    const action = (after as { action?: unknown } | null)?.action;
    if (typeof action === 'string' && CAYU_BLOCKED.has(action)) return 'blocked';
    if (typeof action === 'string' && CAYU_MODIFIED.has(action)) return 'modified';
    return 'returned';
  }
  return lane === 'modify' && !jsonEqual(before, after) ? 'modified' : 'returned';
}

interface Call {
  hook: string;
  point: string;
  kind: OutcomeKind;
}

/** The hook calls a case made, labelled as the agent's hooks are. */
function callsOf(r: CaseResult): Call[] {
  const root = r.case.agentRoot;
  if (r.simulation)
    return r.simulation.events
      .filter((e) => e.hook && e.outcome)
      .map((e) => ({
        hook: e.hook!,
        point: e.point,
        kind: outcomeKind(e.outcome!, e.lane, e.before, e.after),
      }));
  if (r.run && r.case.hook) {
    const sep = r.case.hook.lastIndexOf('::');
    const file = path.relative(root, path.resolve(root, r.case.hook.slice(0, sep)));
    const hook = `${file}::${r.case.hook.slice(sep + 2)}`;
    const x = r.run;
    return [{ hook, point: x.point, kind: outcomeKind(x.outcome, x.lane, x.inputPayload, x.payload) }];
  }
  return [];
}

/** The fired points of the results, by agent root. */
function firedPoints(results: readonly CaseResult[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of results) {
    const set = out.get(r.case.agentRoot) ?? new Set<string>();
    out.set(r.case.agentRoot, set);
    for (const e of r.simulation?.events ?? []) set.add(e.point);
    if (r.run) set.add(r.run.point);
  }
  return out;
}

function rowsOf(hooks: AgentHooks): HookRow[] {
  const rows: HookRow[] = [];
  const add = (h: AgentHook) => {
    const t = h.target;
    rows.push({
      hook: h.label,
      engine: t.engine,
      point: t.engine === 'cayu' ? t.phase : t.point.id,
      lane: t.engine === 'cayu' ? 'phase' : t.lane,
      file: h.file,
      cases: 0,
      outcomes: {},
    });
  };
  for (const list of hooks.observe.values()) list.forEach(add);
  for (const h of hooks.modify.values()) add(h);
  for (const list of hooks.cayu.values()) list.forEach(add);
  return rows.sort((a, b) => a.hook.localeCompare(b.hook));
}

/** Hook coverage of every agent the results ran cases of. */
export async function hookCoverage(results: readonly CaseResult[]): Promise<AgentHookCoverage[]> {
  const fired = firedPoints(results);
  const out: AgentHookCoverage[] = [];
  for (const root of [...fired.keys()].sort()) {
    const rows = rowsOf(await loadAgentHooks(root));
    const byHook = new Map(rows.map((r) => [r.hook, r]));
    for (const r of results.filter((x) => x.case.agentRoot === root)) {
      const seen = new Set<string>();
      for (const call of callsOf(r)) {
        const row = byHook.get(call.hook);
        if (!row) continue;
        row.outcomes[call.kind] = (row.outcomes[call.kind] ?? 0) + 1;
        if (!seen.has(call.hook)) row.cases++;
        seen.add(call.hook);
      }
    }
    const exercised = rows.filter((r) => r.cases > 0).length;
    const hooked = [...new Map(rows.map((r) => [r.point, r.engine])).entries()];
    out.push({
      agentRoot: root,
      hooks: rows,
      exercised,
      percent: rows.length ? (exercised * 100) / rows.length : 100,
      unfired: hooked
        .filter(([point]) => !fired.get(root)!.has(point))
        .map(([point, engine]) => ({ engine, point }))
        .sort((a, b) => a.point.localeCompare(b.point)),
    });
  }
  return out;
}

/** Hooks exercised over hooks, across agents, in percent (100 when there is no hook). */
export function totalHookPercent(agents: readonly AgentHookCoverage[]): number {
  const total = agents.reduce((s, a) => s + a.hooks.length, 0);
  const hit = agents.reduce((s, a) => s + a.exercised, 0);
  return total ? (hit * 100) / total : 100;
}
