// The "Hooks" tree view (hooksmith.hooks): renders tree-model.ts nodes. A hook opens its
// handler in the editor; its context menu runs it (when the workspace is trusted).
import * as vscode from 'vscode';
import type { HooksResult } from '../../runtime/lsp-shared';
import { CONTEXT_VALUES, buildTree, type AgentNode, type HookNode, type TreeNode } from './tree-model';

export const VIEW_ID = 'hooksmith.hooks';

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

  update(result: HooksResult | undefined): void {
    this.roots = result ? buildTree(result) : [];
    this.parents.clear();
    for (const a of this.roots)
      for (const g of a.children) {
        this.parents.set(g.id, a);
        for (const h of g.children) this.parents.set(h.id, g);
      }
    this.emitter.fire(undefined);
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
    item.description = node.description;
    item.tooltip = new vscode.MarkdownString().appendText(node.tooltip);
    item.contextValue = node.entry.duplicate ? CONTEXT_VALUES.duplicateHook : CONTEXT_VALUES.hook;
    item.iconPath = node.entry.duplicate
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon(node.entry.lane === 'modify' ? 'edit' : 'eye');
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
