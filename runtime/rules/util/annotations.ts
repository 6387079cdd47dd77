// What a type annotation names, resolved through the module's imports (string annotations
// and `from __future__ import annotations` included: the model resolves the name inside).
import type { TextEdit } from '../../diagnostics';
import type { Annotation, HookModule, Range } from '../../python/model';
import { resolveMantleName } from '../../python/names';
import { spellMantleName } from './mantle-import-fix';

export interface AnnotationTarget {
  /** The `rasa.mantle.hooks` member named ("ToolCallPayload"), if any. */
  member?: string;
  /** Named by a bare name that nothing imports. */
  unimported: boolean;
}

export function annotationTarget(module: HookModule, ann: Annotation): AnnotationTarget {
  return resolveMantleName(module, ann.ref) ?? { unimported: false };
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

/** Edits that make a bare, unimported payload name resolve: the import, or a qualified spelling. */
export function importAnnotationEdits(
  module: HookModule,
  source: string,
  ann: Annotation,
  name: string,
): TextEdit[] {
  const spelled = spellMantleName(module, source, name);
  const rename = spelled.text !== name && ann.ref ? [{ range: ann.ref.range, newText: spelled.text }] : [];
  return [...spelled.importEdits, ...rename];
}
