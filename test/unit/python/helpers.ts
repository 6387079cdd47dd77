// Shared by the python model tests: parse a snippet into a model (and free its tree).
import { buildModel, initParser, parse } from '../../../runtime/python';
import type { HookModule, FunctionDef } from '../../../runtime/python/model';

export async function modelOf(src: string, path = 'hooks.py'): Promise<HookModule> {
  await initParser();
  const tree = parse(src);
  try {
    return buildModel(tree, src, path);
  } finally {
    tree.delete();
  }
}

export function fn(m: HookModule, name: string): FunctionDef {
  const f =
    m.functions.find((x) => x.name === name) ??
    m.classes.flatMap((c) => c.methods).find((x) => x.name === name);
  if (!f) throw new Error(`no function ${name}`);
  return f;
}

/** Dedents a template literal so tests can indent Python naturally. */
export function py(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = raw.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)?.[0].length ?? 0));
  return lines.map((l) => l.slice(indent)).join('\n');
}
