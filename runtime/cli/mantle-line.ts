// `--mantle-line LINE` (any command) and the installed engine pick the Mantle API line every
// command speaks (runtime/catalogue/api-lines.ts). Selected once, before the command runs; the
// host started later inherits it through HOOKSMITH_MANTLE_LINE.
import {
  findMantleLine,
  MANTLE_LINE_ENV,
  MANTLE_LINE_IDS,
  useMantleLine,
  type MantleLineId,
} from '../catalogue';
import { probeEngineLine } from '../cpython/engine-line';

/** `args` without `--mantle-line X` / `--mantle-line=X`, and the line it names; a string: the usage error. */
export function takeMantleLineOption(
  args: readonly string[],
): { args: string[]; line?: MantleLineId } | string {
  const rest: string[] = [];
  let line: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (a === '--mantle-line') line = args[++i] ?? '';
    else if (a.startsWith('--mantle-line=')) line = a.slice('--mantle-line='.length);
    else rest.push(a);
  }
  if (line === undefined) return { args: rest };
  const found = findMantleLine(line);
  if (!found) return `unknown --mantle-line '${line}': expected one of ${MANTLE_LINE_IDS.join(', ')}`;
  return { args: rest, line: found.id };
}

/** The interpreter a command was given (`--python PATH`), for the probe. */
function pythonOf(args: readonly string[]): string | undefined {
  const at = args.indexOf('--python');
  if (at >= 0) return args[at + 1];
  return args.find((a) => a.startsWith('--python='))?.slice('--python='.length);
}

/** Selects the line: the option, else HOOKSMITH_MANTLE_LINE, else what the installed rasa.mantle.hooks exports. */
export async function selectMantleLine(
  args: readonly string[],
  option: MantleLineId | undefined,
): Promise<MantleLineId> {
  let id = option ?? findMantleLine(process.env[MANTLE_LINE_ENV] ?? '')?.id;
  if (!id) id = (await probeEngineLine(pythonOf(args))).line;
  else useMantleLine(id);
  process.env[MANTLE_LINE_ENV] = id;
  return id;
}
