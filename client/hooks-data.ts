// The `hooksmith/hooks` answer, checked: the server is another process (maybe another
// version), so whatever arrives is validated entry by entry and bad entries are dropped
// rather than breaking the explorer. No `vscode` import (unit-tested).
import type { AgentHooks, HookEntry, HooksResult } from '../runtime/lsp/shared';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPosition(v: unknown): boolean {
  return (
    isObject(v) &&
    Number.isInteger(v.line) &&
    Number.isInteger(v.character) &&
    (v.line as number) >= 0 &&
    (v.character as number) >= 0
  );
}

function isRange(v: unknown): boolean {
  return isObject(v) && isPosition(v.start) && isPosition(v.end);
}

export function toHookEntry(v: unknown): HookEntry | undefined {
  if (!isObject(v)) return undefined;
  const { file, uri, range, engine, point, pointName, lane, timeoutMs, wired, wiredBy, duplicate, handler } =
    v;
  if (typeof file !== 'string' || typeof handler !== 'string' || typeof point !== 'string') return undefined;
  if (engine !== 'mantle' && engine !== 'cayu') return undefined;
  if (lane !== 'observe' && lane !== 'modify') return undefined;
  if (!isRange(range)) return undefined;
  return {
    file,
    uri: typeof uri === 'string' ? uri : '',
    range: range as HookEntry['range'],
    engine,
    point,
    ...(typeof pointName === 'string' ? { pointName } : {}),
    lane,
    timeoutMs: typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) ? timeoutMs : undefined,
    wired: wired !== false,
    wiredBy: typeof wiredBy === 'string' ? wiredBy : undefined,
    duplicate: duplicate === true,
    handler,
  };
}

/** Whatever the server answered → a clean HooksResult (never throws). */
export function normaliseHooks(raw: unknown): HooksResult {
  const agents: AgentHooks[] = [];
  const list = isObject(raw) && Array.isArray(raw.agents) ? raw.agents : [];
  for (const a of list) {
    if (!isObject(a) || typeof a.root !== 'string') continue;
    const hooks = (Array.isArray(a.hooks) ? a.hooks : [])
      .map(toHookEntry)
      .filter((h): h is HookEntry => h !== undefined);
    agents.push({ root: a.root, hooks });
  }
  const u = isObject(raw) ? raw.unwiredPoints : undefined;
  const points =
    isObject(u) && Array.isArray(u.points) ? u.points.filter((p) => typeof p === 'string') : undefined;
  if (!points || !isObject(u) || typeof u.by !== 'string') return { agents };
  return { agents, unwiredPoints: { points, by: u.by } };
}

export function hookCount(result: HooksResult): number {
  return result.agents.reduce((n, a) => n + a.hooks.length, 0);
}
