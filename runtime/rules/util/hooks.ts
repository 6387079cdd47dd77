// The Mantle hooks of a module as the rules see them: decorators that resolve to a hook decorator
// of `rasa.mantle.hooks` through the imports (as python/hooks.ts's mantleHooks matches them) plus
// the payload type, and plus a bare `@on_tool_call()` reached through `import *` or used without
// any import (the module fails to load with a NameError, reported by unknown-hook-point) so the
// signature rules still run on it. Source order.
import {
  DEFAULT_TIMEOUT_MS,
  HOOK_DECORATORS,
  MANTLE_MODULE,
  findDecorator,
  getPayloadType,
  type HookDecorator,
  type Lane,
  type MantlePoint,
  type PayloadType,
} from '../../catalogue';
import type { Decorator, FunctionDef, HookModule, Parameter } from '../../python/model';
import { resolveMantleName } from './names';
import { perModel } from './per-model';

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
  /** The decorator is used without any import of it. */
  unimported: boolean;
}

/**
 * A MantleHook as the index builds it. A class rather than an object literal: the records live
 * as long as their model, so V8 moves an object literal's allocation site to the old
 * generation ("pretenuring"), which made building them ~4x slower than the walk itself.
 */
class HookRecord implements MantleHook {
  readonly fn: FunctionDef;
  readonly decorator: Decorator;
  readonly hook: HookDecorator;
  readonly point: MantlePoint;
  readonly lane: Lane;
  readonly payload: PayloadType;
  readonly timeoutMs: number;
  readonly unimported: boolean;

  constructor(
    fn: FunctionDef,
    decorator: Decorator,
    hook: HookDecorator,
    timeoutMs: number,
    unimported: boolean,
  ) {
    this.fn = fn;
    this.decorator = decorator;
    this.hook = hook;
    this.point = hook.point;
    this.lane = hook.lane;
    this.payload = getPayloadType(hook.point.payloadType);
    this.timeoutMs = timeoutMs;
    this.unimported = unimported;
  }
}

interface HookIndex {
  hooks: MantleHook[];
  /** The hooks of the modify lane (few: at most one per point in a valid agent). */
  modify: MantleHook[];
  /** Decorators of module-level functions that are not a hook decorator reached through an import. */
  otherDecorators: Decorator[];
}

/**
 * Computed once per model and shared by every rule. Without it, each rule re-resolved every
 * decorator, and duplicate-modify-hook did so for every sibling module of every module of an agent.
 */
const hookIndex = perModel(computeHookIndex);

/** Callers must not modify the returned list (it is shared). */
export function mantleHooks(module: HookModule): MantleHook[] {
  return hookIndex(module).hooks;
}

/** The modify-lane hooks among mantleHooks(module), in source order. Shared: do not modify. */
export function modifyHooks(module: HookModule): readonly MantleHook[] {
  return hookIndex(module).modify;
}

/**
 * Decorators of module-level functions, in source order, except those that resolve through an
 * import to a hook decorator (the common case, which no rule about unknown names needs to see).
 * Shared: do not modify.
 */
export function otherDecorators(module: HookModule): readonly Decorator[] {
  return hookIndex(module).otherDecorators;
}

/** "rasa.mantle.hooks.on_tool_call" → its decorator: one lookup for a decorator reached through an import. */
const DECORATORS_BY_QUALIFIED = new Map(HOOK_DECORATORS.map((d) => [`${MANTLE_MODULE}.${d.name}`, d]));

function computeHookIndex(module: HookModule): HookIndex {
  const hooks: MantleHook[] = [];
  const otherDecorators: Decorator[] = [];
  for (const fn of module.functions) {
    for (const decorator of fn.decorators) {
      const qualified = decorator.ref.qualified;
      let hook: HookDecorator | undefined;
      let unimported = false;
      if (qualified !== undefined) {
        // Resolved through an import: a hook decorator exactly when the name is one (what
        // resolveMantleName then findDecorator would find, without slicing the name).
        hook = DECORATORS_BY_QUALIFIED.get(qualified);
      } else {
        const resolved = resolveMantleName(module, decorator.ref);
        hook = resolved && findDecorator(resolved.member);
        unimported = resolved?.unimported ?? false;
      }
      if (qualified === undefined || !hook) otherDecorators.push(decorator);
      if (!hook) continue;
      // timeout_ms counts only on a decorator the model resolved (where python/hooks.ts reads
      // it); an unresolved one fails to load anyway.
      const timeoutMs =
        (qualified !== undefined && literalTimeout(decorator)) || DEFAULT_TIMEOUT_MS[hook.lane];
      hooks.push(new HookRecord(fn, decorator, hook, timeoutMs, unimported));
    }
  }
  return { hooks, modify: hooks.filter((h) => h.lane === 'modify'), otherDecorators };
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

/** The parameter the engine passes the payload to: the first positional one. */
export function payloadParameter(fn: FunctionDef): Parameter | undefined {
  const p = fn.parameters[0];
  return p && (p.kind === 'positional' || p.kind === 'positional-only') ? p : undefined;
}
