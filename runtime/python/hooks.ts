// Which functions and classes of a module are hooks, matched against the catalogue.
// Used by the rules, the language server and the runtime.
import {
  CAYU_BASE_CLASS,
  CAYU_MODULES,
  DEFAULT_TIMEOUT_MS,
  MANTLE_MODULE,
  findCayuPhase,
  findDecorator,
  type CayuPhase,
  type HookDecorator,
  type Lane,
  type MantlePoint,
} from '../catalogue';
import type { ClassDef, Decorator, FunctionDef, HookModule, KeywordArgument, NameRef } from './model';

export interface MantleHook {
  fn: FunctionDef;
  decorator: Decorator;
  /** The catalogue's decorator (name, point, lane). */
  hookDecorator: HookDecorator;
  point: MantlePoint;
  lane: Lane;
  /** `timeout_ms=` when given as a number literal, else the lane's default. */
  timeoutMs: number;
  /** The `timeout_ms=` argument as written (any value), for the invalid-timeout rule. */
  timeoutArg?: KeywordArgument;
}

export interface CayuPhaseMethod {
  method: FunctionDef;
  phase: CayuPhase;
}

export interface CayuHookClass {
  cls: ClassDef;
  /** The base that resolves to RuntimeHook. */
  base: NameRef;
  /** Class attribute `name` when a string literal, else the class name (Cayu's default). */
  name: string;
  /** Methods that override a phase: the hook takes part only in these phases. */
  phases: CayuPhaseMethod[];
  /** `before_*` / `after_*` methods that match no phase (likely typos). */
  unknownPhaseMethods: FunctionDef[];
}

const MANTLE_PREFIX = `${MANTLE_MODULE}.`;

/** The decorator name inside rasa.mantle.hooks a NameRef resolves to, if it does. */
function mantleMember(ref: NameRef): string | undefined {
  const q = ref.qualified;
  if (!q || !q.startsWith(MANTLE_PREFIX)) return undefined;
  const member = q.slice(MANTLE_PREFIX.length);
  return member.includes('.') ? undefined : member;
}

/** Module-level functions decorated with a catalogue decorator of rasa.mantle.hooks (one entry per decorator). */
export function mantleHooks(module: HookModule): MantleHook[] {
  const out: MantleHook[] = [];
  for (const fn of module.functions) {
    for (const decorator of fn.decorators) {
      const member = mantleMember(decorator.ref);
      const hd = member === undefined ? undefined : findDecorator(member);
      if (!hd) continue;
      const timeoutArg = decorator.call?.keywords.find((k) => k.name === 'timeout_ms');
      const literal = timeoutArg?.value.kind === 'number' ? timeoutArg.value.value : undefined;
      out.push({
        fn,
        decorator,
        hookDecorator: hd,
        point: hd.point,
        lane: hd.lane,
        timeoutMs: literal ?? DEFAULT_TIMEOUT_MS[hd.lane],
        ...(timeoutArg ? { timeoutArg } : {}),
      });
    }
  }
  return out;
}

/** Decorators that resolve into rasa.mantle.hooks but name no catalogue decorator (unknown-hook-point). */
export function unresolvedMantleDecorators(
  module: HookModule,
): { fn: FunctionDef; decorator: Decorator; member: string }[] {
  const out: { fn: FunctionDef; decorator: Decorator; member: string }[] = [];
  for (const fn of module.functions) {
    for (const decorator of fn.decorators) {
      const member = mantleMember(decorator.ref);
      if (member !== undefined && !findDecorator(member)) out.push({ fn, decorator, member });
    }
  }
  return out;
}

const CAYU_BASES = new Set(CAYU_MODULES.map((m) => `${m}.${CAYU_BASE_CLASS}`));

/** Whether a NameRef resolves to RuntimeHook of one of the Cayu namespaces. */
export function isCayuRuntimeHook(ref: NameRef): boolean {
  return ref.qualified !== undefined && CAYU_BASES.has(ref.qualified);
}

const PHASE_LIKE = /^(before|after)_/;

/** Classes deriving from Cayu's RuntimeHook, with their phase methods matched to the catalogue. */
export function cayuHookClasses(module: HookModule): CayuHookClass[] {
  const out: CayuHookClass[] = [];
  for (const cls of module.classes) {
    const base = cls.bases.find(isCayuRuntimeHook);
    if (!base) continue;
    const phases: CayuPhaseMethod[] = [];
    const unknownPhaseMethods: FunctionDef[] = [];
    for (const method of cls.methods) {
      const phase = findCayuPhase(method.name);
      if (phase) phases.push({ method, phase });
      else if (PHASE_LIKE.test(method.name)) unknownPhaseMethods.push(method);
    }
    const nameAttr = cls.attributes.find((a) => a.name === 'name' && a.value.kind === 'string');
    const name = nameAttr && nameAttr.value.kind === 'string' ? nameAttr.value.value : cls.name;
    out.push({ cls, base, name, phases, unknownPhaseMethods });
  }
  return out;
}
