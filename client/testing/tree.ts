// The Testing view's items: agents → files → the case → its expectations (a conversation's
// per-turn ones under an item per turn), built from the
// files on disk (runtime/testing) and kept in step as they change.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { malformedSummary, type TestCase } from '../../runtime/testing/cases';
import { readCase } from '../../runtime/testing/discover-cases';
import { pathKey, plannedExpectations } from '../../runtime/testing/plan';
import { sourceLines } from '../../runtime/testing/source-lines';
import { mantleKeyPath } from '../../runtime/engine/mantle-scenario';

export interface CaseEntry {
  testCase: TestCase;
  /** The case's item; its children are the expectations, keyed by pathKey. */
  item: vscode.TestItem;
}

const line = (n: number) => new vscode.Range(n - 1, 0, n - 1, 0);

export class TestTree {
  /** Case item id → the case. */
  readonly cases = new Map<string, CaseEntry>();

  constructor(private readonly controller: vscode.TestController) {}

  private agentItem(root: string): vscode.TestItem {
    const existing = this.controller.items.get(root);
    if (existing) return existing;
    const label = vscode.workspace.asRelativePath(root, false) || path.basename(root);
    const item = this.controller.createTestItem(
      root,
      label === root ? path.basename(root) : label,
      vscode.Uri.file(root),
    );
    this.controller.items.add(item);
    return item;
  }

  /** Reads one file again: adds, replaces or removes its items. */
  update(file: string): void {
    const c = readCase(file);
    // Unchanged (an open, a save or a second watcher event of the same text): the items stay. A
    // replaced item is a diff VS Code's copy of the tests applies up to 200 ms later, and a run
    // asked for in between finds nothing to run (#45 item 7).
    const known = this.cases.get(`${file}::case`);
    if (c && 'kind' in c && known && this.attached(known.item) && sameCase(known.testCase, c)) {
      known.testCase = c;
      return;
    }
    this.remove(file);
    if (!c) return;
    const uri = vscode.Uri.file(file);
    if (!('kind' in c)) {
      // A malformed file shows as an item in error, so the problem is visible in the view.
      const root = path.dirname(file);
      const item = this.controller.createTestItem(file, path.basename(file), uri);
      item.error = malformedSummary(c);
      this.agentItem(root).children.add(item);
      return;
    }
    const fileItem = this.controller.createTestItem(file, path.basename(file), uri);
    fileItem.range = line(1);
    const caseId = `${file}::case`;
    const caseItem = this.controller.createTestItem(caseId, c.name, uri);
    // A conversation's case stands on its `turns:` line and each turn on its own (`- user:`): its
    // ✖ marks the turn that failed, not the scenario-level `expect:` (#31 item 12).
    const lines = c.lines ?? sourceLines(c.text);
    const keyLine = (...p: (string | number)[]) => lines.lineOf(c.mantle ? mantleKeyPath(p) : p);
    caseItem.range = line(c.scenario?.turns ? keyLine('turns') : c.line);
    // A conversation's turns are items of the case, each holding its own expectations.
    const turns = (c.scenario?.turns ?? []).map((t, i) => {
      const turn = this.controller.createTestItem(`${caseId}/turns/${i}`, t.name ?? `turn ${i + 1}`, uri);
      turn.range = line(keyLine('turns', i));
      caseItem.children.add(turn);
      return turn;
    });
    try {
      for (const p of plannedExpectations(c)) {
        const e = this.controller.createTestItem(`${caseId}/${pathKey(p.path)}`, p.label, uri);
        e.range = line(p.line);
        const parent = p.turn ? turns[p.turn - 1] : undefined;
        (parent ?? caseItem).children.add(e);
      }
    } catch {
      // The case itself was read; a plan that cannot be made shows up when it runs.
    }
    fileItem.children.add(caseItem);
    this.agentItem(c.agentRoot).children.add(fileItem);
    this.cases.set(caseId, { testCase: c, item: caseItem });
  }

  /** The item is still in the controller's tree (not removed with its agent). */
  private attached(item: vscode.TestItem): boolean {
    let top = item;
    while (top.parent) top = top.parent;
    return this.controller.items.get(top.id) === top;
  }

  remove(file: string): void {
    this.cases.delete(`${file}::case`);
    this.controller.items.forEach((agent) => {
      agent.children.delete(file);
      if (agent.children.size === 0) this.controller.items.delete(agent.id);
    });
  }

  /** A folder was deleted: every file item below it goes (only the folder's deletion is reported). */
  removeUnder(dir: string): void {
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    const files: string[] = [];
    this.controller.items.forEach((agent) =>
      agent.children.forEach((f) => {
        if (f.id.startsWith(prefix)) files.push(f.id);
      }),
    );
    for (const f of files) this.remove(f);
  }

  /** The cases under an item (an agent, a file, a case or an expectation). */
  casesUnder(item: vscode.TestItem): CaseEntry[] {
    const direct = this.cases.get(item.id);
    if (direct) return [direct];
    // An expectation, a turn, or a turn's expectation: the case above it.
    for (let up = item.parent; up; up = up.parent) if (this.cases.get(up.id)) return [this.cases.get(up.id)!];
    const out: CaseEntry[] = [];
    item.children.forEach((child) => out.push(...this.casesUnder(child)));
    return out;
  }
}

/** The same case read again: same text, same agent (its items would be the same). */
function sameCase(a: TestCase, b: TestCase): boolean {
  return a.text === b.text && a.agentRoot === b.agentRoot && a.name === b.name;
}
