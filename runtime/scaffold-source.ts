// The module's top level as the scaffold edits it: its statements (decorators belong to what they
// decorate), its head (docstring, __future__ and other imports) and its `from M import …`
// statements with their style, read from the tree-sitter tree. Works on half-typed code: the
// parser recovers from any text, so planning never throws.
import type { Node } from 'web-tree-sitter';
import type { TextEdit } from './diagnostics';
import { parse } from './python/parser';
import type { Position, Range } from './python/model';

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

export interface FromImport {
  module: string;
  /** Names as written, aliases kept: ["a", "b as c"]. */
  entries: string[];
  parenthesized: boolean;
  /** One name per physical line inside the parentheses. */
  onePerLine: boolean;
  hasComment: boolean;
  isWildcard: boolean;
  start: number;
  end: number;
  /** The indentation used for entries in the one-per-line style. */
  entryIndent: string;
}

interface TopLevel {
  blocks: Block[];
  froms: FromImport[];
  head: ImportHead;
}

interface ImportHead {
  /** Line where a new import statement goes. */
  insertAt: number;
  /** The new import follows a docstring or __future__ import (not another import). */
  afterDocstring: boolean;
  hasImports: boolean;
  /** First line after the head (docstring, imports). */
  after: number;
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

/** Top-level statements of `text`, its `from … import …` statements and its head. */
export function topLevel(text: string): TopLevel {
  // An empty file needs no parser (the snippet generator builds new modules without one).
  if (text.trim() === '')
    return {
      blocks: [],
      froms: [],
      head: { insertAt: 0, afterDocstring: false, hasImports: false, after: 0 },
    };
  const tree = parse(text);
  try {
    const lines = splitLines(text);
    const nodes = tree.rootNode.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
    const comments = tree.rootNode.namedChildren.filter((c): c is Node => !!c && c.type === 'comment');
    const blocks = nodes.map((n) => ({ start: n.startPosition.row, end: lastCodeLine(n), type: n.type }));
    const froms: FromImport[] = [];
    nodes.forEach((n, i) => {
      if (n.type !== 'import_from_statement' || n.startPosition.column !== 0) return;
      const f = fromImport(n, blocks[i]!, lines, comments);
      if (f) froms.push(f);
    });
    return { blocks, froms, head: importHead(nodes, blocks) };
  } finally {
    tree.delete();
  }
}

function fromImport(
  n: Node,
  b: Block,
  lines: readonly string[],
  comments: readonly Node[],
): FromImport | undefined {
  const moduleNode = n.childForFieldName('module_name');
  if (moduleNode?.type !== 'dotted_name') return undefined; // relative imports are never merged into
  const entries: string[] = [];
  let parenthesized = false;
  let isWildcard = false;
  let hasComment = comments.some((c) => c.startPosition.row === b.end && c.startIndex >= n.endIndex);
  for (const c of n.children) {
    if (!c) continue;
    if (c.type === '(') parenthesized = true;
    else if (c.type === 'wildcard_import') isWildcard = true;
    else if (c.type === 'comment') hasComment = true;
  }
  for (const c of n.childrenForFieldName('name')) {
    if (!c) continue;
    if (c.type === 'aliased_import') {
      const name = c.childForFieldName('name')?.text.replace(/\s+/g, '') ?? '';
      entries.push(`${name} as ${c.childForFieldName('alias')?.text ?? ''}`);
    } else entries.push(c.text.replace(/\s+/g, ''));
  }
  if (isWildcard) entries.push('*');
  const entryLine = lines
    .slice(b.start + 1, b.end + 1)
    .find((p) => p.trim() !== '' && !p.trim().startsWith(')'));
  return {
    module: moduleNode.text.replace(/\s+/g, ''),
    entries,
    parenthesized,
    // Black's style: `from m import (` then one name per line; any multi-line parenthesised form is kept that way.
    onePerLine: parenthesized && b.end > b.start,
    hasComment,
    isWildcard,
    start: b.start,
    end: b.end,
    entryIndent: entryLine ? (/^\s*/.exec(entryLine)?.[0] ?? '    ') : '    ',
  };
}

/** The module head: docstring, then top-level imports (comments between them skipped). */
function importHead(nodes: readonly Node[], blocks: readonly Block[]): ImportHead {
  let insertAt = 0;
  let afterDocstring = false;
  let hasImports = false;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    const end = blocks[i]!.end;
    if (n.startPosition.column !== 0) break;
    if (i === 0 && /^[rbuRBU]{0,2}("""|'''|"|')/.test(n.text)) {
      insertAt = end + 1;
      afterDocstring = true;
      continue;
    }
    if (n.type === 'future_import_statement') {
      insertAt = end + 1;
      afterDocstring = true;
    } else if (n.type === 'import_statement' || n.type === 'import_from_statement') {
      insertAt = end + 1;
      afterDocstring = false;
      hasImports = true;
    } else break;
  }
  return { insertAt, afterDocstring, hasImports, after: insertAt };
}

/** The name an import entry binds: "b" for "a as b". */
export function boundName(entry: string): string {
  const parts = entry.split(/\s+as\s+/);
  return (parts[1] ?? parts[0]!).trim();
}

function importedName(entry: string): string {
  return entry.split(/\s+as\s+/)[0]!.trim();
}

export interface ImportPlan {
  edits: TextEdit[];
  /** Lines added above anything after the import region (to shift a cursor below it). */
  lineDelta: number;
  /** First line after the imports once the edits are applied: code must go below it. */
  firstCodeLine: number;
}

/** Line width at which a single-line import is wrapped into parentheses (black's default). */
export const LINE_WIDTH = 88;

function render(
  module: string,
  entries: string[],
  style: { parenthesized: boolean; onePerLine: boolean; entryIndent: string },
): string {
  const single = `from ${module} import ${entries.join(', ')}`;
  if (!style.onePerLine && (!style.parenthesized || single.length + 2 <= LINE_WIDTH)) {
    if (style.parenthesized) return `from ${module} import (${entries.join(', ')})`;
    if (single.length <= LINE_WIDTH) return single;
  }
  return `from ${module} import (\n${entries.map((e) => `${style.entryIndent}${e},`).join('\n')}\n)`;
}

function isSorted(entries: readonly string[]): boolean {
  return entries.every((e, i) => i === 0 || importedName(entries[i - 1]!) <= importedName(e));
}

function pos(line: number, character = 0): Position {
  return { line, character };
}

function lineRange(lines: readonly string[], start: number, end: number): Range {
  return { start: pos(start), end: pos(end, lines[end]?.length ?? 0) };
}

/**
 * Edits that make `names` importable from `module`: names already bound by an import from
 * `module` (or one of `equivalent`) are skipped; the rest join the first existing
 * `from module import …` (its style kept: one per line or single line; sorted when it was
 * sorted), else a new import goes after the last top-level import of the module's head, or
 * after the docstring and `__future__` imports.
 */
export function planImports(
  text: string,
  module: string,
  names: readonly string[],
  equivalent: readonly string[] = [],
): ImportPlan {
  const lines = splitLines(text);
  const { froms, head } = topLevel(text);
  const family = new Set([module, ...equivalent]);
  const bound = new Set(
    froms.filter((f) => family.has(f.module)).flatMap((f) => f.entries.map(importedName)),
  );
  const missing = [...new Set(names)].filter((n) => !bound.has(n));
  if (missing.length === 0) return { edits: [], lineDelta: 0, firstCodeLine: head.after };

  const target =
    froms.find((f) => f.module === module && !f.isWildcard && !f.hasComment) ??
    froms.find((f) => family.has(f.module) && !f.isWildcard && !f.hasComment);
  if (target) {
    const merged = isSorted(target.entries)
      ? [...target.entries, ...missing].sort((a, b) =>
          importedName(a) < importedName(b) ? -1 : importedName(a) > importedName(b) ? 1 : 0,
        )
      : [...target.entries, ...[...missing].sort()];
    const newText = render(target.module, merged, target);
    const delta = newText.split('\n').length - (target.end - target.start + 1);
    return {
      edits: [{ range: lineRange(lines, target.start, target.end), newText }],
      lineDelta: delta,
      firstCodeLine: head.after + (target.start < head.after ? delta : 0),
    };
  }
  const sorted = [...missing].sort();
  const statement = render(module, sorted, { parenthesized: false, onePerLine: false, entryIndent: '    ' });
  const added = statement.split('\n').length;
  const at = head.insertAt;
  // Keep a blank line between the new import and a docstring above it or code below it.
  const needBlankBefore = head.afterDocstring && at > 0;
  const below = lines[at];
  const needBlankAfter = below !== undefined && below.trim() !== '' && !head.hasImports;
  const newText = `${needBlankBefore ? '\n' : ''}${statement}\n${needBlankAfter ? '\n' : ''}`;
  const delta = added + (needBlankBefore ? 1 : 0) + (needBlankAfter ? 1 : 0);
  return {
    edits: [{ range: { start: pos(at), end: pos(at) }, newText }],
    lineDelta: delta,
    firstCodeLine: Math.max(head.after, at) + delta,
  };
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
