// `--mantle-line LINE` and `--cayu-line LINE` (any command) and the installed engines pick the
// API lines every command speaks (runtime/catalogue/api-lines.ts, cayu-lines.ts). Selected once,
// before the command runs; the host started later inherits them through HOOKSMITH_MANTLE_LINE and
// HOOKSMITH_CAYU_LINE (its shims serve those lines' names and modules).
import {
  CAYU_LINE_ENV,
  CAYU_LINE_IDS,
  findCayuLine,
  findMantleLine,
  MANTLE_LINE_ENV,
  MANTLE_LINE_IDS,
  useCayuLine,
  useMantleLine,
  type CayuLineId,
  type MantleLineId,
  untestedEngineHints,
} from '../catalogue';
import { probeEngineLine } from '../cpython/engine-line';

/**
 * `args` without `--mantle-line X` / `--cayu-line X` (or `=X`), and the lines they name; a string:
 * the usage error.
 */
export function takeMantleLineOption(
  args: readonly string[],
): { args: string[]; line?: MantleLineId; cayuLine?: CayuLineId } | string {
  const rest: string[] = [];
  const given: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    const option = ['--mantle-line', '--cayu-line'].find((o) => a === o || a.startsWith(`${o}=`));
    if (!option) rest.push(a);
    else given[option] = a === option ? (args[++i] ?? '') : a.slice(option.length + 1);
  }
  const mantle = given['--mantle-line'];
  const cayu = given['--cayu-line'];
  const line = mantle === undefined ? undefined : findMantleLine(mantle)?.id;
  if (mantle !== undefined && !line)
    return `unknown --mantle-line '${mantle}': expected one of ${MANTLE_LINE_IDS.join(', ')}`;
  const cayuLine = cayu === undefined ? undefined : findCayuLine(cayu)?.id;
  if (cayu !== undefined && !cayuLine)
    return `unknown --cayu-line '${cayu}': expected one of ${CAYU_LINE_IDS.join(', ')}`;
  // The same lines through the environment: a typo there is the same usage error, not ignored.
  const envMantle = process.env[MANTLE_LINE_ENV];
  if (mantle === undefined && envMantle && !findMantleLine(envMantle))
    return `unknown ${MANTLE_LINE_ENV}='${envMantle}': expected one of ${MANTLE_LINE_IDS.join(', ')}`;
  const envCayu = process.env[CAYU_LINE_ENV];
  if (cayu === undefined && envCayu && !findCayuLine(envCayu))
    return `unknown ${CAYU_LINE_ENV}='${envCayu}': expected one of ${CAYU_LINE_IDS.join(', ')}`;
  return { args: rest, ...(line ? { line } : {}), ...(cayuLine ? { cayuLine } : {}) };
}

/** The interpreter a command was given (`--python PATH`), for the probe. */
function pythonOf(args: readonly string[]): string | undefined {
  const at = args.indexOf('--python');
  if (at >= 0) return args[at + 1];
  return args.find((a) => a.startsWith('--python='))?.slice('--python='.length);
}

/**
 * Selects the lines: the option, else HOOKSMITH_MANTLE_LINE / HOOKSMITH_CAYU_LINE, else what the
 * installed rasa.mantle.hooks exports and the installed cayu's layout.
 */
export async function selectMantleLine(
  args: readonly string[],
  option: MantleLineId | undefined,
  cayuOption?: CayuLineId,
): Promise<MantleLineId> {
  let id = option ?? findMantleLine(process.env[MANTLE_LINE_ENV] ?? '')?.id;
  const cayu = cayuOption ?? findCayuLine(process.env[CAYU_LINE_ENV])?.id;
  if (!id || !cayu) {
    const selected = await probeEngineLine(pythonOf(args), id, cayu);
    hintUntestedOnce(selected.engine);
    id = selected.line;
    setCayuLineEnv(selected.cayuLine);
  } else {
    useMantleLine(id);
    useCayuLine(cayu);
    setCayuLineEnv(cayu);
  }
  process.env[MANTLE_LINE_ENV] = id;
  return id;
}

/** No line (no cayu installed, none chosen): the host's shim serves both layouts. */
function setCayuLineEnv(line: CayuLineId | undefined): void {
  if (line) process.env[CAYU_LINE_ENV] = line;
  else delete process.env[CAYU_LINE_ENV];
}

let hinted = false;

/** The installed engine newer than the newest tested release: said once per command, on stderr. */
function hintUntestedOnce(engine: Parameters<typeof untestedEngineHints>[0]): void {
  if (hinted) return;
  hinted = true;
  for (const hint of untestedEngineHints(engine)) process.stderr.write(`hooksmith: hint: ${hint}\n`);
}
