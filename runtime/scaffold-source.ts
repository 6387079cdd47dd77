// Just enough of Python's lexical structure for the scaffold to edit a file without a parse
// tree: logical lines (brackets, backslashes and strings joined), top-level blocks, and the
// module's import statements. Works on half-typed code: it never throws, and an unterminated
// string or bracket simply runs to the end of the file.
import type { Position, Range } from './python/model';
import type { TextEdit } from './diagnostics';

export interface LogicalLine {
  /** First and last physical line (0-based). */
  start: number;
  end: number;
  /** Leading spaces/tabs of the first physical line (tab = 8). */
  indent: number;
  /** The physical lines joined with '\n'. */
  text: string;
  /** Blank or comment-only. */
  isTrivia: boolean;
}

/** Lines as LSP counts them: \r\n, \r and \n all end a line. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

function indentOf(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === ' ') n++;
    else if (ch === '\t') n += 8 - (n % 8);
    else break;
  }
  return n;
}

/** Joins physical lines into logical lines; strings and brackets may span lines. */
export function logicalLines(text: string): LogicalLine[] {
  const lines = splitLines(text);
  const out: LogicalLine[] = [];
  let depth = 0;
  let quote: string | undefined; // open string delimiter: ', ", ''' or """
  let start = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (start < 0) start = i;
    let continued = false;
    for (let j = 0; j < line.length; j++) {
      const ch = line[j]!;
      if (quote) {
        if (ch === '\\') j++;
        else if (line.startsWith(quote, j)) {
          j += quote.length - 1;
          quote = undefined;
        }
        continue;
      }
      if (ch === '#') break;
      if (ch === '"' || ch === "'") {
        const triple = line.startsWith(ch.repeat(3), j);
        quote = triple ? ch.repeat(3) : ch;
        if (triple) j += 2;
      } else if ('([{'.includes(ch)) depth++;
      else if (')]}'.includes(ch)) depth = Math.max(0, depth - 1);
      else if (ch === '\\' && j === line.length - 1) continued = true;
    }
    // A one-quote string cannot span lines: an unterminated one ends here.
    if (quote && quote.length === 1) quote = undefined;
    if (quote || depth > 0 || continued) continue;
    const joined = lines.slice(start, i + 1).join('\n');
    const trimmed = joined.trim();
    out.push({
      start,
      end: i,
      indent: indentOf(lines[start]!),
      text: joined,
      isTrivia: trimmed === '' || trimmed.startsWith('#'),
    });
    start = -1;
  }
  if (start >= 0) {
    const joined = lines.slice(start).join('\n');
    out.push({
      start,
      end: lines.length - 1,
      indent: indentOf(lines[start]!),
      text: joined,
      isTrivia: joined.trim() === '',
    });
  }
  return out;
}

export interface Block {
  /** First line (the first decorator for decorated definitions) and last non-trivia line. */
  start: number;
  end: number;
  header: string;
}

/** Top-level statements with their indented bodies; decorators belong to what they decorate. */
export function topLevelBlocks(lines: readonly LogicalLine[]): Block[] {
  const blocks: Block[] = [];
  let decoratorStart: number | undefined;
  for (const l of lines) {
    if (l.isTrivia) continue;
    if (l.indent === 0) {
      const isDecorator = l.text.startsWith('@');
      if (decoratorStart === undefined || !isDecorator) {
        if (decoratorStart === undefined) blocks.push({ start: l.start, end: l.end, header: l.text });
        else {
          const last = blocks[blocks.length - 1]!;
          last.end = l.end;
          last.header = l.text;
        }
      } else blocks[blocks.length - 1]!.end = l.end;
      decoratorStart = isDecorator ? (decoratorStart ?? l.start) : undefined;
    } else if (blocks.length > 0) blocks[blocks.length - 1]!.end = l.end;
  }
  return blocks;
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

const FROM_IMPORT = /^from\s+([\w.]+)\s+import\s+([\s\S]*)$/;

export function parseFromImport(l: LogicalLine): FromImport | undefined {
  if (l.indent !== 0) return undefined;
  const m = FROM_IMPORT.exec(l.text.trim());
  if (!m) return undefined;
  let rest = m[2]!;
  const hasComment = rest.includes('#');
  const noComments = rest.replace(/#[^\n]*/g, '');
  rest = noComments.replace(/\\\n/g, ' ').trim();
  const parenthesized = rest.startsWith('(');
  if (parenthesized) rest = rest.replace(/^\(/, '').replace(/\)\s*$/, '');
  const entries = rest
    .split(',')
    .map((e) => e.replace(/\s+/g, ' ').trim())
    .filter((e) => e !== '');
  const physical = l.text.split('\n');
  const entryLine = physical.find((p, i) => i > 0 && p.trim() !== '' && !p.trim().startsWith(')'));
  return {
    module: m[1]!,
    entries,
    parenthesized,
    // Black's style: `from m import (` then one name per line; any multi-line parenthesised form is kept that way.
    onePerLine: parenthesized && l.end > l.start,
    hasComment,
    isWildcard: entries.includes('*'),
    start: l.start,
    end: l.end,
    entryIndent: entryLine ? (/^\s*/.exec(entryLine)?.[0] ?? '    ') : '    ',
  };
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
  const logical = logicalLines(text);
  const family = new Set([module, ...equivalent]);
  const froms = logical.map(parseFromImport).filter((f): f is FromImport => f !== undefined);
  const bound = new Set(
    froms.filter((f) => family.has(f.module)).flatMap((f) => f.entries.map(importedName)),
  );
  const missing = [...new Set(names)].filter((n) => !bound.has(n));
  const head = importHead(logical);
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

interface ImportHead {
  /** Line where a new import statement goes. */
  insertAt: number;
  /** The new import follows a docstring or __future__ import (not another import). */
  afterDocstring: boolean;
  hasImports: boolean;
  /** First line after the head (docstring, imports). */
  after: number;
}

/** The module head: docstring, then top-level imports (with trivia between them). */
function importHead(logical: readonly LogicalLine[]): ImportHead {
  let insertAt = 0;
  let afterDocstring = false;
  let hasImports = false;
  let seenStatement = false;
  for (const l of logical) {
    if (l.isTrivia) continue;
    const t = l.text.trim();
    if (l.indent !== 0) break;
    if (!seenStatement && /^[rbuRBU]{0,2}("""|'''|"|')/.test(t)) {
      insertAt = l.end + 1;
      afterDocstring = true;
      seenStatement = true;
      continue;
    }
    seenStatement = true;
    if (/^from\s+__future__\s+import\b/.test(t)) {
      insertAt = l.end + 1;
      afterDocstring = true;
    } else if (/^(import|from)\s/.test(t)) {
      insertAt = l.end + 1;
      afterDocstring = false;
      hasImports = true;
    } else break;
  }
  return { insertAt, afterDocstring, hasImports, after: insertAt };
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
