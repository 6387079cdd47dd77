// The Mantle API line every command and the editor speak: the override (--mantle-line, the
// hooksmith.mantle.apiLine setting) when given, else the line the installed rasa.mantle.hooks
// speaks (its exports), else the spec's. An override naming another line than the installed
// engine speaks sets its exports aside: the rules then judge by the chosen line, as `run` does.
import { mantleLineFor, useMantleLine, type MantleLineId } from '../catalogue';
import { readable, type EngineFacts } from './environment';

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
