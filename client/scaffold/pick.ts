// The scaffold's questions: which hook (18 Mantle decorators, 5 Cayu phases), and where a new
// module goes when no Python editor is open.
import * as vscode from 'vscode';
import type { HooksResult } from '../../runtime/lsp/shared';
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

/** `hooks`: the server's last answer, whose unwired points follow the installed engine (else the catalogue's). */
export async function pickTarget(hooks?: HooksResult): Promise<ScaffoldTarget | undefined> {
  const targets = scaffoldTargets();
  const unwired = hooks?.unwiredPoints && new Set(hooks.unwiredPoints.points);
  const items: TargetItem[] = [{ label: 'Rasa Mantle', kind: vscode.QuickPickItemKind.Separator }];
  for (const t of targets.filter((t) => t.engine === 'mantle')) {
    items.push({
      label: targetLabel(t),
      description: targetDescription(t, unwired && !unwired.has(t.decorator.point.id)),
      detail: t.engine === 'mantle' ? t.decorator.point.when : undefined,
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
): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Hooksmith: new hook module',
    prompt: 'Module name (a Python identifier, without .py)',
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
