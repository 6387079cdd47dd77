// Before a hook runs, the same checks as `hooksmith check`: error-severity diagnostics mean
// the engine would refuse the module at train/load time, so Hooksmith does not run it either.
// Results are cached per file by size and mtime (the runner keeps one cache).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyseFiles } from '../analysis';
import { defaultBackend } from '../analysis/default-backend';
import type { HookDiagnostic } from '../diagnostics';
import { findAgentRoot, isMantleModulePath, nodeFs } from '../discovery';
import type { HookModule } from '../python/model';
import { agentFiles, filesStamp } from './sim-agent';

export interface CheckedModule {
  file: string;
  agentRoot: string;
  module: HookModule;
  /** A Mantle hook module by the loader's rule (hooks.py or hooks/**.py under an agent root). */
  isMantle: boolean;
  diagnostics: HookDiagnostic[];
  errors: HookDiagnostic[];
}

export function formatDiagnostic(d: HookDiagnostic, cwd = process.cwd()): string {
  const file = path.relative(cwd, d.file) || d.file;
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`;
}

export class ModuleChecker {
  private cache = new Map<string, { siblings: string[]; stamp: string; result: CheckedModule }>();

  async check(file: string): Promise<CheckedModule> {
    const abs = path.resolve(file);
    const root = findAgentRoot(abs, nodeFs);
    // Cross-file rules (duplicate-modify-hook) read the siblings: their changes count too.
    const stampOf = (siblings: string[]) => filesStamp(root ?? path.dirname(abs), [abs, ...siblings]);
    const hit = this.cache.get(abs);
    if (hit && hit.stamp === stampOf(hit.siblings)) return hit.result;
    const siblings = root ? agentFiles(root) : [];
    const stamp = stampOf(siblings);
    await defaultBackend.init();
    const text = fs.readFileSync(abs, 'utf8');
    const module = defaultBackend.parseModule(text, abs);
    const agentRoot = root ?? path.dirname(abs);
    const { diagnostics } = await analyseFiles([abs]);
    const own = diagnostics.get(abs) ?? [];
    const result: CheckedModule = {
      file: abs,
      agentRoot,
      module,
      isMantle: isMantleModulePath(agentRoot, abs),
      diagnostics: own,
      errors: own.filter((d) => d.severity === 'error'),
    };
    this.cache.set(abs, { siblings, stamp, result });
    return result;
  }
}
