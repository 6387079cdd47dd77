// The engine API lines every command and the editor speak. Mantle: the override (--mantle-line,
// the hooksmith.mantle.apiLine setting) when given, else the line the installed rasa.mantle.hooks
// speaks (its exports), else the spec's. An override naming another line than the installed
// engine speaks sets its exports aside: the rules then judge by the chosen line, as `run` does.
// Cayu: the override (--cayu-line, hooksmith.cayu.apiLine), else the installed cayu's layout
// (its modules, its version), else none (every public path of both layouts accepted).
// The CLI, the language server and the editor's runner all choose through selectEngineLine.
import {
  cayuLineFor,
  mantleLineFor,
  useCayuLine,
  useMantleLine,
  type CayuLineId,
  type MantleLineId,
} from '../catalogue';
import { PythonEnvironment, readable, type EngineFacts } from './environment';

export interface EngineLine {
  line: MantleLineId;
  cayuLine: CayuLineId | undefined;
  /** The facts the rules may use (without the installed Mantle exports when overridden away). */
  engine: EngineFacts | undefined;
}

export function selectEngineLine(
  engine: EngineFacts | undefined,
  override?: string,
  cayuOverride?: string | null,
): EngineLine {
  const cayuLine = cayuLineFor(
    engine?.cayu
      ? { version: engine.cayu, ...(engine.cayuModules ? { modules: engine.cayuModules } : {}) }
      : undefined,
    cayuOverride,
  );
  useCayuLine(cayuLine);
  const names = readable(engine?.mantle ?? null)?.names;
  const installed = mantleLineFor(names);
  const line = mantleLineFor(names, override);
  useMantleLine(line);
  if (!engine || !names || line === installed) return { line, cayuLine, engine };
  return { line, cayuLine, engine: { ...engine, mantle: null } };
}

/**
 * Asks `python` (default python3) what its engine exports (remembered on disk, as check and the
 * server remember it) and selects the line; a Python that does not answer: the override or the spec's.
 */
export async function probeEngineLine(
  python: string | undefined,
  override?: string,
  cayuOverride?: string | null,
): Promise<EngineLine> {
  const facts = await PythonEnvironment.withDefaultCache(
    python ? { python } : {},
    !process.env.HOOKSMITH_NO_CACHE,
  )
    .engine()
    .catch(() => undefined);
  return selectEngineLine(facts, override, cayuOverride);
}
