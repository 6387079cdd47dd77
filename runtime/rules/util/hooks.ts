// The Mantle hooks of a module as the rules see them: each decorated module-level function
// whose decorator resolves to a hook decorator of `rasa.mantle.hooks`.
//
// Also counts a bare `@on_tool_call()` used without any import (the module fails to load
// with a NameError, reported by unknown-hook-point) so the signature rules still run on it.
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
import { mantleMember, unimportedMantleName } from './names';

export interface MantleHook {
  fn: FunctionDef;
  decorator: Decorator;
  /** The catalogue entry: name, point, lane. */
  hook: HookDecorator;
  point: MantlePoint;
  lane: Lane;
  payload: PayloadType;
  /** timeout_ms when a valid literal is given, else the lane default. */
  timeoutMs: number;
  /** The decorator is used without any import of it. */
  unimported: boolean;
}

export function mantleHooks(module: HookModule): MantleHook[] {
  const hooks: MantleHook[] = [];
  for (const fn of module.functions) {
    for (const decorator of fn.decorators) {
      const resolved = mantleMember(decorator.ref);
      const bare = resolved === undefined ? unimportedMantleName(module, decorator.ref) : undefined;
      const hook = findDecorator(resolved ?? bare ?? '');
      if (!hook) continue;
      hooks.push({
        fn,
        decorator,
        hook,
        point: hook.point,
        lane: hook.lane,
        payload: getPayloadType(hook.point.payloadType),
        timeoutMs: timeoutOf(decorator) ?? DEFAULT_TIMEOUT_MS[hook.lane],
        unimported: bare !== undefined,
      });
    }
  }
  return hooks;
}

function timeoutOf(decorator: Decorator): number | undefined {
  const kw = decorator.call?.keywords.find((k) => k.name === 'timeout_ms');
  if (kw?.value.kind === 'number' && kw.value.isInteger && kw.value.value > 0) return kw.value.value;
  return undefined;
}

/** The parameter the engine passes the payload to: the first positional one. */
export function payloadParameter(fn: FunctionDef): Parameter | undefined {
  const p = fn.parameters[0];
  return p && (p.kind === 'positional' || p.kind === 'positional-only') ? p : undefined;
}
