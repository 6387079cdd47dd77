// The Cayu line a hook module's own imports name, for the emulation when no line is chosen and no
// cayu is installed: `from cayu.observability import RuntimeHook` at the top of a module is code
// for cayu 0.9 and newer (only that layout has the module), `from cayu.runtime.hooks import …` or
// `from cayu import RuntimeHook` for cayu 0.3 (0.15 raises ImportError there: cayu/_api.py:46-56).
// An import guarded by a try or an if (a module written for both lines) names none.
import { CAYU_EXPORTS, CAYU_LINES, cayuNameKind, type CayuLine, type CayuLineId } from '../catalogue';
import type { ImportBinding } from '../python/model';

/** The one line whose hook-API modules include `module` (none when both or neither do). */
function onlyLineWithHooksIn(module: string): CayuLine | undefined {
  const lines = CAYU_LINES.filter((l) => l.hookModules.includes(module) || l.partialHookModules?.[module]);
  return lines.length === 1 ? lines[0] : undefined;
}

const unguarded = (b: ImportBinding) => b.moduleLevel && b.statementRange.start.character === 0;

/** The line of the module's first unguarded import of the hook API, in source order. */
export function cayuLineOfImports(imports: readonly ImportBinding[]): CayuLineId | undefined {
  for (const b of imports) {
    if (!unguarded(b) || (b.module !== 'cayu' && !b.module.startsWith('cayu.'))) continue;
    const name = b.isWildcard ? undefined : b.importedName;
    const hookName = name !== undefined && CAYU_EXPORTS.includes(name) && cayuNameKind(name) === 'hooks';
    // `import cayu.observability.hooks as h` names its layout too; `import cayu` names none.
    const layoutModule = b.importedName === undefined && b.module !== 'cayu';
    if (!hookName && !layoutModule) continue;
    const line = onlyLineWithHooksIn(b.module);
    if (line) return line.id;
  }
  return undefined;
}
