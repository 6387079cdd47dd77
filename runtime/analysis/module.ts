// Runs the rule registry over one module. A rule that throws is logged and skipped:
// one broken rule never hides the diagnostics of the others.
import type { HookDiagnostic } from '../diagnostics';
import type { HookModule } from '../python/model';
import { RULES } from '../rules';
import type { Rule } from '../rules/rule';
import type { AnalysisOptions } from './options';

export interface ModuleInput {
  /** File path diagnostics carry (absolute in the server, as given on the CLI). */
  path: string;
  text: string;
  module: HookModule;
  /** Every hook module of the same agent, this one included (cross-file rules). */
  agentModules: readonly HookModule[];
  /** The loader's rule says this is a Mantle hook module: Mantle rules run only then. */
  isMantleModule: boolean;
  options?: AnalysisOptions;
}

function enabled(rule: Rule, input: ModuleInput): boolean {
  if (rule.engine === 'mantle' && !input.isMantleModule) return false;
  return input.options?.rules?.[rule.code] !== false;
}

export function analyseModule(input: ModuleInput, rules: readonly Rule[] = RULES): HookDiagnostic[] {
  const out: HookDiagnostic[] = [];
  const ctx = {
    module: input.module,
    text: input.text,
    agentModules: input.agentModules,
    isMantleModule: input.isMantleModule,
  };
  for (const rule of rules) {
    if (!enabled(rule, input)) continue;
    let found: HookDiagnostic[];
    try {
      found = rule.check(ctx);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      input.options?.logger?.(`[hooksmith] rule ${rule.code} failed on ${input.path}: ${why}`);
      continue;
    }
    const severity = input.options?.severity?.[rule.code];
    for (const d of found) out.push(severity ? { ...d, severity } : d);
  }
  return out.sort(compareDiagnostics);
}

export function compareDiagnostics(a: HookDiagnostic, b: HookDiagnostic): number {
  return (
    a.file.localeCompare(b.file) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    a.code.localeCompare(b.code)
  );
}
