// The Mantle API line every command and the editor speak: the override (--mantle-line, the
// hooksmith.mantle.apiLine setting) when given, else the line the installed rasa.mantle.hooks
// speaks (its exports), else the spec's. An override naming another line than the installed
// engine speaks sets its exports aside: the rules then judge by the chosen line, as `run` does.
// The CLI, the language server and the editor's runner all choose through selectEngineLine.
import { mantleLineFor, useMantleLine, type MantleLineId } from '../catalogue';
import { PythonEnvironment, readable, type EngineFacts } from './environment';

export interface EngineLine {
  line: MantleLineId;
  /** The facts the rules may use (without the installed Mantle exports when overridden away). */
  engine: EngineFacts | undefined;
}

export function selectEngineLine(engine: EngineFacts | undefined, override?: string): EngineLine {
  const names = readable(engine?.mantle ?? null)?.names;
  const installed = mantleLineFor(names);
  const line = mantleLineFor(names, override);
  useMantleLine(line);
  if (!engine || !names || line === installed) return { line, engine };
  return { line, engine: { ...engine, mantle: null } };
}

/**
 * Asks `python` (default python3) what its engine exports (remembered on disk, as check and the
 * server remember it) and selects the line; a Python that does not answer: the override or the spec's.
 */
export async function probeEngineLine(python: string | undefined, override?: string): Promise<EngineLine> {
  const facts = await PythonEnvironment.withDefaultCache(
    python ? { python } : {},
    !process.env.HOOKSMITH_NO_CACHE,
  )
    .engine()
    .catch(() => undefined);
  return selectEngineLine(facts, override);
}
