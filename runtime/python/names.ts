// Resolving names written in a hook module to what `rasa.mantle.hooks` exports.
import { MANTLE_EXPORTS, MANTLE_MODULE, isMantleExport } from '../catalogue';
import type { HookModule, NameRef } from './model';
import { allFunctions, boundNames, hasMantleWildcard } from './module-facts';

const PREFIX = `${MANTLE_MODULE}.`;

/** The `rasa.mantle.hooks` member a reference resolves to ("modify_tool_call"), if it resolves there. */
export function mantleMember(ref: NameRef | undefined): string | undefined {
  if (!ref?.qualified?.startsWith(PREFIX)) return undefined;
  const rest = ref.qualified.slice(PREFIX.length);
  return rest.includes('.') ? undefined : rest;
}

/** Each export's qualified name, built once: "ToolCallPayload" → "rasa.mantle.hooks.ToolCallPayload". */
const QUALIFIED_EXPORTS = new Map(MANTLE_EXPORTS.map((n) => [n, PREFIX + n]));

/**
 * Whether a reference resolves through the imports to the export `name` (no dot): mantleMember(ref) === name,
 * without slicing.
 */
export function isMantleMember(ref: NameRef | undefined, name: string): boolean {
  const qualified = ref?.qualified;
  return qualified !== undefined && qualified === (QUALIFIED_EXPORTS.get(name) ?? PREFIX + name);
}

/** The last segment of a dotted name as written: "mh.RetryModel" → "RetryModel". */
export function lastSegment(text: string): string {
  const i = text.lastIndexOf('.');
  return i < 0 ? text : text.slice(i + 1);
}

/** Names the module defines itself (functions, classes, imports), which shadow any unimported export. */
export function locallyBound(module: HookModule, name: string): boolean {
  return boundNames(module).has(name);
}

/** A bare name that a `from rasa.mantle.hooks import *` makes reachable (the model leaves it unresolved). */
export function wildcardMantleName(module: HookModule, ref: NameRef | undefined): string | undefined {
  if (!ref || ref.qualified !== undefined || ref.text.includes('.')) return undefined;
  if (!isMantleExport(ref.text) || locallyBound(module, ref.text)) return undefined;
  return hasMantleWildcard(module) ? ref.text : undefined;
}

export interface ResolvedMantleName {
  member: string;
  /** Written as a bare name that nothing imports: a NameError when the module loads. */
  unimported: boolean;
}

/**
 * The `rasa.mantle.hooks` member a reference means: through imports, a wildcard import, or an unimported bare
 * export name.
 */
export function resolveMantleName(
  module: HookModule,
  ref: NameRef | undefined,
): ResolvedMantleName | undefined {
  const member = mantleMember(ref) ?? wildcardMantleName(module, ref);
  if (member !== undefined) return { member, unimported: false };
  const bare = unimportedMantleName(module, ref);
  return bare !== undefined ? { member: bare, unimported: true } : undefined;
}

/**
 * A bare name that is a `rasa.mantle.hooks` export but is used without any import of it
 * (a NameError when the module loads). Returns the export's name.
 */
export function unimportedMantleName(module: HookModule, ref: NameRef | undefined): string | undefined {
  if (!ref || ref.qualified !== undefined || ref.text.includes('.')) return undefined;
  if (!isMantleExport(ref.text) || locallyBound(module, ref.text)) return undefined;
  if (hasMantleWildcard(module)) return undefined;
  return ref.text;
}

/** Every place the model records a bare use of `localName` (decorators, annotations, raised exceptions). */
export function usesOf(module: HookModule, localName: string): NameRef[] {
  const refs: (NameRef | undefined)[] = [];
  for (const fn of allFunctions(module)) {
    for (const d of fn.decorators) refs.push(d.ref);
    for (const p of fn.parameters) refs.push(p.annotation?.ref, p.annotation?.optionalOf);
    refs.push(fn.returnAnnotation?.ref, fn.returnAnnotation?.optionalOf);
    for (const r of fn.body.raises) refs.push(r.exception);
  }
  return refs.filter((r): r is NameRef => r !== undefined && r.text === localName);
}
