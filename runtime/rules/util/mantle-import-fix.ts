// Spelling a `rasa.mantle.hooks` export at a use site, adding the import when the module lacks it.
// Keeps the module's style: an existing `from rasa.mantle.hooks import …` gets the name appended
// (parenthesised multi-line: one more line; single line: `, Name`); a module alias is reused
// (`mh.Name`); otherwise a new import line goes below the last module-level import.
import { MANTLE_MODULE } from '../../catalogue';
import type { TextEdit } from '../../diagnostics';
import type { HookModule } from '../../python/model';
import { indentOf, lineStarts, lineText, offsetAt, point, positionAt, sliceRange } from './text';

export interface MantleSpelling {
  /** How to write the name at the use site: "ToolCallPayload", "mh.ToolCallPayload". */
  text: string;
  /** Import edits needed first (empty when the name is already reachable). */
  importEdits: TextEdit[];
}

export function spellMantleName(module: HookModule, source: string, name: string): MantleSpelling {
  const qualified = `${MANTLE_MODULE}.${name}`;
  const direct = module.imports.find((b) => b.qualified === qualified && b.moduleLevel);
  if (direct) return { text: direct.localName, importEdits: [] };
  const alias = module.imports.find((b) => b.qualified === MANTLE_MODULE && b.moduleLevel);
  if (alias) return { text: `${alias.localName}.${name}`, importEdits: [] };
  const plain = module.imports.find(
    (b) =>
      b.module === MANTLE_MODULE &&
      b.importedName === undefined &&
      b.qualified !== MANTLE_MODULE &&
      b.moduleLevel,
  );
  if (plain) return { text: qualified, importEdits: [] };
  return { text: name, importEdits: addImportEdits(module, source, name) };
}

function addImportEdits(module: HookModule, source: string, name: string): TextEdit[] {
  const from = module.imports.filter(
    (b) => b.module === MANTLE_MODULE && b.importedName !== undefined && !b.isWildcard && b.moduleLevel,
  );
  if (from.length > 0) {
    const stmt = from[0].statementRange;
    const sameStatement = from.filter(
      (b) =>
        b.statementRange.start.line === stmt.start.line &&
        b.statementRange.start.character === stmt.start.character,
    );
    const stmtText = sliceRange(source, stmt);
    const stmtStart = offsetAt(source, stmt.start);
    if (from[0].parenthesized) {
      const close = stmtText.lastIndexOf(')');
      const before = stmtText.slice(0, close).trimEnd();
      const hasComma = before.endsWith(',');
      const at = positionAt(source, stmtStart + before.length);
      if (stmtText.includes('\n')) {
        const firstName = sameStatement[0].nameRange.start.line;
        const indent = indentOf(lineText(source, firstName)) || '    ';
        return [{ range: { start: at, end: at }, newText: `${hasComma ? '' : ','}\n${indent}${name},` }];
      }
      return [{ range: { start: at, end: at }, newText: hasComma ? ` ${name},` : `, ${name}` }];
    }
    return [{ range: { start: stmt.end, end: stmt.end }, newText: `, ${name}` }];
  }
  const moduleImports = module.imports.filter((b) => b.moduleLevel);
  const line = moduleImports.length
    ? Math.max(...moduleImports.map((b) => b.statementRange.end.line)) + 1
    : 0;
  const statement = `from ${MANTLE_MODULE} import ${name}`;
  const lastLine = lineStarts(source).length - 1;
  if (line > lastLine) {
    // The last import is the file's last line and has no newline after it: append a line.
    const end = positionAt(source, source.length);
    return [{ range: { start: end, end }, newText: `${source.endsWith('\n') ? '' : '\n'}${statement}\n` }];
  }
  return [{ range: point(line, 0), newText: `${statement}\n` }];
}

/**
 * How to write `module.member` (a standard-library module such as json) at a use site: through an
 * existing `from module import member`, an `import module [as m]`, else with a new
 * `import module` placed among the module's plain imports (in name order), after any
 * `from __future__` import.
 */
export function spellModuleName(
  hookModule: HookModule,
  source: string,
  module: string,
  member: string,
): MantleSpelling {
  const levels = hookModule.imports.filter((b) => b.moduleLevel && !b.isWildcard);
  const direct = levels.find((b) => b.qualified === `${module}.${member}` && b.importedName === member);
  if (direct) return { text: direct.localName, importEdits: [] };
  const alias = levels.find((b) => b.qualified === module && b.importedName === undefined);
  if (alias) return { text: `${alias.localName}.${member}`, importEdits: [] };
  const text = `${module}.${member}`;
  const statement = `import ${module}\n`;
  const statements = levels.filter((b) => b.module !== '__future__');
  const plain = statements.filter((b) => b.importedName === undefined);
  const after = plain.find((b) => b.module > module) ?? undefined;
  if (after)
    return { text, importEdits: [{ range: point(after.statementRange.start.line, 0), newText: statement }] };
  const anchor = plain.length ? plain[plain.length - 1] : undefined;
  if (anchor)
    return {
      text,
      importEdits: [{ range: point(anchor.statementRange.end.line + 1, 0), newText: statement }],
    };
  const first = statements.sort((a, b) => a.statementRange.start.line - b.statementRange.start.line)[0];
  if (first)
    return { text, importEdits: [{ range: point(first.statementRange.start.line, 0), newText: statement }] };
  const future = hookModule.imports.filter((b) => b.module === '__future__');
  if (future.length) {
    const line = Math.max(...future.map((b) => b.statementRange.end.line)) + 1;
    return { text, importEdits: [{ range: point(line, 0), newText: statement }] };
  }
  const defs = [...hookModule.functions, ...hookModule.classes].map((d) => d.range.start.line);
  const line = defs.length ? Math.min(...defs) : 0;
  return { text, importEdits: [{ range: point(line, 0), newText: `${statement}\n\n` }] };
}
