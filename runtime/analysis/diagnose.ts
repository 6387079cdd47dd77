// The one entry for "diagnose a module": the rules, then the file's suppression comments. The
// server (on each edit, for Fix All's preview, for a sibling's duplicate check), the in-process
// agent check and the CLI's batch check all come through here, so a suppression means the same
// everywhere.
import type { HookDiagnostic } from '../rules/diagnostics';
import { RULES, type Rule } from '../rules';
import { analyseModule, compareDiagnostics, type ModuleInput } from './module';
import { applySuppressions } from './suppression';

export interface Diagnosis {
  /** What the rules found, before suppressions (kept to re-run some rules later). */
  found: HookDiagnostic[];
  /** What the user sees: suppressed ones dropped, unused suppressions reported. */
  diagnostics: HookDiagnostic[];
}

export interface DiagnoseOptions {
  /** The rules to run (default: the whole registry). */
  rules?: readonly Rule[];
  /** Findings of an earlier run: kept for every code not among `rules`, replaced for those. */
  earlier?: readonly HookDiagnostic[];
}

export function diagnoseModule(input: ModuleInput, how: DiagnoseOptions = {}): Diagnosis {
  const rules = how.rules ?? RULES;
  const fresh = analyseModule(input, rules);
  let found = fresh;
  if (how.earlier) {
    const rerun = new Set(rules.map((r) => r.code));
    const kept = how.earlier.filter((d) => !rerun.has(d.code));
    found = fresh.length ? [...kept, ...fresh].sort(compareDiagnostics) : kept;
  }
  return { found, diagnostics: applySuppressions(input.text, input.path, found, input.options) };
}
