// What a type annotation names, resolved through the module's imports (string annotations
// and `from __future__ import annotations` included: the model resolves the name inside).
import type { HookDiagnostic, TextEdit } from '../diagnostics';
import type { Annotation, HookModule, Range } from '../../python/model';
import { resolveMantleName } from '../../python/names';
import { findPayloadType } from '../../catalogue';
import type { Rule, RuleContext } from '../rule';
import { fix, q, reportMessage } from './diagnostic';
import { spellMantleName } from './mantle-import-fix';

export interface AnnotationTarget {
  /** The `rasa.mantle.hooks` member named ("ToolCallPayload"), if any. */
  member?: string;
  /** Named by a bare name that nothing imports. */
  unimported: boolean;
}

export function annotationTarget(module: HookModule, ann: Annotation): AnnotationTarget {
  const target = resolveMantleName(module, ann.ref);
  if (!target) return { unimported: false };
  // A payload class the selected line renamed, in its old spelling (still exported): the same type.
  const type = findPayloadType(target.member);
  return type ? { ...target, member: type.name } : target;
}

/**
 * Edits that make `ann` name `wanted` (a payload type), importing it when needed. The whole
 * annotation is replaced (inside the quotes for a string annotation, as the model's range
 * of the name there), so `X | None` becomes plain `X`.
 */
export function replaceAnnotationEdits(
  module: HookModule,
  source: string,
  ann: Annotation,
  wanted: string,
): TextEdit[] | undefined {
  const spelled = spellMantleName(module, source, wanted);
  const range: Range | undefined = ann.isString ? (ann.optionalOf ? undefined : ann.ref?.range) : ann.range;
  if (!range) return undefined;
  return [...spelled.importEdits, { range, newText: spelled.text }];
}

/** The message of notImportedReport, declared as `notImported` by each rule that reports it. */
export const NOT_IMPORTED_MESSAGE =
  '{{type}} is not imported: the module fails to load with a NameError (with postponed annotations, validation cannot resolve the type). Import it from `rasa.mantle.hooks`.';

/**
 * `wanted` (a payload type) named by a bare name that nothing imports: the module fails to load.
 * The fix adds the import, or spells the name through an existing module alias.
 */
export function notImportedReport(
  rule: Rule,
  ctx: RuleContext,
  ann: Annotation,
  wanted: string,
): HookDiagnostic {
  const spelled = spellMantleName(ctx.module, ctx.text, wanted);
  const rename = spelled.text !== wanted && ann.ref ? [{ range: ann.ref.range, newText: spelled.text }] : [];
  return reportMessage(
    rule,
    ctx,
    ann.ref?.range ?? ann.range,
    'notImported',
    { type: q(wanted) },
    { fixes: [fix(`Import ${wanted} from rasa.mantle.hooks`, [...spelled.importEdits, ...rename], true)] },
  );
}
