// One module: text → model (parseModule) → diagnostics (analyseModule, the rule registry). Pure
// and in process: the language server, Run Hook and Simulate Turn use it as is; the CLI's batch
// check (files.ts) adds CPython's verdicts. A rule that throws is logged and skipped: one broken
// rule never hides the diagnostics of the others.
import type { HookDiagnostic, Severity } from '../rules/diagnostics';
import { buildModel, parse } from '../python';
import type { HookModule } from '../python/model';
import { importsCayu } from '../python/hooks';
import { RULES, type Rule } from '../rules';
import type { RuleEnvironment } from '../rules/rule';

/** Settings that shape one analysis: rules on/off and severity overrides by code, a logger. */
export interface AnalysisOptions {
  /** Rule code → enabled. A code missing here keeps its default (enabled). */
  rules?: Readonly<Record<string, boolean>>;
  /** Rule code → severity to report instead of the rule's own. */
  severity?: Readonly<Record<string, Severity>>;
  /** Where a rule that throws is reported; the other rules still run. */
  logger?: (message: string) => void;
  /** The user's installed environment (import-error, unknown-import, not-wired), when known. */
  environment?: RuleEnvironment;
}

/** Text → model (the parser must be ready: initParser); the tree is freed at once (it lives on the WASM heap). */
export function parseModule(text: string, path: string): HookModule {
  const tree = parse(text);
  try {
    return buildModel(tree, text, path);
  } finally {
    tree.delete();
  }
}

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

/**
 * The Cayu rules look only at names that resolve into a Cayu module (RuntimeHook bases, decision
 * classes): a module importing from none has nothing for them, and most hook modules are
 * Mantle's. Skipping them there saves calling six rules per module.
 */
function mayUseCayu(module: HookModule): boolean {
  try {
    return importsCayu(module);
  } catch {
    return true; // a malformed model: let the rules run (and fail) one by one
  }
}

export function analyseModule(input: ModuleInput, rules: readonly Rule[] = RULES): HookDiagnostic[] {
  const out: HookDiagnostic[] = [];
  const ctx = {
    module: input.module,
    text: input.text,
    agentModules: input.agentModules,
    isMantleModule: input.isMantleModule,
    ...(input.options?.environment ? { environment: input.options.environment } : {}),
  };
  let cayu: boolean | undefined;
  for (const rule of rules) {
    if (!enabled(rule, input)) continue;
    if (rule.engine === 'cayu' && !(cayu ??= mayUseCayu(input.module))) continue;
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

/** File, then start position, then code (each string in localeCompare order). */
export function compareDiagnostics(a: HookDiagnostic, b: HookDiagnostic): number {
  return (
    (a.file === b.file ? 0 : a.file.localeCompare(b.file)) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    compareCodes(a.code, b.code)
  );
}

/** The registry's codes ranked once in localeCompare order (compared for every pair of diagnostics). */
const CODE_RANK = new Map(
  RULES.map((r) => r.code)
    .sort((x, y) => x.localeCompare(y))
    .map((code, i) => [code, i]),
);

function compareCodes(a: string, b: string): number {
  if (a === b) return 0;
  const ra = CODE_RANK.get(a);
  const rb = CODE_RANK.get(b);
  return ra !== undefined && rb !== undefined ? ra - rb : a.localeCompare(b);
}
