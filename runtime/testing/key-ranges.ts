// Ranges of keys and values in a scenario or payload file (YAML, or JSON read with the YAML
// parser, which keeps ranges), so that an editor diagnostic sits on the key or value it names.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { Range } from '../python/model';
import type { KeyPath } from './source-lines';

export interface KeyRanges {
  /** An offset of the text → its range up to `end` (one character when absent). */
  at(offset: number, end?: number): Range;
  /** The value at `path` if a scalar, else its key (a list item: its first line); else the nearest parent's. */
  valueRange(path: readonly PropertyKey[]): Range;
  /** The key `key` of the mapping at `path` (an unknown key), else where valueRange(path) is. */
  keyRange(path: readonly PropertyKey[], key: string): Range;
  /** The scalar value at `path` without its quotes, for an edit that replaces it. */
  scalarText(path: readonly PropertyKey[]): Range | undefined;
  /** The key `key` of the mapping at `path` without its quotes (JSON's keys are quoted). */
  keyText(path: readonly PropertyKey[], key: string): Range | undefined;
}

interface Found {
  /** The key of the last pair walked (or the list item). */
  anchor?: [number, number];
  node: unknown;
  complete: boolean;
}

/** A scalar's range without the quotes of a quoted one. */
function unquotedRange(node: unknown, at: (offset: number, end: number) => Range): Range | undefined {
  if (!isScalar(node) || !node.range) return undefined;
  const [s, e] = node.range;
  const q = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : 0;
  return e - s > 2 * q ? at(s + q, e - q) : undefined;
}

/** The node at `path` from `root`, or how far the path got (the last key's range as the anchor). */
function findPath(root: unknown, path: readonly PropertyKey[]): Found {
  let node: unknown = root;
  let anchor: [number, number] | undefined;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg),
      );
      if (!pair) return { anchor, node, complete: false };
      const r = (pair.key as Node).range;
      anchor = r ? [r[0], r[1]] : anchor;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) return { anchor, node, complete: false };
      anchor = item.range ? [item.range[0], item.range[0]] : anchor;
      node = item;
    } else return { anchor, node, complete: false };
  }
  return { anchor, node, complete: true };
}

export function keyRanges(text: string): KeyRanges {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const lines = text.split(/\r?\n/);
  const pos = (offset: number) => {
    const { line, col } = counter.linePos(Math.max(0, Math.min(offset, text.length)));
    return { line: line - 1, character: col - 1 };
  };
  const at = (offset: number, end = offset + 1): Range => ({
    start: pos(offset),
    end: pos(Math.max(end, offset)),
  });
  /** From `offset` to the end of its line, trailing blanks and a `{`/`[` opener left out. */
  const restOfLine = (offset: number): Range => {
    const start = pos(offset);
    const line = lines[start.line] ?? '';
    const end = Math.max(start.character + 1, line.trimEnd().replace(/[{[]$/, '').trimEnd().length);
    return { start, end: { line: start.line, character: Math.min(end, line.length || end) } };
  };
  const unquoted = (node: unknown) => unquotedRange(node, at);
  const walk = (path: readonly PropertyKey[]) => findPath(doc.contents, path);
  const anchorRange = (f: Found): Range => {
    if (f.anchor && f.anchor[1] > f.anchor[0]) return at(f.anchor[0], f.anchor[1]);
    if (f.anchor) return restOfLine(f.anchor[0]);
    return restOfLine(firstContent(text));
  };
  return {
    at,
    valueRange(path) {
      const f = walk(path);
      if (f.complete && isScalar(f.node) && f.node.range && f.node.range[1] > f.node.range[0])
        return at(f.node.range[0], f.node.range[1]);
      return anchorRange(f);
    },
    keyRange(path, key) {
      const f = walk([...path, key]);
      return f.complete ? anchorRange(f) : this.valueRange(path);
    },
    scalarText(path) {
      const f = walk(path);
      return f.complete ? unquoted(f.node) : undefined;
    },
    keyText(path, key) {
      const f = walk(path);
      if (!f.complete || !isMap(f.node)) return undefined;
      const pair = f.node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key);
      return pair ? unquoted(pair.key) : undefined;
    },
  };
}

/** The first character that is no blank or comment (where a whole-file problem is shown). */
function firstContent(text: string): number {
  const m = /^(?:\s*#[^\n]*\n|\s+)*/.exec(text);
  return Math.min(m ? m[0].length : 0, text.length);
}

export type { KeyPath };
