// The one place that builds import edits: quick fixes, completion after `@`, the scaffold
// snippets and the Scaffold Hook command. Read off the hook-module model (tree-sitter's imports),
// so half-typed code works. Names join an existing top-level `from M import …`: a one-line
// statement Hooksmith rewrites whole, sorted and wrapped as the scaffold writes it; inside a
// user's own parenthesised list they are appended at its end, in its style, so the user's layout
// stays. Otherwise a new statement goes below the module's head. removeImportEdits takes out a
// name a fix made unused, the same way.
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
  const statement = head.filter((b) => sameStatement(b, target));
  if (rewritable(lines, statement)) return rewriteEdits(lines, statement, missing, []);
  return appendEdits(lines, statement[statement.length - 1]!, missing);
}

function sameStatement(a: ImportBinding, b: ImportBinding): boolean {
  const x = a.statementRange.start;
  const y = b.statementRange.start;
  return x.line === y.line && x.character === y.character;
}

/** One line, no parentheses, no comment, no backslash: Hooksmith may write it anew. */
function rewritable(lines: readonly string[], statement: readonly ImportBinding[]): boolean {
  const first = statement[0];
  if (!first || first.parenthesized || first.isWildcard || first.importedName === undefined) return false;
  const r = first.statementRange;
  if (r.start.line !== r.end.line) return false;
  const line = lines[r.start.line] ?? '';
  return !/[#\\;]/.test(line.slice(r.start.character));
}

/** `N` or `N as L`, as the entry is written. */
function entryText(b: ImportBinding): string {
  return b.localName === b.importedName ? b.importedName! : `${b.importedName} as ${b.localName}`;
}

/** The statement written anew with `add` and without `remove`, sorted and wrapped; removed when empty. */
function rewriteEdits(
  lines: readonly string[],
  statement: readonly ImportBinding[],
  add: readonly string[],
  remove: readonly ImportBinding[],
): TextEdit[] {
  const r = statement[0]!.statementRange;
  const kept = statement.filter((b) => !remove.includes(b)).map(entryText);
  if (!kept.length && !add.length) return [deleteLines(lines, r.start.line, r.end.line)];
  const text = fromImportStatement(statement[0]!.module, [...kept, ...add]);
  return [{ range: r, newText: text }];
}

function deleteLines(lines: readonly string[], first: number, last: number): TextEdit {
  const end: Position =
    last + 1 < lines.length
      ? { line: last + 1, character: 0 }
      : { line: last, character: (lines[last] ?? '').length };
  return { range: { start: { line: first, character: 0 }, end }, newText: '' };
}

/**
 * Edits that take `names` (local names a fix leaves unused) out of their module-level
 * `from module import …` statements: a one-line statement is rewritten (sorted, wrapped), a
 * statement left empty goes, an entry of a parenthesised list goes with its line when it has one.
 */
export function removeImportEdits(
  model: HookModule,
  text: string,
  module: string,
  names: readonly string[],
  keep?: ImportBinding,
): TextEdit[] {
  const lines = splitLines(text);
  const doomed = model.imports.filter(
    (b) => topLevel(b) && b.module === module && b.importedName !== undefined && names.includes(b.localName),
  );
  const edits: TextEdit[] = [];
  const done = new Set<ImportBinding>();
  for (const b of doomed) {
    if (done.has(b)) continue;
    const statement = model.imports.filter((x) => x.moduleLevel && sameStatement(x, b));
    const gone = doomed.filter((x) => sameStatement(x, b));
    for (const g of gone) done.add(g);
    const r = b.statementRange;
    const kept = keep !== undefined && sameStatement(b, keep);
    if (gone.length === statement.length && !kept) edits.push(deleteLines(lines, r.start.line, r.end.line));
    else if (rewritable(lines, statement)) edits.push(...rewriteEdits(lines, statement, [], gone));
    else for (const g of gone) edits.push(entryRemoval(lines, g));
  }
  return edits;
}

/** One entry out of a parenthesised list: its whole line when it stands alone there. */
function entryRemoval(lines: readonly string[], b: ImportBinding): TextEdit {
  const start = b.nameRange.start;
  const end = entryEnd(lines, b);
  const line = lines[start.line] ?? '';
  const rest = line.slice(end.character);
  if (
    start.line === end.line &&
    line.slice(0, start.character).trim() === '' &&
    /^\s*,?\s*(#.*)?$/.test(rest)
  )
    return deleteLines(lines, start.line, start.line);
  const after = /^\s*,\s*/.exec(rest);
  if (after)
    return {
      range: { start, end: { line: end.line, character: end.character + after[0].length } },
      newText: '',
    };
  const before = /,\s*$/.exec(line.slice(0, start.character));
  const from = before ? { line: start.line, character: start.character - before[0].length } : start;
  return { range: { start: from, end }, newText: '' };
}

/**
 * Imports changed for a fix that adds `add` and leaves `remove` unused (both from `module` or its
 * `equivalent` paths): one rewrite where both touch the same one-line statement.
 */
export function swapImportEdits(
  model: HookModule,
  text: string,
  module: string,
  add: readonly string[],
  remove: readonly string[],
): TextEdit[] {
  const lines = splitLines(text);
  const head = headImports(model);
  const statement = head.filter((b) => b.module === module && b.importedName !== undefined);
  const first = statement[0];
  const adds = fromImportEdits(model, text, module, add);
  // The statement that takes the added names must stay, even when every old name leaves it.
  const removes = removeImportEdits(model, text, module, remove, adds.length ? first : undefined);
  if (!first || !adds.length || !removes.length) return [...adds, ...removes];
  const same = statement.filter((b) => sameStatement(b, first));
  const gone = same.filter((b) => remove.includes(b.localName));
  if (!gone.length || !rewritable(lines, same)) return [...adds, ...removes];
  // Both land on one line: write it once, the other removals stay.
  const other = removes.filter((e) => e.range.start.line !== first.statementRange.start.line);
  const bound = new Set(model.imports.filter((b) => b.moduleLevel).map((b) => b.localName));
  return [
    ...rewriteEdits(
      lines,
      same,
      add.filter((n) => !bound.has(n)),
      gone,
    ),
    ...other,
  ];
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
