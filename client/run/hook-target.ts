// What a hook is (engine, point, lane) from its file and handler: the language server's answer
// when it has one, else the same parse the engine does (works before the server is ready).
import * as path from 'node:path';
import { hooksOf } from '../../runtime/engine/hook-locator';
import { ModuleChecker } from '../../runtime/engine/module-check';
import type { HookEntry, HooksResult } from '../../runtime/lsp/shared';

export interface HookRef {
  file: string;
  handler: string;
  engine: 'mantle' | 'cayu';
  /** Mantle point id or Cayu phase id: the key of sample payloads. */
  point: string;
  /** The point as the selected Mantle API line names it, when not its id (display only). */
  pointName?: string;
  lane: string;
  timeoutMs?: number;
}

const checker = new ModuleChecker();

function fromEntry(e: HookEntry): HookRef {
  return {
    file: e.file,
    handler: e.handler,
    engine: e.engine,
    point: e.point,
    ...(e.pointName ? { pointName: e.pointName } : {}),
    lane: e.engine === 'cayu' ? 'phase' : e.lane,
    timeoutMs: e.timeoutMs,
  };
}

/** Every hook of a file on disk, in source order. */
export async function hooksInFile(file: string, store?: HooksResult): Promise<HookRef[]> {
  const abs = path.resolve(file);
  const known = store?.agents.flatMap((a) => a.hooks).filter((h) => path.resolve(h.file) === abs) ?? [];
  if (known.length) return known.map(fromEntry);
  try {
    const checked = await checker.check(abs);
    return hooksOf(checked.module).map((t) =>
      t.engine === 'mantle'
        ? {
            file: abs,
            handler: t.handler,
            engine: 'mantle' as const,
            point: t.point.id,
            lane: t.lane,
            timeoutMs: t.timeoutMs,
          }
        : {
            file: abs,
            handler: t.handler,
            engine: 'cayu' as const,
            point: t.phase,
            lane: 'phase',
            timeoutMs: t.timeoutMs,
          },
    );
  } catch {
    return [];
  }
}

export async function findHook(
  file: string,
  handler: string,
  store?: HooksResult,
): Promise<HookRef | undefined> {
  return (await hooksInFile(file, store)).find((h) => h.handler === handler);
}

/** Every hook the server knows, or the hooks of one agent root. */
export function allHooks(store: HooksResult | undefined, agentRoot?: string): HookRef[] {
  if (!store) return [];
  return store.agents
    .filter((a) => !agentRoot || path.resolve(a.root) === path.resolve(agentRoot))
    .flatMap((a) => a.hooks.map(fromEntry));
}
