// The module's top level as the scaffold edits it: its statements (decorators belong to what they
// decorate), read from the tree-sitter tree. Works on half-typed code: the parser recovers from
// any text, so planning never throws.
import type { Node } from 'web-tree-sitter';
import type { TextEdit } from '../rules/diagnostics';
import { parse } from '../python/parser';
import type { Position } from '../python/model';

/** Lines as LSP counts them: \r\n, \r and \n all end a line. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export interface Block {
  /** First line (the first decorator for decorated definitions) and last line holding code. */
  start: number;
  end: number;
  /** The statement's type in the tree (`import_from_statement`, `function_definition`, …). */
  type: string;
}

/** The last line of a node that holds code (a trailing comment of a body does not count). */
function lastCodeLine(n: Node): number {
  let cur = n;
  for (;;) {
    const kids = cur.children.filter((c): c is Node => !!c && c.type !== 'comment');
    const last = kids[kids.length - 1];
    if (!last) break;
    cur = last;
  }
  const end = cur.endPosition;
  return end.column === 0 && end.row > n.startPosition.row ? end.row - 1 : end.row;
}

/** Top-level statements of `text` (comments apart). */
export function topLevel(text: string): Block[] {
  // An empty file needs no parser.
  if (text.trim() === '') return [];
  const tree = parse(text);
  try {
    return tree.rootNode.namedChildren
      .filter((c): c is Node => !!c && c.type !== 'comment')
      .map((n) => ({ start: n.startPosition.row, end: lastCodeLine(n), type: n.type }));
  } finally {
    tree.delete();
  }
}

/** Applies non-overlapping edits to a text (for tests and for building new files). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  // Offset of each line start, whatever the line terminators are.
  const starts = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length);
  const offset = (p: Position): number =>
    Math.min(text.length, (starts[Math.min(p.line, starts.length - 1)] ?? 0) + p.character);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted)
    out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}
