// Settings that shape one analysis run: rules on/off and severity overrides by code
// (the extension's settings map onto this), plus an optional logger.
import type { Severity } from '../diagnostics';

export interface AnalysisOptions {
  /** Rule code → enabled. A code missing here keeps its default (enabled). */
  rules?: Readonly<Record<string, boolean>>;
  /** Rule code → severity to report instead of the rule's own. */
  severity?: Readonly<Record<string, Severity>>;
  /** Where a rule that throws is reported; the other rules still run. */
  logger?: (message: string) => void;
}
