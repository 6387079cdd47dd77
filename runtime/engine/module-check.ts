// Before a hook runs, the same rules as `hooksmith check`, in process (analyseAgent: no python3
// is started and no cache written; a syntax error only CPython sees fails at import instead):
// error-severity diagnostics mean Mantle would refuse the module at train time (`rasa train`), so
// Hooksmith does not run it either. Cayu has no train step: the runtime loads a module its rules
// flag and the hook fails when called, so a Cayu diagnostic never stops a run (`refusing`).
// Results are cached per file by size and mtime (the runner keeps one cache).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyseAgent, parseModule } from '../analysis';
import type { HookDiagnostic } from '../rules/diagnostics';
import { discoverPath, findAgentRoot, isMantleModulePath, nodeFs } from '../workspace/discovery';
import { initParser } from '../python/parser';
import type { HookModule } from '../python/model';
import { agentFiles, filesStamp } from './agent-hooks';

export interface CheckedModule {
  file: string;
  agentRoot: string;
  module: HookModule;
  /** A Mantle hook module by the loader's rule (hooks.py or hooks/**.py under an agent root). */
  isMantle: boolean;
  diagnostics: HookDiagnostic[];
  errors: HookDiagnostic[];
}

/** The errors that stop a run: all but the Cayu rules' (the Cayu runtime loads such a module). */
export function refusing(errors: readonly HookDiagnostic[]): HookDiagnostic[] {
  return errors.filter((d) => !d.code.startsWith('cayu-'));
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
    await initParser();
    const text = fs.readFileSync(abs, 'utf8');
    const module = parseModule(text, abs);
    const agentRoot = root ?? path.dirname(abs);
    const [agent] = discoverPath(abs, nodeFs) ?? [];
    const own = (agent && analyseAgent(agent).get(abs)) ?? [];
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
