// The one place that builds import edits: quick fixes, completion after `@`, the scaffold
// snippets and the Scaffold Hook command. Read off the hook-module model (tree-sitter's imports),
// so half-typed code works. Names join an existing top-level `from M import …` at its end, in its
// style. The user's lines are never re-sorted or re-wrapped: an edit only inserts, so a fix's diff
// is as small as it can be, and ruff, isort or black users re-sort and re-wrap with their own
// settings. Otherwise a new statement goes below the module's head.
import type { HookModule, ImportBinding, Position, TextEdit } from './model';
import { splitLines } from './text';

/** Black's line width: a longer import is wrapped one name per line. */
export const LINE_WIDTH = 88;

/** A new `from module import …` statement, names sorted, wrapped past LINE_WIDTH. */
export function fromImportStatement(module: string, names: readonly string[]): string {
  const entries = [...new Set(names)].sort();
  const single = `from ${module} import ${entries.join(', ')}`;
  if (single.length <= LINE_WIDTH) return single;
  return `from ${module} import (\n${entries.map((e) => `    ${e},`).join('\n')}\n)`;
}

/** At module level and not nested in a block (`try:`, `if TYPE_CHECKING:`), where a line can go. */
const topLevel = (b: ImportBinding): boolean => b.moduleLevel && b.statementRange.start.character === 0;

/** First line below the module's head: its docstring, then the top-level imports above its first definition. */
export function headEnd(model: HookModule): number {
  const defs = [...model.functions, ...model.classes.filter((c) => !c.enclosing)];
  const firstDef = Math.min(...defs.map((d) => d.range.start.line));
  const ends = model.imports
    .filter((b) => topLevel(b) && b.statementRange.start.line < firstDef)
    .map((b) => b.statementRange.end.line + 1);
  return Math.max(model.docstring ? model.docstring.end.line + 1 : 0, ...ends);
}

function headImports(model: HookModule): ImportBinding[] {
  const end = headEnd(model);
  return model.imports.filter((b) => topLevel(b) && b.statementRange.start.line < end);
}

/**
 * Edits that make `names` importable from `module` (or any of `equivalent`, which export the same
 * names): none for names already imported (aliased ones too) or under a wildcard import; else the
 * rest appended to the head's first `from module import …`, else a new statement below the head.
 */
export function fromImportEdits(
  model: HookModule,
  text: string,
  module: string,
  names: readonly string[],
  equivalent: readonly string[] = [],
): TextEdit[] {
  const family = new Set([module, ...equivalent]);
  const froms = model.imports.filter(
    (b) => b.moduleLevel && b.importedName !== undefined && family.has(b.module),
  );
  if (froms.some((b) => b.isWildcard)) return [];
  const bound = new Set(froms.map((b) => b.importedName));
  const missing = [...new Set(names)].filter((n) => !bound.has(n)).sort();
  if (!missing.length) return [];
  const lines = splitLines(text);
  const head = headImports(model);
  const candidates = head.filter((b) => froms.includes(b));
  const target = candidates.find((b) => b.module === module) ?? candidates[0];
  if (!target) return insertStatement(model, lines, fromImportStatement(module, missing), headEnd(model));
  const start = target.statementRange.start;
  const last = head
    .filter(
      (b) =>
        b.statementRange.start.line === start.line && b.statementRange.start.character === start.character,
    )
    .pop();
  return appendEdits(lines, last!, missing);
}

/** Where the entry `N` or `N as L` ends. */
function entryEnd(lines: readonly string[], b: ImportBinding): Position {
  const end = b.nameRange.end;
  const alias = /^\s+as\s+[^\s,)#\\]+/u.exec(lines[end.line]?.slice(end.character) ?? '');
  return alias ? { line: end.line, character: end.character + alias[0].length } : end;
}

/** Names added after the statement's last entry, in its style (one per line, trailing comma). */
function appendEdits(lines: readonly string[], last: ImportBinding, names: string[]): TextEdit[] {
  const stmt = last.statementRange;
  const at = entryEnd(lines, last);
  const line = lines[at.line] ?? '';
  const comma = /^\s*,/.exec(line.slice(at.character));
  if (last.parenthesized && stmt.end.line > at.line) {
    // `)` on a line of its own: one line per name above it, indented as the last name.
    const indent = at.line === stmt.start.line ? '    ' : (/^\s*/.exec(line)?.[0] ?? '    ');
    const added = names.map((n, i) => `${indent}${n}${comma || i < names.length - 1 ? ',' : ''}\n`).join('');
    const close: Position = { line: stmt.end.line, character: 0 };
    const edits: TextEdit[] = [{ range: { start: close, end: close }, newText: added }];
    return comma ? edits : [{ range: { start: at, end: at }, newText: ',' }, ...edits];
  }
  const from: Position = comma ? { line: at.line, character: at.character + comma[0].length } : at;
  const newText = comma ? names.map((n) => ` ${n},`).join('') : names.map((n) => `, ${n}`).join('');
  return [{ range: { start: from, end: from }, newText }];
}

/** `import module` among the head's plain imports in name order, else above its first import. */
export function moduleImportEdits(model: HookModule, text: string, module: string): TextEdit[] {
  const head = headImports(model).filter((b) => b.module !== '__future__');
  if (head.some((b) => b.importedName === undefined && b.module === module)) return [];
  const plain = head.filter((b) => b.importedName === undefined);
  const before = plain.find((b) => b.module > module) ?? (plain.length ? undefined : head[0]);
  const statement = `import ${module}`;
  if (before) {
    const at: Position = { line: before.statementRange.start.line, character: 0 };
    return [{ range: { start: at, end: at }, newText: `${statement}\n` }];
  }
  const lines = splitLines(text);
  const after = plain[plain.length - 1];
  return insertStatement(model, lines, statement, after ? after.statementRange.end.line + 1 : headEnd(model));
}

/** A new statement at line `at`; set apart by blank lines when it is the head's first import. */
function insertStatement(
  model: HookModule,
  lines: readonly string[],
  statement: string,
  at: number,
): TextEdit[] {
  const alone = !headImports(model).some((b) => b.module !== '__future__');
  const before = alone && at > 0 ? '\n' : '';
  if (at >= lines.length) {
    // The head ends on the file's last line, which has no line break.
    const end: Position = { line: lines.length - 1, character: lines[lines.length - 1]!.length };
    return [{ range: { start: end, end }, newText: `\n${before}${statement}\n` }];
  }
  const after = alone && lines[at]!.trim() !== '' ? '\n' : '';
  const start: Position = { line: at, character: 0 };
  return [{ range: { start, end: start }, newText: `${before}${statement}\n${after}` }];
}
