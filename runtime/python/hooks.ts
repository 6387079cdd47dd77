// The one hook query: which functions and classes of a module are hooks, matched against the
// catalogue. Every feature asks here: the rules, the language server (hooks list, hovers,
// symbols, which files are hook modules), the engine's hook locator, the scaffold and the
// discovery's Cayu pre-filter. Results are computed once per model (per-model.ts) and shared:
// callers must not modify them.
import {
  CAYU_BASE_CLASS,
  CAYU_MODULES,
  DEFAULT_TIMEOUT_MS,
  MANTLE_MODULE,
  findCayuPhase,
  findDecorator,
  getPayloadType,
  type CayuPhase,
  type HookDecorator,
  type Lane,
  type MantlePoint,
  type PayloadType,
} from '../catalogue';
import type {
  ClassDef,
  Decorator,
  FunctionDef,
  HookModule,
  KeywordArgument,
  NameRef,
  Parameter,
} from './model';
import { firstSegment, importsAnyRoot } from './module-facts';
import { resolveMantleName } from './names';
import { perModel } from './per-model';
import { catalogueGeneration } from '../catalogue/api-lines';

// ---- Mantle: module-level functions decorated with a hook decorator of rasa.mantle.hooks ----

export interface MantleHook {
  fn: FunctionDef;
  decorator: Decorator;
  /** The catalogue entry: name, point, lane. */
  hook: HookDecorator;
  point: MantlePoint;
  lane: Lane;
  payload: PayloadType;
  /** The hook's budget: timeout_ms when a valid literal is given, else the lane default. */
  timeoutMs: number;
  /** The `timeout_ms=` argument as written (any value), for the invalid-timeout rule. */
  timeoutArg?: KeywordArgument;
  /**
   * The decorator is a bare export name used without any import of it (the module fails to load
   * with a NameError, reported by unknown-hook-point); listed so the signature rules still run.
   */
  unimported: boolean;
  /**
   * One bit per rule that found this hook clean on its own facts (rules/util/clean-hooks.ts): the
   * record lives as long as its def is reused, and so does the verdict.
   */
  cleanFor: number;
}

/**
 * A MantleHook as the index builds it. A class rather than an object literal: the records live
 * as long as their model, and V8 pretenures an object literal's allocation site in that case,
 * which made building them slower than the walk itself.
 */
class HookRecord implements MantleHook {
  readonly point: MantlePoint;
  readonly lane: Lane;
  readonly payload: PayloadType;
  readonly timeoutArg?: KeywordArgument;
  cleanFor = 0;

  constructor(
    readonly fn: FunctionDef,
    readonly decorator: Decorator,
    readonly hook: HookDecorator,
    readonly timeoutMs: number,
    readonly unimported: boolean,
  ) {
    this.point = hook.point;
    this.lane = hook.lane;
    this.payload = getPayloadType(hook.point.payloadType);
    const arg = decorator.call?.keywords.find((k) => k.name === 'timeout_ms');
    if (arg) this.timeoutArg = arg;
  }
}

interface HookIndex {
  hooks: MantleHook[];
  /** The hooks of the modify lane (few: at most one per point in a valid agent). */
  modify: MantleHook[];
  /** Decorators of module-level functions that are not a hook decorator reached through an import. */
  otherDecorators: Decorator[];
}

const hookIndex = perModel(computeHookIndex);

/** Mantle hooks of the module, one per hook decorator, in source order. */
export function mantleHooks(module: HookModule): readonly MantleHook[] {
  return hookIndex(module).hooks;
}

/** The modify-lane hooks among mantleHooks(module), in source order. */
export function modifyHooks(module: HookModule): readonly MantleHook[] {
  return hookIndex(module).modify;
}

/**
 * Decorators of module-level functions, in source order, except those that resolve through an
 * import to a hook decorator (the common case, which no rule about unknown names needs to see).
 */
export function otherDecorators(module: HookModule): readonly Decorator[] {
  return hookIndex(module).otherDecorators;
}

/** "rasa.mantle.hooks.on_tool_call" → its decorator (as the selected engine line spells it). */
const MANTLE_PREFIX = `${MANTLE_MODULE}.`;
function decoratorByQualified(qualified: string): HookDecorator | undefined {
  if (!qualified.startsWith(MANTLE_PREFIX)) return undefined;
  const member = qualified.slice(MANTLE_PREFIX.length);
  return member.includes('.') ? undefined : findDecorator(member);
}

function computeHookIndex(module: HookModule): HookIndex {
  const hooks: MantleHook[] = [];
  const otherDecorators: Decorator[] = [];
  const generation = catalogueGeneration();
  for (const fn of module.functions) {
    const own = fn.decorators.length ? functionHooks(module, fn, generation) : undefined;
    if (!own) continue;
    for (const h of own.hooks) hooks.push(h);
    for (const d of own.other) otherDecorators.push(d);
  }
  return { hooks, modify: hooks.filter((h) => h.lane === 'modify'), otherDecorators };
}

/** One function's share of the index. */
interface FunctionHooks {
  generation: number;
  hooks: MantleHook[];
  other: Decorator[];
}

const FUNCTION_HOOKS = Symbol('hooksmith.functionHooks');

/**
 * A function's hooks and other decorators. When every decorator resolved through an import (its
 * qualified name was fixed when the def was modelled), they depend on the def and the catalogue
 * only: kept on the def, so the rebuild after an edit, which reuses the defs it did not touch,
 * finds them. A bare decorator name resolves against the whole module, so is resolved each time.
 */
function functionHooks(module: HookModule, fn: FunctionDef, generation: number): FunctionHooks {
  const holder = fn as FunctionDef & { [FUNCTION_HOOKS]?: FunctionHooks };
  const kept = holder[FUNCTION_HOOKS];
  if (kept?.generation === generation) return kept;
  const own: FunctionHooks = { generation, hooks: [], other: [] };
  let pure = true;
  for (const decorator of fn.decorators) {
    const qualified = decorator.ref.qualified;
    let hook: HookDecorator | undefined;
    let unimported = false;
    if (qualified !== undefined) {
      hook = decoratorByQualified(qualified);
    } else {
      pure = false;
      const resolved = resolveMantleName(module, decorator.ref);
      hook = resolved && findDecorator(resolved.member);
      unimported = resolved?.unimported ?? false;
    }
    if (qualified === undefined || !hook) own.other.push(decorator);
    if (!hook) continue;
    // timeout_ms counts only on a decorator resolved through an import; an unresolved one
    // fails to load anyway.
    const timeoutMs = (qualified !== undefined && literalTimeout(decorator)) || DEFAULT_TIMEOUT_MS[hook.lane];
    own.hooks.push(new HookRecord(fn, decorator, hook, timeoutMs, unimported));
  }
  if (pure && Object.isExtensible(fn))
    Object.defineProperty(fn, FUNCTION_HOOKS, {
      value: own,
      enumerable: false,
      writable: true,
      configurable: true,
    });
  return own;
}

/** The first `timeout_ms=` when it is a positive integer literal. */
function literalTimeout(decorator: Decorator): number | undefined {
  const keywords = decorator.call?.keywords;
  if (!keywords) return undefined;
  for (const k of keywords) {
    if (k.name !== 'timeout_ms') continue;
    const v = k.value;
    return v.kind === 'number' && Number.isInteger(v.value) && v.value > 0 ? v.value : undefined;
  }
  return undefined;
}

/** Decorators that resolve into rasa.mantle.hooks but name no catalogue decorator (unknown-hook-point). */
export function unresolvedMantleDecorators(
  module: HookModule,
): { fn: FunctionDef; decorator: Decorator; member: string }[] {
  const out: { fn: FunctionDef; decorator: Decorator; member: string }[] = [];
  for (const fn of module.functions) {
    for (const decorator of fn.decorators) {
      const q = decorator.ref.qualified;
      if (!q?.startsWith(MANTLE_PREFIX)) continue;
      const member = q.slice(MANTLE_PREFIX.length);
      if (!member.includes('.') && !findDecorator(member)) out.push({ fn, decorator, member });
    }
  }
  return out;
}

/** The parameter the engine passes the payload to: the first positional one. */
export function payloadParameter(fn: FunctionDef): Parameter | undefined {
  const p = fn.parameters[0];
  return p && (p.kind === 'positional' || p.kind === 'positional-only') ? p : undefined;
}

// ---- Cayu: classes that subclass RuntimeHook, at any depth ----

export interface CayuPhaseMethod {
  cls: ClassDef;
  method: FunctionDef;
  phase: CayuPhase;
}

export interface CayuHookClass {
  cls: ClassDef;
  /** The base through which it is a RuntimeHook (Cayu's class, or a hook class of the module). */
  base: NameRef;
  /** Class attribute `name` when a string literal, else the class name (Cayu's default). */
  name: string;
  /** Methods that override a phase: the hook takes part only in these phases. */
  phases: CayuPhaseMethod[];
  /** `before_*` / `after_*` methods that match no phase (likely typos). */
  unknownPhaseMethods: FunctionDef[];
  /**
   * The host can import it by name: a module-level class. A class made in a function or nested
   * in another class is analysed but cannot be run on its own.
   */
  runnable: boolean;
}

/** First segments of the Cayu modules ("cayu"): a module importing none of them defines no Cayu hook. */
export const CAYU_ROOTS: readonly string[] = [...new Set(CAYU_MODULES.map(firstSegment))];

/** Whether the module imports from a Cayu module at all (the Cayu rules have nothing to say otherwise). */
export function importsCayu(module: HookModule): boolean {
  return importsAnyRoot(module, CAYU_ROOTS);
}

/** The exported Cayu name a reference stands for, when it resolves into one of the Cayu modules. */
export function cayuName(ref: NameRef | undefined): string | undefined {
  const q = ref?.qualified;
  if (!q) return undefined;
  for (const m of CAYU_MODULES) {
    if (q.length > m.length && q.startsWith(m) && q[m.length] === '.') {
      const rest = q.slice(m.length + 1);
      if (!rest.includes('.')) return rest;
    }
  }
  return undefined;
}

/** Whether a NameRef resolves to RuntimeHook under one of the public Cayu paths. */
export function isCayuRuntimeHook(ref: NameRef): boolean {
  return cayuName(ref) === CAYU_BASE_CLASS;
}

const PHASE_LIKE = /^(before|after)_/;

/**
 * Classes of the module deriving from Cayu's RuntimeHook, directly or through another class of
 * the module, at any depth, with their phase methods matched to the catalogue. Source order.
 */
export const cayuHookClasses: (module: HookModule) => readonly CayuHookClass[] = perModel(computeCayuHooks);

function computeCayuHooks(module: HookModule): CayuHookClass[] {
  if (module.classes.length === 0) return [];
  const bases = new Map<ClassDef, NameRef>();
  const hookNames = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const c of module.classes) {
      if (bases.has(c)) continue;
      const base = c.bases.find((b) => isCayuRuntimeHook(b) || (!b.qualified && hookNames.has(b.text)));
      if (base) {
        bases.set(c, base);
        hookNames.add(c.name);
        grew = true;
      }
    }
  }
  const out: CayuHookClass[] = [];
  for (const cls of module.classes) {
    const base = bases.get(cls);
    if (!base) continue;
    const phases: CayuPhaseMethod[] = [];
    const unknownPhaseMethods: FunctionDef[] = [];
    for (const method of cls.methods) {
      const phase = findCayuPhase(method.name);
      if (phase) phases.push({ cls, method, phase });
      else if (PHASE_LIKE.test(method.name)) unknownPhaseMethods.push(method);
    }
    const nameAttr = cls.attributes.find((a) => a.name === 'name' && a.value.kind === 'string');
    const name = nameAttr && nameAttr.value.kind === 'string' ? nameAttr.value.value : cls.name;
    out.push({ cls, base, name, phases, unknownPhaseMethods, runnable: cls.enclosing === undefined });
  }
  return out;
}

/** Every phase method of every RuntimeHook subclass of the module. */
export const phaseMethods: (module: HookModule) => readonly CayuPhaseMethod[] = perModel((module) =>
  cayuHookClasses(module).flatMap((c) => c.phases),
);

export function definesRuntimeHook(module: HookModule): boolean {
  return cayuHookClasses(module).length > 0;
}

/** The context parameter of a phase method: the first positional parameter after `self`. */
export function contextParameter(method: FunctionDef): Parameter | undefined {
  const params = method.parameters.filter((p) => p.kind === 'positional' || p.kind === 'positional-only');
  return params[1];
}

/**
 * Discovery's pre-filter, before any parse: a file can define a RuntimeHook subclass only if the
 * word `RuntimeHook` appears in it (every import path and alias spells it once).
 */
export function textMayDefineRuntimeHook(text: string): boolean {
  return RUNTIME_HOOK_WORD.test(text);
}

const RUNTIME_HOOK_WORD = new RegExp(`\\b${CAYU_BASE_CLASS}\\b`);
