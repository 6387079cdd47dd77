// `hooksmith check [PATH...] [--format text|json|sarif]`
// Exit 0: no error-severity diagnostic; 1: at least one; 2: the check could not do what it was
// asked (unknown flag, bad format, a PATH that is missing or neither file nor folder — nothing is
// checked then —, a folder it could not read or the discovery bound reached — the findings
// of what it could read are still printed).
import { analyseFiles, type FilesOptions, type FilesResult } from '../analysis';
import { isFile } from '../workspace/regular-file';
import { buildEachPathOnce } from '../python/function-cache';
import type { HookDiagnostic } from '../rules/diagnostics';
import { compareDiagnostics } from '../analysis/module';
import { parseCommandArgs, WIRED_POINTS_SPEC, wiredPointsOption } from './args';
import { printable } from './printable';
import { toFinding } from './format-finding';
import { formatText } from './format-text';
import { formatJson } from './format-json';
import { formatSarif } from './format-sarif';
import { version } from '../../package.json';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

const USAGE =
  'usage: hooksmith check [PATH...] [--format text|json|sarif] [--no-cpython] [--python PATH] [--no-cache] [--verbose]\n' +
  '       [--wired-points POINT,...]';

export interface CheckArgs {
  paths: string[];
  format: Format;
  cpython: boolean;
  /** The interpreter that confirms syntax (default python3). */
  python?: string;
  /** Log what CPython and the verdict cache did to stderr. */
  verbose: boolean;
  /** Use and update the cache of CPython's verdicts (default true; --no-cache). */
  cache: boolean;
  /** --wired-points: the Mantle points the engine invokes, overriding the installed rasa-pro. */
  wiredPoints?: readonly string[];
}

/** Parses check's arguments; a string is the usage error to print. */
export function parseCheckArgs(args: readonly string[]): CheckArgs | string {
  const parsed = parseCommandArgs(args, {
    format: { type: 'string' },
    'no-cpython': { type: 'boolean' },
    python: { type: 'string' },
    'no-cache': { type: 'boolean' },
    verbose: { type: 'boolean' },
    ...WIRED_POINTS_SPEC,
  });
  if (typeof parsed === 'string') return parsed;
  const { values, positionals } = parsed;
  const format = (values.format as string | undefined) ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format))
    return `unknown format '${format}' (expected ${FORMATS.join('|')})`;
  const python = values.python as string | undefined;
  if (python === '') return 'option --python needs an interpreter path';
  const wiredPoints = wiredPointsOption(values['wired-points']);
  if (typeof wiredPoints === 'string') return wiredPoints;
  return {
    ...(wiredPoints ? { wiredPoints } : {}),
    paths: positionals.length ? positionals : ['.'],
    format: format as Format,
    cpython: !values['no-cpython'],
    verbose: !!values.verbose,
    cache: !values['no-cache'],
    ...(python === undefined ? {} : { python }),
  };
}

/** What the PATHs turned out to be: false when some cannot be checked at all (exit 2 before any output). */
function reportPaths(result: FilesResult, say: (m: string) => void): boolean {
  if (result.missing.length || result.unusable.length) {
    for (const m of result.missing) say(`no such file or directory: ${m}`);
    for (const u of result.unusable) say(`cannot check ${u.path}: ${u.reason}`);
    return false;
  }
  for (const u of result.unreadable)
    say(`cannot read folder ${u.path}: ${u.reason}; its files are not checked`);
  if (result.capped)
    say(
      `stopped looking for hook modules after ${result.capped.toLocaleString('en')} files and folders: give narrower PATHs`,
    );
  return true;
}

export async function runCheckCommand(
  args: string[],
  opts: Omit<FilesOptions, 'cpython' | 'verbose' | 'python'> = {},
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const parsed = parseCheckArgs(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`hooksmith check: ${parsed}\n${USAGE}\n`);
    return 2;
  }
  const say = (m: string) => process.stderr.write(printable(`hooksmith check: ${m}`) + '\n');
  const notPython = parsed.paths.filter((p) => !p.endsWith('.py') && isFile(p));
  if (notPython.length) {
    for (const p of notPython) say(`not a Python file: ${p} (give an agent folder or a .py file)`);
    return 2;
  }
  buildEachPathOnce(); // this process checks each file once: no def cache (see function-cache.ts)
  const result = await analyseFiles(parsed.paths, {
    ...opts,
    options: { logger: (m) => process.stderr.write(printable(m) + '\n'), ...opts.options },
    cpython: parsed.cpython,
    verbose: parsed.verbose,
    ...(parsed.cache ? {} : { cache: false }),
    ...(parsed.python === undefined ? {} : { python: parsed.python }),
    ...(parsed.wiredPoints ? { wiredPoints: parsed.wiredPoints } : {}),
  });
  if (!reportPaths(result, say)) return 2;
  const all: HookDiagnostic[] = [...result.diagnostics.values()].flat().sort(compareDiagnostics);
  const cwd = process.cwd();
  const findings = all.map((d) => toFinding(d, cwd));
  const out =
    parsed.format === 'json'
      ? formatJson(findings)
      : parsed.format === 'sarif'
        ? formatSarif(findings, version, cwd)
        : printable(formatText(findings, result.fileCount));
  await new Promise<void>((resolve) => process.stdout.write(out, () => resolve()));
  if (result.unresponsive) say(`${result.unresponsive}: give a working interpreter with --python`);
  if (result.unreadable.length || result.capped || result.unresponsive) return 2;
  return all.some((d) => d.severity === 'error') ? 1 : 0;
}
