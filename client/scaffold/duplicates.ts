// Which modify hooks would a new hook at a point duplicate? One modify hook per point per
// agent (duplicate-modify-hook). Answers from the server's hooks list; no `vscode` import.
import { isMantleModulePath } from '../../runtime/workspace/discovery';
import type { HookDecorator } from '../../runtime/catalogue';
import type { HookEntry, HooksResult } from '../../runtime/lsp/shared';

/** Modify hooks registered at the decorator's point by the agent of `file`, in other files of that agent. */
export function agentModifyHooks(
  hooks: HooksResult | undefined,
  file: string,
  d: HookDecorator,
): HookEntry[] {
  if (d.lane !== 'modify') return [];
  const agents = hooks?.agents ?? [];
  const agent =
    agents.find((a) => a.hooks.some((h) => h.file === file)) ??
    agents.find((a) => isMantleModulePath(a.root, file));
  if (!agent) return [];
  return agent.hooks.filter(
    (h) => h.engine === 'mantle' && h.lane === 'modify' && h.point === d.point.id && h.file !== file,
  );
}

/**
 * The points the agent of `file` (else the only Mantle agent) already has a modify hook at, with
 * one of its handlers: the scaffold's pick marks them and lists them last (#31 item 11).
 */
export function takenPoints(hooks: HooksResult | undefined, file: string | undefined): Map<string, string> {
  const agents = (hooks?.agents ?? []).filter((a) => a.hooks.some((h) => h.engine === 'mantle'));
  const agent = file
    ? (agents.find((a) => a.hooks.some((h) => h.file === file)) ??
      agents.find((a) => isMantleModulePath(a.root, file)))
    : agents.length === 1
      ? agents[0]
      : undefined;
  const taken = new Map<string, string>();
  for (const h of agent?.hooks ?? [])
    if (h.engine === 'mantle' && h.lane === 'modify' && !taken.has(h.point)) taken.set(h.point, h.handler);
  return taken;
}
