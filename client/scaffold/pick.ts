// The scaffold's questions: which hook (18 Mantle decorators, 5 Cayu phases), and where a new
// module goes when no Python editor is open.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HooksResult } from '../../runtime/lsp/shared';
import { takenPoints } from './duplicates';
import {
  scaffoldTargets,
  targetDescription,
  targetLabel,
  type ScaffoldTarget,
} from '../../runtime/scaffold/scaffold';

interface TargetItem extends vscode.QuickPickItem {
  target?: ScaffoldTarget;
}

/** A target by decorator name or phase id ("modify_tool_call", "before_tool_call"). */
export function findTarget(name: string): ScaffoldTarget | undefined {
  return scaffoldTargets().find((t) => targetLabel(t) === name);
}

/**
 * `hooks`: the server's last answer, whose unwired points follow the installed engine (else the
 * catalogue's); `file`: the editor the hook goes into. A modify hook at a point the agent already
 * has one for is marked and listed last: it would be a duplicate-modify-hook error.
 */
export async function pickTarget(hooks?: HooksResult, file?: string): Promise<ScaffoldTarget | undefined> {
  const targets = scaffoldTargets();
  const unwired = hooks?.unwiredPoints && new Set(hooks.unwiredPoints.points);
  const taken = takenPoints(hooks, file);
  const existing = (t: ScaffoldTarget) =>
    t.engine === 'mantle' && t.decorator.lane === 'modify' ? taken.get(t.decorator.point.id) : undefined;
  const mantle = targets.filter((t) => t.engine === 'mantle');
  const items: TargetItem[] = [{ label: 'Rasa Mantle', kind: vscode.QuickPickItemKind.Separator }];
  for (const t of [...mantle.filter((t) => !existing(t)), ...mantle.filter(existing)]) {
    if (t.engine !== 'mantle') continue;
    const other = existing(t);
    items.push({
      label: targetLabel(t),
      description: `${other ? `$(warning) already has ${other} (one modify hook per point) · ` : ''}${targetDescription(t, unwired && !unwired.has(t.decorator.point.id))}`,
      detail: t.decorator.point.when,
      target: t,
    });
  }
  items.push({ label: 'Cayu', kind: vscode.QuickPickItemKind.Separator });
  for (const t of targets.filter((t) => t.engine === 'cayu')) {
    items.push({
      label: targetLabel(t),
      description: targetDescription(t),
      detail: t.engine === 'cayu' ? t.phase.doc : undefined,
      target: t,
    });
  }
  const chosen = await vscode.window.showQuickPick(items, {
    title: 'Hooksmith: Scaffold Hook',
    placeHolder: 'Insertion point and lane (Mantle) or phase (Cayu)',
    matchOnDescription: true,
  });
  return chosen?.target;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export async function askModuleName(
  defaultName: string,
  exists: (name: string) => Promise<boolean>,
  where: string,
): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Hooksmith: new hook module',
    prompt: `Module name (a Python identifier, without .py), written to ${where}`,
    value: defaultName,
    validateInput: async (value) => {
      if (!IDENTIFIER.test(value))
        return 'Use a Python identifier: letters, digits and _, not starting with a digit.';
      if (value === '__init__') return '__init__.py is not a hook module.';
      if (await exists(value)) return `${value}.py already exists.`;
      return undefined;
    },
  });
}

interface AgentItem extends vscode.QuickPickItem {
  root?: string;
}

/** A folder name relative to the workspace folder: no absolute path, no `..`, no empty part. */
function folderProblem(value: string): string | undefined {
  const parts = value.trim().split(/[\\/]+/);
  if (!value.trim() || path.isAbsolute(value.trim()))
    return 'A folder inside the workspace folder, e.g. agents/support.';
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return 'No "." or ".." parts.';
  return undefined;
}

/**
 * Which agent a new module goes to (no Python editor open): the agents Hooksmith found in the
 * workspace folder, a new agent folder, and the folder itself only when it already is an agent
 * (writing there would otherwise make the whole workspace an agent named after it).
 */
export async function pickAgentFolder(
  folder: vscode.WorkspaceFolder,
  engine: 'mantle' | 'cayu',
  hooks: HooksResult | undefined,
): Promise<string | undefined> {
  const base = folder.uri.fsPath;
  const agents = (hooks?.agents ?? []).filter((a) => a.root === base || a.root.startsWith(base + path.sep));
  const describe = (a: (typeof agents)[number]) => {
    // Mantle first whatever order the hooks were found in, so the label does not change between scans.
    const engines = (['mantle', 'cayu'] as const)
      .filter((e) => a.hooks.some((h) => h.engine === e))
      .map((e) => (e === 'mantle' ? 'Mantle' : 'Cayu'));
    return `${engines.join(' + ') || 'no hooks yet'} · ${a.hooks.length} hook${a.hooks.length === 1 ? '' : 's'}`;
  };
  const items: AgentItem[] = agents
    .sort((a, b) => a.root.localeCompare(b.root))
    .map((a) => ({
      label: path.relative(base, a.root) || '.',
      description: (a.root === base ? 'the workspace folder · ' : '') + describe(a),
      root: a.root,
    }));
  const NEW = 'New agent folder…';
  items.push({ label: NEW, description: 'a folder in the workspace, created with the module' });
  const chosen =
    items.length === 1
      ? items[0]
      : await vscode.window.showQuickPick(items, {
          title: 'Hooksmith: Scaffold Hook — agent folder',
          placeHolder: `The agent the new ${engine === 'mantle' ? 'Mantle' : 'Cayu'} hook module belongs to`,
        });
  if (!chosen) return undefined;
  if (chosen.root) return chosen.root;
  const typed = await vscode.window.showInputBox({
    title: 'Hooksmith: Scaffold Hook — new agent folder',
    prompt: `Folder of the new agent, relative to ${path.basename(base)}`,
    value: 'agent',
    validateInput: folderProblem,
  });
  return typed === undefined ? undefined : path.join(base, typed.trim());
}
