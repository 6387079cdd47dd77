// The hooks explorer feature: the tree view, its refresh command and its "Run Hook" item,
// which hands `{file, handler}` to `hooksmith.runHook` (implemented by the run feature).
import * as vscode from 'vscode';
import type { HooksmithContext } from '../context';
import { HooksTreeProvider, VIEW_ID } from './hooks-view';
import { runHookArgs, type TreeNode } from './tree-model';
import { exercisedHooks } from '../testing/exercised';

export const EXPLORER_COMMANDS = {
  refresh: 'hooksmith.explorer.refresh',
  runHook: 'hooksmith.explorer.runHook',
} as const;

export function explorerFeature(ctx: HooksmithContext): void {
  const provider = new HooksTreeProvider();
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  const exercised = exercisedHooks(ctx);
  const render = () => {
    provider.update(ctx.hooks.current, (h) => exercised.casesOf(h.file, h.handler));
    // An empty tree shows the welcome view (package.json viewsWelcome).
    view.message =
      ctx.client || ctx.status.current === 'starting'
        ? undefined
        : 'The Hooksmith language server is not running.';
  };
  ctx.push(
    provider,
    view,
    ctx.hooks.onDidChange(render),
    exercised.onDidChange(render),
    ctx.onDidChangeClient(render),
    vscode.languages.onDidChangeDiagnostics(() => provider.refreshProblems()),
  );
  render();

  /** For tests: the hook items as the tree shows them (label, icon, colour, tooltip). */
  ctx.registerCommand('explorer.hookItems', () => provider.hookItems());
  ctx.registerCommand(EXPLORER_COMMANDS.refresh, async () => {
    await ctx.hooks.refresh();
  });
  ctx.registerCommand(EXPLORER_COMMANDS.runHook, async (node: unknown) => {
    const hook = node as TreeNode | undefined;
    if (!hook || hook.kind !== 'hook') return;
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        'Hooksmith: running a hook executes your code; trust this workspace first.',
      );
      return;
    }
    // The run's result goes back to the caller, as with hooksmith.runHook itself.
    return vscode.commands.executeCommand('hooksmith.runHook', runHookArgs(hook));
  });
}
