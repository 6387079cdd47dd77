// FILE::HANDLER → the hook the engine would call: a Mantle function (point, lane, timeout
// from its decorator) or a Cayu `Class.method` phase of a RuntimeHook subclass.
import { CAYU_PHASE_IDS, decoratorName, type CayuPhaseId, type Lane, type MantlePoint } from '../catalogue';
import { cayuHookClasses, mantleHooks, type HookModule } from '../python';
import { cayuSafetyStopMs } from './cayu-safety-stop';

export type HookTarget =
  | { engine: 'mantle'; handler: string; point: MantlePoint; lane: Lane; timeoutMs: number }
  | {
      engine: 'cayu';
      handler: string;
      className: string;
      hookName: string;
      phase: CayuPhaseId;
      timeoutMs: number;
    };

/** The name Python binds: it reads identifiers in NFKC (`ｇuard` defines `guard`). */
const pyName = (name: string) => name.normalize('NFKC');

export type Located = { ok: true; target: HookTarget } | { ok: false; message: string };

/**
 * Every hook of a module the engine can call by name, in source order: Mantle functions first,
 * then the phase methods of module-level RuntimeHook subclasses (a class made inside a function
 * is analysed, but nothing can import it to run it). A Cayu phase's budget is `safetyStopMs`, the
 * run's safety stop (default: HOOKSMITH_CAYU_SAFETY_STOP_S, else 120 s).
 */
export function hooksOf(module: HookModule, safetyStopMs = cayuSafetyStopMs()): HookTarget[] {
  const hooks = mantleHooks(module).filter((h) => !h.unimported);
  const out: HookTarget[] = hooks.map((h) => ({
    engine: 'mantle' as const,
    handler: pyName(h.fn.name),
    point: h.point,
    lane: h.lane,
    timeoutMs: h.timeoutMs,
  }));
  for (const c of cayuHookClasses(module)) {
    if (!c.runnable) continue;
    for (const p of c.phases) {
      out.push({
        engine: 'cayu',
        handler: `${pyName(c.cls.name)}.${pyName(p.method.name)}`,
        className: pyName(c.cls.name),
        hookName: c.name,
        phase: p.phase.id,
        timeoutMs: safetyStopMs,
      });
    }
  }
  return out;
}

/** The hook `handler` names, by either spelling of a name Python normalises. */
export function locateHook(module: HookModule, asked: string, safetyStopMs?: number): Located {
  const handler = pyName(asked);
  const hooks = hooksOf(module, safetyStopMs);
  const found = hooks.filter((h) => h.handler === handler);
  if (found.length === 1) return { ok: true, target: found[0]! };
  if (found.length > 1) {
    return {
      ok: false,
      message: `${handler} is registered at several points (${found.map(describeTarget).join(', ')}); the engine rejects a handler registered twice — keep one decorator`,
    };
  }
  const available = hooks.length
    ? `hooks in this file: ${hooks.map((h) => h.handler).join(', ')}`
    : 'this file defines no Mantle hook and no RuntimeHook phase';
  const [cls, method] = handler.split('.', 2);
  const fn = module.functions.find((f) => pyName(f.name) === handler);
  if (fn)
    return {
      ok: false,
      message: `${handler} is not a hook: it has no decorator of rasa.mantle.hooks (${available})`,
    };
  if (method !== undefined) {
    const c = module.classes.find((k) => pyName(k.name) === cls && k.enclosing === undefined);
    if (c && !cayuHookClasses(module).some((k) => pyName(k.cls.name) === cls))
      return { ok: false, message: `${cls} is not a RuntimeHook subclass (${available})` };
    if (c)
      return {
        ok: false,
        message: `${handler} is not a phase ${c.methods.some((m) => pyName(m.name) === method) ? 'method' : 'of the class'}: phases are ${CAYU_PHASE_IDS.join(', ')} (${available})`,
      };
  }
  return { ok: false, message: `no handler '${handler}' in ${module.path} (${available})` };
}

export function describeTarget(t: HookTarget): string {
  return t.engine === 'mantle' ? decoratorName(t.point.id, t.lane) : t.phase;
}
