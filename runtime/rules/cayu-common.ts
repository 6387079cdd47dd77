// Shared by the cayu-* rules (not a rule itself): which names stand for a Cayu export. Which
// classes are RuntimeHook subclasses and which of their methods are phases is the hook query's
// (python/hooks.ts).
import type { NameRef } from '../python/model';
import { cayuName } from '../python/hooks';

export {
  CAYU_ROOTS,
  cayuName,
  contextParameter,
  phaseMethods,
  type CayuPhaseMethod as PhaseMethod,
} from '../python/hooks';
export { closest } from './util/edit-distance';

/** Last segment of a dotted name as written ("obs.ToolCallHookContext" → "ToolCallHookContext"). */
export function lastSegment(text: string): string {
  const i = text.lastIndexOf('.');
  return i < 0 ? text : text.slice(i + 1);
}

/**
 * The name a reference stands for when it is (or may be) a Cayu export: resolved through a
 * Cayu import, or written bare / unresolved (e.g. imported under TYPE_CHECKING). Undefined
 * when it resolves somewhere else.
 */
export function cayuOrBareName(ref: NameRef | undefined): string | undefined {
  if (!ref) return undefined;
  if (!ref.qualified) return lastSegment(ref.text);
  return cayuName(ref);
}

/**
 * What the runtime does when a hook of this phase fails (raises, returns the wrong type, is a
 * sync method): it records hook.failed and goes on as if the hook were absent (fail-open).
 */
export function failureConsequence(phase: string): string {
  if (phase === 'before_tool_call') return 'the runtime logs the failure and runs the tool unguarded';
  if (phase === 'after_tool_call') return 'the runtime logs the failure and keeps the result unchanged';
  return 'the runtime logs the failure and the session keeps its status';
}

/** A test of hooks (test_*.py, conftest.py, a test_* function): decisions built there are not a hook's. */
export function isTestCode(modulePath: string, functionName?: string): boolean {
  const base = modulePath.split(/[\\/]/).pop() ?? '';
  return /^test_.*\.py$|_test\.py$|^conftest\.py$/.test(base) || (functionName?.startsWith('test_') ?? false);
}
