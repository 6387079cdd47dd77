// The hooks explorer's tree as plain data (no `vscode` import; unit-tested):
//   Mantle: agent → insertion point (catalogue order, unwired marked) → hook
//   Cayu:   agent → RuntimeHook class → phase method
import * as path from 'node:path';
import { CAYU_PHASE_IDS, POINT_IDS, findPoint } from '../../runtime/catalogue';
import type { HookEntry, HooksResult } from '../../runtime/lsp/shared';
import { CATALOGUE_RASA_PRO, notInvokedBy } from '../../runtime/catalogue/wiring';

/** `viewItem` context values: package.json menus match hooks with `viewItem =~ /^hook/`. */
export const CONTEXT_VALUES = {
  agent: 'agent',
  point: 'point',
  class: 'class',
  hook: 'hook',
  duplicateHook: 'hook.duplicate',
} as const;

export interface HookNode {
  kind: 'hook';
  id: string;
  entry: HookEntry;
  label: string;
  /** "modify · 500 ms"; a Cayu phase: what it can do ("guard · proceed, modify, short-circuit or block") */
  description: string;
  tooltip: string;
}

export interface GroupNode {
  kind: 'point' | 'class';
  id: string;
  label: string;
  description: string;
  tooltip: string;
  /** Mantle points only: the engine invokes the point today. */
  wired: boolean;
  children: HookNode[];
}

export interface AgentNode {
  kind: 'agent';
  id: string;
  root: string;
  label: string;
  description: string;
  children: GroupNode[];
}

export type TreeNode = AgentNode | GroupNode | HookNode;

function byPosition(a: HookEntry, b: HookEntry): number {
  return (
    a.file.localeCompare(b.file) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character
  );
}

function hookTooltip(h: HookEntry, root: string): string {
  const where = `${path.relative(root, h.file) || path.basename(h.file)}:${h.range.start.line + 1}`;
  const lines = [`${h.handler} — ${where}`];
  if (h.engine === 'mantle') {
    const point = findPoint(h.point);
    lines.push(
      `${point?.title ?? h.point} · ${h.lane}${h.timeoutMs !== undefined ? ` · timeout ${h.timeoutMs} ms` : ''}`,
    );
    if (!h.wired)
      lines.push(
        `Not wired: ${notInvokedBy(h.wiredBy ?? `rasa-pro ${CATALOGUE_RASA_PRO}`)}, so it never runs in real conversations.`,
      );
    if (h.duplicate)
      lines.push(
        'Duplicate modify hook: another modify hook of this agent registers the same point; `rasa train` and model load reject the agent.',
      );
  } else {
    lines.push(`Cayu phase ${h.point}: ${cayuPhaseRole(h.point)}`);
  }
  return lines.join('\n');
}

/**
 * What a Cayu phase method can do, as its label says it (Cayu has no lanes: a tool phase is no
 * "modify" hook, it returns a decision; a session phase observes).
 */
export function cayuPhaseRole(phase: string): string {
  if (phase === 'before_tool_call') return 'guard · proceed, modify, short-circuit or block';
  if (phase === 'after_tool_call') return 'result · keep or replace';
  return 'observes the session';
}

/** Cases the last coverage run ran a hook in (undefined: not measured). */
export type ExercisedBy = (h: HookEntry) => number | undefined;

function hookNode(h: HookEntry, root: string, exercised?: ExercisedBy): HookNode {
  const untested = exercised?.(h) === 0;
  const name = h.engine === 'cayu' ? (h.handler.split('.').pop() ?? h.handler) : h.handler;
  const description = [
    h.engine === 'cayu' ? cayuPhaseRole(h.point) : h.lane,
    h.timeoutMs !== undefined ? `${h.timeoutMs} ms` : undefined,
    h.duplicate ? 'duplicate' : undefined,
    untested ? 'not exercised by tests' : undefined,
  ]
    .filter((s) => s !== undefined)
    .join(' · ');
  return {
    kind: 'hook',
    id: `hook:${h.file}:${h.range.start.line}:${h.range.start.character}:${h.handler}`,
    entry: h,
    label: name,
    description,
    tooltip:
      hookTooltip(h, root) +
      (untested ? '\nNot exercised: no test case ran it in the last Run with Coverage.' : ''),
  };
}

function rank(list: readonly string[], id: string): number {
  const i = list.indexOf(id);
  return i < 0 ? list.length : i;
}

type HooksAgent = HooksResult['agents'][number];
type HookEntryOf = HooksAgent['hooks'][number];

/** A Mantle agent's hooks grouped by insertion point, in the catalogue's order. */
function pointGroups(agent: HooksAgent, mantle: HookEntryOf[], exercised?: ExercisedBy): GroupNode[] {
  const points = [...new Set(mantle.map((h) => h.point))].sort(
    (a, b) => rank(POINT_IDS, a) - rank(POINT_IDS, b) || a.localeCompare(b),
  );
  return points.map((id) => {
    const hooks = mantle.filter((h) => h.point === id).sort(byPosition);
    const point = findPoint(id);
    // The server's word (the installed rasa-pro, the setting), not the catalogue's.
    const wired = hooks.every((h) => h.wired);
    const dup = hooks.some((h) => h.duplicate);
    return {
      kind: 'point',
      id: `point:${agent.root}:${id}`,
      label: point?.title ?? id,
      description: [wired ? '' : 'not wired', dup ? 'duplicate modify hooks' : '']
        .filter(Boolean)
        .join(' · '),
      tooltip: point ? `${point.title}: ${point.when}` : `Unknown insertion point ${id}`,
      wired,
      children: hooks.map((h) => hookNode(h, agent.root, exercised)),
    };
  });
}

/** A Cayu agent's hooks grouped by RuntimeHook class, each class's phases in the engine's order. */
function classGroups(agent: HooksAgent, cayu: HookEntryOf[], exercised?: ExercisedBy): GroupNode[] {
  const classes = [
    ...new Set(
      cayu.map((h) => (h.handler.includes('.') ? h.handler.slice(0, h.handler.lastIndexOf('.')) : h.handler)),
    ),
  ].sort();
  return classes.map((cls) => {
    const methods = cayu
      .filter((h) => h.handler === cls || h.handler.startsWith(cls + '.'))
      .sort((a, b) => rank(CAYU_PHASE_IDS, a.point) - rank(CAYU_PHASE_IDS, b.point) || byPosition(a, b));
    return {
      kind: 'class',
      id: `class:${agent.root}:${methods[0]?.file ?? ''}:${cls}`,
      label: cls,
      description: 'RuntimeHook',
      tooltip: `${cls} (Cayu RuntimeHook) — ${methods.length} phase${methods.length === 1 ? '' : 's'}`,
      wired: true,
      children: methods.map((h) => hookNode(h, agent.root, exercised)),
    };
  });
}

export function buildTree(result: HooksResult, exercised?: ExercisedBy): AgentNode[] {
  return result.agents
    .filter((a) => a.hooks.length > 0)
    .map((agent) => ({
      kind: 'agent' as const,
      id: `agent:${agent.root}`,
      root: agent.root,
      label: path.basename(agent.root) || agent.root,
      description: `${agent.hooks.length} hook${agent.hooks.length === 1 ? '' : 's'}`,
      children: [
        ...pointGroups(
          agent,
          agent.hooks.filter((h) => h.engine === 'mantle'),
          exercised,
        ),
        ...classGroups(
          agent,
          agent.hooks.filter((h) => h.engine === 'cayu'),
          exercised,
        ),
      ],
    }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.root.localeCompare(b.root));
}

/** What the explorer's "Run Hook" item passes to `hooksmith.runHook`. */
export interface RunHookArgs {
  file: string;
  handler: string;
}

export function runHookArgs(node: HookNode): RunHookArgs {
  return { file: node.entry.file, handler: node.entry.handler };
}
