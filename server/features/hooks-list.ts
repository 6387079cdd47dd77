// `hooksmith/hooks`: every hook the server knows, grouped by agent, for the client's hooks
// explorer and CodeLens.
import type { AgentHooks, HookEntry, HooksParams, HooksResult } from '../../runtime/lsp/shared';
import { MANTLE_POINTS, spelledPoint } from '../../runtime/catalogue';
import { mantleHooks, phaseMethods } from '../../runtime/python/hooks';
import { pointWired, type WiringSource } from '../../runtime/catalogue/wiring';
import type { Analyser, ModuleState } from '../analyser';

/** `wiring`: the installed engine and the setting, as the not-wired rule is told. */
export function listHooks(analyser: Analyser, p: HooksParams, wiring?: WiringSource): HooksResult {
  // Bring open buffers' models up to date first (pending edits are parsed now).
  for (const s of analyser.all()) if (s.buffer) analyser.current(s.uri);
  const only = p.uri ? analyser.get(p.uri) : undefined;
  const byRoot = new Map<string, HookEntry[]>();
  const states = analyser.all().filter((s) => s.engine !== 'none' && (!only || s.root === only.root));
  const modifyCount = countModify(states);
  for (const s of states.sort((a, b) => a.key.localeCompare(b.key))) {
    const list = byRoot.get(s.root) ?? [];
    byRoot.set(s.root, list);
    list.push(...mantleEntries(s, modifyCount, wiring), ...cayuEntries(s));
  }
  const agents: AgentHooks[] = [...byRoot.entries()].map(([root, hooks]) => ({ root, hooks }));
  return { agents: agents.sort((a, b) => a.root.localeCompare(b.root)), unwiredPoints: unwired(wiring) };
}

/** A module's Mantle hooks; `modifyCount` (agent root + point → modify hooks) marks duplicates. */
function mantleEntries(s: ModuleState, modifyCount: Map<string, number>, wiring?: WiringSource): HookEntry[] {
  return mantleHooks(s.model).map((h) => {
    const w = pointWired(h.point, wiring);
    const spelled = spelledPoint(h.point.id);
    return {
      file: s.path ?? s.key,
      uri: s.uri,
      range: h.fn.nameRange,
      engine: 'mantle',
      point: h.point.id,
      ...(spelled !== h.point.id ? { pointName: spelled } : {}),
      lane: h.lane,
      timeoutMs: h.timeoutMs,
      wired: w.wired,
      wiredBy: w.by,
      duplicate:
        h.lane === 'modify' &&
        s.engine === 'mantle' &&
        (modifyCount.get(`${s.root}\0${h.point.id}`) ?? 0) > 1,
      handler: h.fn.name,
    };
  });
}

/** A module's Cayu phase methods, runnable ones only: a class made inside a function cannot be run by name. */
function cayuEntries(s: ModuleState): HookEntry[] {
  return phaseMethods(s.model)
    .filter((m) => m.cls.enclosing === undefined)
    .map((m) => ({
      file: s.path ?? s.key,
      uri: s.uri,
      range: m.method.nameRange,
      engine: 'cayu',
      point: m.phase.id,
      lane: m.phase.decision ? 'modify' : 'observe',
      wired: true,
      duplicate: false,
      handler: `${m.cls.name}.${m.method.name}`,
    }));
}

function unwired(wiring: WiringSource | undefined): HooksResult['unwiredPoints'] {
  const answers = MANTLE_POINTS.map((p) => ({ id: p.id, ...pointWired(p, wiring) }));
  return { points: answers.filter((a) => !a.wired).map((a) => a.id), by: answers[0]?.by ?? '' };
}

/** Modify registrations per agent root and point, across the agent's Mantle modules. */
function countModify(states: readonly ModuleState[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of states) {
    if (s.engine !== 'mantle') continue;
    for (const h of mantleHooks(s.model)) {
      if (h.lane !== 'modify') continue;
      const k = `${s.root}\0${h.point.id}`;
      out.set(k, (out.get(k) ?? 0) + 1);
    }
  }
  return out;
}
