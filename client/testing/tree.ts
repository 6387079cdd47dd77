// The Testing view's items: agents → files → the case → its expectations (a conversation's
// per-turn ones under an item per turn; a Cayu eval corpus: its cases → their assertions), built
// from the files on disk (runtime/testing) and kept in step as they change.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { malformedSummary, type TestCase } from '../../runtime/testing/cases';
import { readCaseFile } from '../../runtime/testing/discover-cases';
import { caseItemId, pathKey, plannedExpectations } from '../../runtime/testing/plan';
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
    const read = readCaseFile(file);
    // Unchanged (an open, a save or a second watcher event of the same text): the items stay. A
    // replaced item is a diff VS Code's copy of the tests applies up to 200 ms later, and a run
    // asked for in between finds nothing to run (#45 item 7).
    if (Array.isArray(read) && this.unchanged(read)) return;
    this.remove(file);
    if (!read) return;
    const uri = vscode.Uri.file(file);
    const fileItem = this.controller.createTestItem(file, path.basename(file), uri);
    if (!Array.isArray(read)) {
      // A malformed file shows as an item in error, so the problem is visible in the view.
      fileItem.error = malformedSummary(read);
      this.agentItem(path.dirname(file)).children.add(fileItem);
      return;
    }
    if (!read.length) return;
    fileItem.range = line(1);
    // One case, or a Cayu eval corpus's cases, each its own item under the file.
    for (const c of read) {
      const item = this.caseItem(c, uri);
      fileItem.children.add(item);
      this.cases.set(item.id, { testCase: c, item });
    }
    this.agentItem(read[0]!.agentRoot).children.add(fileItem);
  }

  /** The file's cases are those its items show (same ids, same text): they take the new reading. */
  private unchanged(read: TestCase[]): boolean {
    const known = read.map((c) => this.cases.get(caseItemId(c)));
    const same = (k: CaseEntry | undefined, i: number) =>
      k !== undefined && this.attached(k.item) && sameCase(k.testCase, read[i]!);
    if (!read.length || !known.every(same)) return false;
    known.forEach((k, i) => (k!.testCase = read[i]!));
    return true;
  }

  /** A case's item, its expectations (a corpus case's assertions) as children, with their lines. */
  private caseItem(c: TestCase, uri: vscode.Uri): vscode.TestItem {
    const caseId = caseItemId(c);
    const caseItem = this.controller.createTestItem(caseId, c.name, uri);
    // A conversation's case stands on its `turns:` line and each turn on its own (`- user:`): its
    // ✖ marks the turn that failed, not the scenario-level `expect:` (#31 item 12). A corpus case
    // stands on its own line in `cases` (its user messages are no key of the file).
    const lines = c.lines ?? sourceLines(c.text);
    const keyLine = (...p: (string | number)[]) => lines.lineOf(c.mantle ? mantleKeyPath(p) : p);
    const turnsInFile = c.cayuEval ? [] : (c.scenario?.turns ?? []);
    caseItem.range = line(turnsInFile.length ? keyLine('turns') : c.line);
    // A conversation's turns are items of the case, each holding its own expectations.
    const turns = turnsInFile.map((t, i) => {
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
    return caseItem;
  }

  /** The item is still in the controller's tree (not removed with its agent). */
  private attached(item: vscode.TestItem): boolean {
    let top = item;
    while (top.parent) top = top.parent;
    return this.controller.items.get(top.id) === top;
  }

  remove(file: string): void {
    for (const [id, e] of this.cases) if (e.testCase.file === file) this.cases.delete(id);
    this.controller.items.forEach((agent) => {
      agent.children.delete(file);
      if (agent.children.size === 0) this.controller.items.delete(agent.id);
    });
  }

  /** The files gone from `found` take their items with them. */
  keepOnly(found: ReadonlySet<string>): void {
    const files: string[] = [];
    this.controller.items.forEach((agent) => agent.children.forEach((f) => files.push(f.id)));
    for (const f of files) if (!found.has(f)) this.remove(f);
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
