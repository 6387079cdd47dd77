// One open document: its text, tree and model, kept in sync under LSP-style incremental edits.
// Owns its tree: a replaced tree is deleted here (the WASM heap is not garbage-collected),
// and the caller must call dispose() when the document closes.
import type { Edit, Point, Tree } from 'web-tree-sitter';
import type { HookModule, Range } from './model';
import { buildModel } from './build-model';
import { hasLoneCr, parse, substituteReason } from './parser';

/** An LSP content change: a range plus replacement text, or (no range) the whole new text. */
export interface TextChange {
  range?: Range;
  text: string;
}

export class ParsedDocument {
  private _tree: Tree;
  private _model: HookModule | undefined;

  /** Requires `await initParser()` beforehand. */
  constructor(
    readonly path: string,
    private _text: string,
  ) {
    this._tree = parse(_text);
  }

  get text(): string {
    return this._text;
  }

  get tree(): Tree {
    return this._tree;
  }

  /** Built lazily on first use after a change. */
  get model(): HookModule {
    this._model ??= buildModel(this._tree, this._text, this.path);
    return this._model;
  }

  /** Applies changes in order (as LSP sends them), re-parsing incrementally once at the end. */
  applyChanges(changes: readonly TextChange[]): void {
    if (changes.length === 0) return;
    // Lone \r is parsed as \n (see parser.ts); an edit that pairs or splits one changes what the
    // old tree saw, so such documents re-parse from scratch.
    let full = hasLoneCr(this._text);
    for (const c of changes) {
      if (!c.range) {
        this._text = c.text;
        full = true;
        continue;
      }
      const startIndex = offsetAt(this._text, c.range.start);
      const oldEndIndex = Math.max(startIndex, offsetAt(this._text, c.range.end));
      const startPosition = pointAt(this._text, startIndex);
      const oldEndPosition = pointAt(this._text, oldEndIndex);
      this._text = this._text.slice(0, startIndex) + c.text + this._text.slice(oldEndIndex);
      const newEndIndex = startIndex + c.text.length;
      if (!full && !substituteReason(this._tree)) {
        const edit: Edit = {
          startIndex,
          oldEndIndex,
          newEndIndex,
          startPosition,
          oldEndPosition,
          newEndPosition: pointAt(this._text, newEndIndex),
        };
        this._tree.edit(edit);
      }
    }
    if (hasLoneCr(this._text)) full = true;
    const old = this._tree;
    this._tree = parse(this._text, full ? null : old);
    old.delete();
    this._model = undefined;
  }

  /** Frees the tree; the document must not be used afterwards. */
  dispose(): void {
    this._tree.delete();
  }
}

/** UTF-16 offset of an LSP position (lines end at \r\n, \r or \n), clamped to the line's content. */
export function offsetAt(text: string, pos: { line: number; character: number }): number {
  let offset = 0;
  for (let line = 0; line < pos.line; line++) {
    const br = nextBreak(text, offset);
    if (br < 0) return text.length;
    offset = br + (text[br] === '\r' && text[br + 1] === '\n' ? 2 : 1);
  }
  const br = nextBreak(text, offset);
  const end = br < 0 ? text.length : br;
  return Math.min(offset + Math.max(0, pos.character), end);
}

function nextBreak(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return -1;
}

/** Tree-sitter point (row, UTF-16 column) of a UTF-16 offset; rows end at \n (the parser sees no lone \r). */
export function pointAt(text: string, offset: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}
