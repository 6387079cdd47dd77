// Spelling a Cayu hook-API name (a context or decision type) at a use site, as
// mantle-import-fix.ts does for rasa.mantle.hooks: through an existing import or module alias,
// else with an import merged into the module's own Cayu import (whichever public path it uses).
import { CAYU_MODULES, cayuImportModuleFor } from '../../catalogue';
import { fromImportEdits } from '../../python/import-edits';
import type { HookModule } from '../../python/model';
import type { MantleSpelling as Spelling } from './mantle-import-fix';

/** Where a new Cayu import comes from when the module has none to join: the documented path (no line chosen). */
const DEFAULT_CAYU_MODULE = CAYU_MODULES[0]!;

export function spellCayuName(module: HookModule, source: string, name: string): Spelling {
  const levels = module.imports.filter((b) => b.moduleLevel);
  const direct = levels.find((b) => b.importedName === name && CAYU_MODULES.includes(b.module));
  if (direct) return { text: direct.localName, importEdits: [] };
  const alias = levels.find((b) => b.importedName === undefined && CAYU_MODULES.includes(b.qualified));
  if (alias) return { text: `${alias.localName}.${name}`, importEdits: [] };
  const from = levels.find((b) => b.importedName !== undefined && CAYU_MODULES.includes(b.module));
  const target = from?.module ?? cayuImportModuleFor(name, DEFAULT_CAYU_MODULE);
  return { text: name, importEdits: fromImportEdits(module, source, target, [name], CAYU_MODULES) };
}
