// The Mantle hooks of a module as the rules see them: decorators that resolve to a hook decorator
// of `rasa.mantle.hooks` through the imports (as python/hooks.ts's mantleHooks matches them) plus
// the payload type, and plus a bare `@on_tool_call()` reached through `import *` or used without
// any import (the module fails to load with a NameError, reported by unknown-hook-point) so the
// signature rules still run on it. Source order.
import {
  DEFAULT_TIMEOUT_MS,
  findDecorator,
  getPayloadType,
  type HookDecorator,
  type Lane,
  type MantlePoint,
  type PayloadType,
} from '../../catalogue';
import type { Decorator, FunctionDef, HookModule, Parameter } from '../../python/model';
import { mantleMember, resolveMantleName } from './names';

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
 * Computed once per model and shared by every rule (models are never changed once built; a new
 * text gets a new model). Without it, each rule re-resolved every decorator, and
 * duplicate-modify-hook did so for every sibling module of every module of an agent.
 */
const cache = new WeakMap<HookModule, MantleHook[]>();

/** Callers must not modify the returned list (it is shared). */
export function mantleHooks(module: HookModule): MantleHook[] {
  let hooks = cache.get(module);
  if (!hooks) {
    hooks = computeMantleHooks(module);
    cache.set(module, hooks);
  }
  return hooks;
}

function computeMantleHooks(module: HookModule): MantleHook[] {
  const hooks: MantleHook[] = [];
  for (const fn of module.functions) {
    for (const decorator of fn.decorators) {
      const resolved = resolveMantleName(module, decorator.ref);
      const hook = resolved && findDecorator(resolved.member);
      if (!hook) continue;
      // timeout_ms counts only on a decorator reached through an import (python/hooks.ts reads it
      // there); a wildcard or unimported one fails to load anyway.
      const viaImport = mantleMember(decorator.ref) !== undefined;
      hooks.push({
        fn,
        decorator,
        hook,
        point: hook.point,
        lane: hook.lane,
        payload: getPayloadType(hook.point.payloadType),
        timeoutMs: (viaImport && literalTimeout(decorator)) || DEFAULT_TIMEOUT_MS[hook.lane],
        unimported: resolved.unimported,
      });
    }
  }
  return hooks;
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
