// Shared by the cayu-* rules (not a rule itself): which classes are RuntimeHook subclasses,
// which of their methods are phases, and whether a name stands for a Cayu export.
import { CAYU_BASE_CLASS, CAYU_MODULES, findCayuPhase, type CayuPhase } from '../catalogue';
import type { ClassDef, FunctionDef, HookModule, NameRef } from '../python/model';
import { firstSegment } from './util/module-facts';
import { perModel } from './util/per-model';

/** First segments of the Cayu modules ("cayu"): a module without an import from one names no Cayu export. */
export const CAYU_ROOTS: readonly string[] = [...new Set(CAYU_MODULES.map(firstSegment))];

/** The exported Cayu name a reference stands for, when it resolves into one of the Cayu modules. */
export function cayuName(ref: NameRef | undefined): string | undefined {
  const q = ref?.qualified;
  if (!q) return undefined;
  for (const m of CAYU_MODULES) {
    if (q.startsWith(m + '.')) {
      const rest = q.slice(m.length + 1);
      if (!rest.includes('.')) return rest;
    }
  }
  return undefined;
}

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
 * Classes of the module that subclass RuntimeHook, directly or through another class of the
 * module. Computed once per model; do not modify the list.
 */
export const runtimeHookClasses: (module: HookModule) => ClassDef[] = perModel(computeRuntimeHookClasses);

function computeRuntimeHookClasses(module: HookModule): ClassDef[] {
  if (module.classes.length === 0) return [];
  const hooks = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of module.classes) {
      if (hooks.has(c.name)) continue;
      const isHook = c.bases.some(
        (b) => cayuName(b) === CAYU_BASE_CLASS || (!b.qualified && hooks.has(b.text)),
      );
      if (isHook) {
        hooks.add(c.name);
        grew = true;
      }
    }
  }
  return module.classes.filter((c) => hooks.has(c.name));
}

export function definesRuntimeHook(module: HookModule): boolean {
  return runtimeHookClasses(module).length > 0;
}

export interface PhaseMethod {
  cls: ClassDef;
  method: FunctionDef;
  phase: CayuPhase;
}

/**
 * Phase methods a RuntimeHook subclass overrides (only those take part in the phase). Shared by
 * the Cayu rules: computed once per model; do not modify the list.
 */
export const phaseMethods: (module: HookModule) => PhaseMethod[] = perModel(computePhaseMethods);

function computePhaseMethods(module: HookModule): PhaseMethod[] {
  const out: PhaseMethod[] = [];
  for (const cls of runtimeHookClasses(module)) {
    for (const method of cls.methods) {
      const phase = findCayuPhase(method.name);
      if (phase) out.push({ cls, method, phase });
    }
  }
  return out;
}

/** The context parameter of a phase method: the first parameter after `self`. */
export function contextParameter(method: FunctionDef) {
  const params = method.parameters.filter((p) => p.kind === 'positional' || p.kind === 'positional-only');
  return params[1];
}

/** Levenshtein distance, for did-you-mean suggestions. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** The closest candidate within `max` edits, if any. */
export function closest(name: string, candidates: readonly string[], max = 3): string | undefined {
  let best: string | undefined;
  let bestD = max + 1;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}
