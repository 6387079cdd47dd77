// One open buffer: its text (vscode-languageserver-textdocument) and its tree-sitter tree,
// kept in step with incremental edits. Each edit is applied to the old tree with
// `tree.edit(...)`; the re-parse (lazy, on the next `tree()` call) reuses it and then
// deletes it — trees live on the WASM heap, which the garbage collector never frees.
// The model is rebuilt the same way: only the module-level definitions an edit touched
// (runtime/python/model-memo.ts).
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { parse, type Point, type Tree } from '../runtime/python/parser';
import type { HookModule } from '../runtime/python/model';
import { buildModelReusing, type ModelMemo } from '../runtime/python/model-memo';

export class ParsedText {
  private current: TextDocument;
  private parsed: Tree | undefined;
  /** The tree was edited since the last parse. */
  private stale = true;
  /** What the last model build leaves to the next. */
  private memo: ModelMemo | undefined;

  constructor(uri: string, version: number, text: string) {
    this.current = TextDocument.create(uri, 'python', version, text);
  }

  get document(): TextDocument {
    return this.current;
  }

  get version(): number {
    return this.current.version;
  }

  get text(): string {
    return this.current.getText();
  }

  /** Applies LSP content changes in order, editing the tree alongside. */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if (!('range' in change) || !this.parsed) {
        this.dropTree();
        this.current = TextDocument.update(this.current, [change], version);
        continue;
      }
      const before = this.current;
      const startIndex = before.offsetAt(change.range.start);
      const oldEndIndex = before.offsetAt(change.range.end);
      // Positions from offsets: the client's range may point past a line's end.
      const startPosition = pointAt(before, startIndex);
      const oldEndPosition = pointAt(before, oldEndIndex);
      this.current = TextDocument.update(before, [change], version);
      const newEndIndex = startIndex + change.text.length;
      const newEndPosition = pointAt(this.current, newEndIndex);
      this.parsed.edit({
        startIndex,
        oldEndIndex,
        newEndIndex,
        startPosition,
        oldEndPosition,
        newEndPosition,
      });
      this.stale = true;
    }
    if (changes.length === 0) this.current = TextDocument.update(this.current, [], version);
  }

  /** The tree for the current text, re-parsed incrementally when edits are pending. */
  tree(): Tree {
    if (this.parsed && !this.stale) return this.parsed;
    const old = this.parsed;
    let next = parse(this.text, old ?? null);
    old?.delete();
    // tree-sitter's incremental parse can recover from a syntax error otherwise than a fresh parse
    // of the same text (its ERROR nodes span other lines, so other hooks and diagnostics). The CLI
    // parses fresh, so a text with an error is parsed again from scratch: the editor and
    // `hooksmith check` see the same tree (test/unit/python/incremental.test.ts).
    if (old && next.rootNode.hasError) {
      next.delete();
      next = parse(this.text, null);
    }
    this.parsed = next;
    this.stale = false;
    return this.parsed;
  }

  /** The model of the current text (a new build on each call, reusing the unchanged definitions). */
  model(path: string): HookModule {
    const built = buildModelReusing(this.tree(), this.text, path, this.memo);
    this.memo = built.memo;
    return built.model;
  }

  /** Frees the tree (on close). */
  dispose(): void {
    this.dropTree();
  }

  private dropTree(): void {
    this.parsed?.delete();
    this.parsed = undefined;
    this.stale = true;
  }
}

function pointAt(doc: TextDocument, offset: number): Point {
  const p = doc.positionAt(offset);
  return { row: p.line, column: p.character };
}
