// Spelling a `rasa.mantle.hooks` export (or a standard-library member such as json.loads) at a
// use site: through an existing import or module alias (`mh.Name`), else with the import edits
// of runtime/python/import-edits.ts.
import { MANTLE_MODULE } from '../../catalogue';
import type { TextEdit } from '../diagnostics';
import { fromImportEdits, moduleImportEdits } from '../../python/import-edits';
import type { HookModule } from '../../python/model';

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
  return { text: name, importEdits: fromImportEdits(module, source, MANTLE_MODULE, [name]) };
}

/**
 * How to write `module.member` (a standard-library module such as json) at a use site: through an
 * existing `from module import member`, an `import module [as m]`, else with a new `import module`.
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
  return { text: `${module}.${member}`, importEdits: moduleImportEdits(hookModule, source, module) };
}
