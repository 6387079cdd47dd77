// What every rule declares: one rule per file, named by its code (runtime/rules/<code>.ts).
import type { HookDiagnostic, Severity } from './diagnostics';
import type { RuleEnvironment } from '../cpython/rule-environment';
import type { HookModule } from '../python/model';

export type { RuleEnvironment };

export type RuleEngine = 'python' | 'mantle' | 'cayu';

/** Everything a rule may look at. */
export interface RuleContext {
  module: HookModule;
  /** The module's source text. */
  text: string;
  /** All hook modules of the same agent (this one included), for cross-file rules. */
  agentModules: readonly HookModule[];
  /** The module is a Mantle hook module (per the loader rule) — Mantle rules run only then. */
  isMantleModule: boolean;
  /** The user's interpreter and what it has installed; absent when no interpreter is known. */
  environment?: RuleEnvironment;
}

export interface RuleDocs {
  /** What it catches. */
  what: string;
  /** Why it matters. */
  why: string;
  /** The spec sentence it traces to (quoted), with its source. */
  spec: string;
  /** How to fix, with an example when useful. */
  fix: string;
  /** Code it reports and the same code fixed, as ruff's "Example" / "Use instead" (a test runs the rule on both). */
  example?: RuleExample;
}

export interface RuleExample {
  /** A hook module the rule reports. */
  bad: string;
  /** The module with the problem fixed: the rule reports nothing. */
  good: string;
  /** Where the example's module lives (default `hooks.py`, a Mantle hook module). */
  file?: string;
}

export interface Rule {
  code: string;
  engine: RuleEngine;
  severity: Severity;
  /** One line for lists and settings. */
  title: string;
  docs: RuleDocs;
  /** Offers quick fixes. */
  fixable: boolean;
  /**
   * Its message texts by id (typescript-eslint's `meta.messages`), `{{name}}` filled from the data
   * given to reportMessage (util/diagnostic.ts); the diagnostic carries the id, which tests name.
   */
  messages?: Readonly<Record<string, string>>;
  check(ctx: RuleContext): HookDiagnostic[];
}
