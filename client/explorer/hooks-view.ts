// The "Hooks" tree view (hooksmith.hooks): renders tree-model.ts nodes. A hook opens its
// handler in the editor; its context menu runs it (when the workspace is trusted).
import * as vscode from 'vscode';
import type { HookEntry, HooksResult } from '../../runtime/lsp/shared';
import { problemIcon, problemsByHook, sameFile } from './hook-problems';
import {
  CONTEXT_VALUES,
  buildTree,
  type AgentNode,
  type ExercisedBy,
  type HookNode,
  type TreeNode,
} from './tree-model';

export const VIEW_ID = 'hooksmith.hooks';

const SEVERITY_WORDS: Record<vscode.DiagnosticSeverity, string> = {
  [vscode.DiagnosticSeverity.Error]: 'Error',
  [vscode.DiagnosticSeverity.Warning]: 'Warning',
  [vscode.DiagnosticSeverity.Information]: 'Info',
  [vscode.DiagnosticSeverity.Hint]: 'Hint',
};

function toRange(r: HookNode['entry']['range']): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

export function hookUri(node: HookNode): vscode.Uri {
  return node.entry.uri ? vscode.Uri.parse(node.entry.uri) : vscode.Uri.file(node.entry.file);
}

export class HooksTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private roots: AgentNode[] = [];
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly parents = new Map<string, TreeNode>();
  private readonly problemCache = new Map<string, Map<HookEntry, vscode.Diagnostic[]>>();

  update(result: HooksResult | undefined, exercised?: ExercisedBy): void {
    this.roots = result ? buildTree(result, exercised) : [];
    this.problemCache.clear();
    this.parents.clear();
    for (const a of this.roots)
      for (const g of a.children) {
        this.parents.set(g.id, a);
        for (const h of g.children) this.parents.set(h.id, g);
      }
    this.emitter.fire(undefined);
  }

  /** Every hook item as shown (for tests: a tree view has no read API). */
  hookItems(): { label: string; icon: string; color: string | undefined; tooltip: string }[] {
    return this.roots
      .flatMap((a) => a.children.flatMap((g) => g.children))
      .flatMap((n) => {
        if (n.kind !== 'hook') return [];
        const item = this.getTreeItem(n);
        const icon = item.iconPath as vscode.ThemeIcon;
        const tip = item.tooltip;
        return [
          {
            label: String(typeof item.label === 'string' ? item.label : item.label?.label),
            icon: icon.id,
            color: (icon.color as { id?: string } | undefined)?.id,
            tooltip: typeof tip === 'string' ? tip : (tip?.value ?? ''),
          },
        ];
      });
  }

  /** Re-renders the hooks' problem marks (diagnostics changed). */
  refreshProblems(): void {
    this.problemCache.clear();
    this.emitter.fire(undefined);
  }

  private problemsOf(entry: HookEntry): vscode.Diagnostic[] | undefined {
    let byHook = this.problemCache.get(entry.file);
    if (!byHook) {
      const siblings = this.roots
        .flatMap((a) => a.children.flatMap((g) => g.children))
        .flatMap((n) => (n.kind === 'hook' && sameFile(n.entry.file, entry.file) ? [n.entry] : []));
      byHook = problemsByHook(entry.file, siblings);
      this.problemCache.set(entry.file, byHook);
    }
    return byHook.get(entry);
  }

  get isEmpty(): boolean {
    return this.roots.length === 0;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) return this.roots;
    return node.kind === 'hook' ? [] : node.children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.parents.get(node.id);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.kind === 'agent') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.id;
      item.description = node.description;
      item.tooltip = node.root;
      item.resourceUri = vscode.Uri.file(node.root);
      item.iconPath = new vscode.ThemeIcon('folder-library');
      item.contextValue = CONTEXT_VALUES.agent;
      return item;
    }
    if (node.kind !== 'hook') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.id;
      item.description = node.description;
      item.tooltip = node.tooltip;
      item.contextValue = CONTEXT_VALUES[node.kind];
      item.iconPath =
        node.kind === 'class'
          ? new vscode.ThemeIcon('symbol-class')
          : new vscode.ThemeIcon(
              node.wired ? 'symbol-event' : 'circle-slash',
              node.wired ? undefined : new vscode.ThemeColor('disabledForeground'),
            );
      return item;
    }
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    const problems = this.problemsOf(node.entry);
    item.description = node.description;
    const tooltip = new vscode.MarkdownString().appendText(node.tooltip);
    for (const d of problems?.slice(0, 5) ?? [])
      tooltip
        .appendMarkdown('\n\n')
        .appendText(`${SEVERITY_WORDS[d.severity]} (line ${d.range.start.line + 1}): ${d.message}`);
    item.tooltip = tooltip;
    item.contextValue = node.entry.duplicate ? CONTEXT_VALUES.duplicateHook : CONTEXT_VALUES.hook;
    // The diagnostics' own severity, as the editor shows it; the lane's icon when there is none.
    item.iconPath =
      problemIcon(problems) ?? new vscode.ThemeIcon(node.entry.lane === 'modify' ? 'edit' : 'eye');
    item.command = {
      command: 'vscode.open',
      title: 'Open Hook',
      arguments: [
        hookUri(node),
        {
          selection: toRange(node.entry.range),
          preserveFocus: false,
        } satisfies vscode.TextDocumentShowOptions,
      ],
    };
    return item;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
