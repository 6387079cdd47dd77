// Small pure helpers over tree-sitter nodes: LSP ranges, dotted names, literal values.
// No recursion on unbounded input: literal conversion stops at a fixed depth.
import { SyntaxNode as Node } from './syntax-node';
import type { DictEntry, LiteralValue, Position, Range } from './model';

/**
 * LSP lines for a text with carriage returns: tree-sitter counts rows by \n only, while LSP
 * (and CPython) also end a line at a lone \r, and exclude a CRLF's \r from the line.
 */
class LineMap {
  private readonly starts: number[] = [0];
  private readonly contentEnds: number[] = [];

  constructor(text: string) {
    const re = /\r\n|\r|\n/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      this.contentEnds.push(m.index);
      this.starts.push(m.index + m[0].length);
    }
    this.contentEnds.push(text.length);
  }

  position(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    const start = this.starts[lo] as number;
    return { line: lo, character: Math.min(offset, this.contentEnds[lo] as number) - start };
  }
}

/** A node positions are read from: a SyntaxNode, or a web-tree-sitter Node (server features). */
export interface PositionedNode {
  readonly tree: object;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: { row: number; column: number };
  readonly endPosition: { row: number; column: number };
}

const lineMaps = new WeakMap<object, LineMap>();

/** Makes positions of `tree` follow LSP lines when `text` holds a \r (no cost otherwise). */
export function useLspLines(tree: object, text: string): void {
  if (text.includes('\r')) lineMaps.set(tree, new LineMap(text));
}

/** LSP positions of tree-sitter points of `text`, for readers that have no node yet. */
export function lspPositions(text: string): (index: number, row: number, column: number) => Position {
  if (!text.includes('\r')) return (_index, row, column) => ({ line: row, character: column });
  const map = new LineMap(text);
  return (index) => map.position(index);
}

/**
 * LSP position of a node's start or end. web-tree-sitter parses a JS string as UTF-16, so its
 * columns are already UTF-16 code units (test/unit/python/positions.test.ts proves it); only
 * line breaks other than \n need the line map.
 */
export function positionOf(node: PositionedNode, which: 'start' | 'end'): Position {
  const map = lineMaps.get(node.tree);
  if (map) return map.position(which === 'start' ? node.startIndex : node.endIndex);
  if (node instanceof Node) {
    // Straight from the columns: no {row, column} object per read.
    const t = node.tree;
    const r = node.row;
    return which === 'start'
      ? { line: t.startRow[r] as number, character: t.startColumn[r] as number }
      : { line: t.endRow[r] as number, character: t.endColumn[r] as number };
  }
  const p = which === 'start' ? node.startPosition : node.endPosition;
  return { line: p.row, character: p.column };
}

export function rangeOf(node: PositionedNode): Range {
  return { start: positionOf(node, 'start'), end: positionOf(node, 'end') };
}

export function spanRange(from: Node, to: Node): Range {
  return { start: rangeOf(from).start, end: rangeOf(to).end };
}

/** "a.b.c" for an identifier or an attribute chain of identifiers; undefined otherwise. */
export function dottedName(node: Node): string | undefined {
  // Built from the right, without an array: this runs for every name the model resolves.
  let tail = '';
  let cur: Node | null = node;
  while (cur) {
    const type = cur.type;
    if (type === 'identifier') return tail ? `${cur.text}.${tail}` : cur.text;
    if (type !== 'attribute') return undefined;
    const attr = cur.childForFieldName('attribute');
    if (!attr) return undefined;
    tail = tail ? `${attr.text}.${tail}` : attr.text;
    cur = cur.childForFieldName('object');
  }
  return undefined;
}

const MAX_LITERAL_DEPTH = 64;

/** The value of a literal expression; `other` (with its text) for anything else. */
export function literalOf(node: Node, depth = 0): LiteralValue {
  if (depth > MAX_LITERAL_DEPTH) return other(node);
  switch (node.type) {
    case 'integer':
    case 'float':
      return numberOf(node.text);
    case 'true':
      return { kind: 'bool', value: true };
    case 'false':
      return { kind: 'bool', value: false };
    case 'none':
      return { kind: 'none' };
    case 'string':
    case 'concatenated_string': {
      const s = stringValue(node);
      return s === undefined ? other(node) : { kind: 'string', value: s };
    }
    case 'unary_operator': {
      const op = node.childForFieldName('operator')?.text;
      const arg = node.childForFieldName('argument');
      if (!arg || (op !== '-' && op !== '+')) return other(node);
      const inner = literalOf(arg, depth + 1);
      if (inner.kind !== 'number') return other(node);
      return op === '-' ? { ...inner, value: -inner.value } : inner;
    }
    case 'parenthesized_expression': {
      const inner = node.namedChildren.filter((c) => c && c.type !== 'comment');
      return inner.length === 1 && inner[0] ? literalOf(inner[0], depth + 1) : other(node);
    }
    case 'list':
    case 'tuple': {
      const items: LiteralValue[] = [];
      for (const c of node.namedChildren) if (c && c.type !== 'comment') items.push(literalOf(c, depth + 1));
      return { kind: 'list', items };
    }
    case 'dictionary': {
      const entries = dictEntries(node, depth + 1);
      return entries ? { kind: 'dict', entries } : other(node);
    }
    default:
      return other(node);
  }
}

/** Entries of a dict literal; undefined when it holds `**spread` or comprehension parts. */
export function dictEntries(node: Node, depth = 0): DictEntry[] | undefined {
  if (node.type !== 'dictionary') return undefined;
  const entries: DictEntry[] = [];
  for (const c of node.namedChildren) {
    if (!c || c.type === 'comment') continue;
    if (c.type !== 'pair') return undefined;
    const k = c.childForFieldName('key');
    const v = c.childForFieldName('value');
    if (!k || !v) continue;
    const keyValue = k.type === 'string' || k.type === 'concatenated_string' ? stringValue(k) : undefined;
    entries.push({
      ...(keyValue !== undefined ? { key: keyValue } : {}),
      keyRange: rangeOf(k),
      value: literalOf(v, depth + 1),
      valueRange: rangeOf(v),
    });
  }
  return entries;
}

function other(node: Node): LiteralValue {
  return { kind: 'other', text: node.text };
}

function numberOf(text: string): LiteralValue {
  const clean = text.replace(/_/g, '');
  if (/[jJ]$/.test(clean)) return { kind: 'other', text };
  if (/^0[xob]/i.test(clean)) return { kind: 'number', value: Number(clean.toLowerCase()), isInteger: true };
  const isInteger = /^\d+$/.test(clean);
  const value = Number(clean);
  return Number.isNaN(value) ? { kind: 'other', text } : { kind: 'number', value, isInteger };
}

/** The value of a string literal (or implicit concatenation); undefined for f-strings with fields or bytes. */
export function stringValue(node: Node): string | undefined {
  if (node.type === 'concatenated_string') {
    let out = '';
    for (const c of node.namedChildren) {
      if (!c || c.type !== 'string') continue;
      const v = stringValue(c);
      if (v === undefined) return undefined;
      out += v;
    }
    return out;
  }
  if (node.type !== 'string') return undefined;
  // The prefix is what precedes the first quote (`rb"`, `f'`…); most strings have none.
  const text = node.tree.text;
  let i = node.startIndex;
  let raw = false;
  for (let c = text.charCodeAt(i); c !== 34 && c !== 39 && i < node.endIndex; c = text.charCodeAt(++i)) {
    if (c === 98 || c === 66) return undefined; // b, B: bytes
    if (c === 114 || c === 82) raw = true; // r, R
  }
  let out = '';
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'interpolation') return undefined;
    if (c.type === 'string_content') out += raw ? c.text : unescape(c.text);
    else if (c.type === 'escape_sequence') out += raw ? c.text : unescape(c.text);
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};

function codePoint(n: number): string | undefined {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

function unescape(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.|\n)/g, (m, e: string) => {
    // A lone `\x`, `\u` or `\U` (no hex digits after it: half-typed code) and an out-of-range
    // `\U` are kept as written rather than turned into a code point.
    if (e.length > 1 && (e[0] === 'x' || e[0] === 'u' || e[0] === 'U'))
      return codePoint(parseInt(e.slice(1), 16)) ?? m;
    if (/^[0-7]+$/.test(e)) return codePoint(parseInt(e, 8)) ?? m;
    return SIMPLE_ESCAPES[e] ?? m;
  });
}
