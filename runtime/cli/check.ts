// `hooksmith check [PATH...] [--format text|json|sarif]`
// Exit 0: no error-severity diagnostic; 1: at least one; 2: usage error (unknown flag,
// bad format, missing path).
import { statSync } from 'node:fs';
import { analyseFiles, type FilesOptions } from '../analysis';
import { buildEachPathOnce } from '../python/function-cache';
import type { HookDiagnostic } from '../diagnostics';
import { compareDiagnostics } from '../analysis/module';
import { toFinding } from './format-finding';
import { formatText } from './format-text';
import { formatJson } from './format-json';
import { formatSarif } from './format-sarif';
import { version } from '../../package.json';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

const USAGE =
  'usage: hooksmith check [PATH...] [--format text|json|sarif] [--no-cpython] [--python PATH] [--no-cache] [--jobs N] [--verbose]';

export interface CheckArgs {
  paths: string[];
  format: Format;
  cpython: boolean;
  /** The interpreter that confirms syntax (default python3). */
  python?: string;
  /** Check workers besides the main thread (0: single-threaded); undefined: automatic. */
  jobs?: number;
  /** Log how the check runs (threads) to stderr. */
  verbose: boolean;
  /** Use and update the cache of CPython's verdicts (default true; --no-cache). */
  cache: boolean;
}

/** Parses check's arguments; a string is the usage error to print. */
export function parseCheckArgs(args: readonly string[]): CheckArgs | string {
  const paths: string[] = [];
  let format: Format = 'text';
  let cpython = true;
  let jobs: number | undefined;
  let python: string | undefined;
  let verbose = false;
  let cache = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      paths.push(...args.slice(i + 1));
      break;
    }
    if (a === '--format' || a.startsWith('--format=')) {
      const v = a === '--format' ? args[++i] : a.slice('--format='.length);
      if (v === undefined) return `option --format needs a value (${FORMATS.join('|')})`;
      if (!(FORMATS as readonly string[]).includes(v))
        return `unknown format '${v}' (expected ${FORMATS.join('|')})`;
      format = v as Format;
    } else if (a === '--no-cpython') {
      cpython = false;
    } else if (a === '--python' || a.startsWith('--python=')) {
      const v = a === '--python' ? args[++i] : a.slice('--python='.length);
      if (!v) return 'option --python needs an interpreter path';
      python = v;
    } else if (a === '--verbose') {
      verbose = true;
    } else if (a === '--no-cache') {
      cache = false;
    } else if (a === '--jobs' || a.startsWith('--jobs=')) {
      const v = a === '--jobs' ? args[++i] : a.slice('--jobs='.length);
      if (v === undefined || !/^\d{1,2}$/.test(v))
        return `option --jobs needs a number of worker threads (0 to 99)`;
      jobs = Number(v);
    } else if (a.startsWith('-') && a !== '-') {
      return `unknown option '${a}'`;
    } else {
      paths.push(a);
    }
  }
  return {
    paths: paths.length ? paths : ['.'],
    format,
    cpython,
    verbose,
    cache,
    ...(jobs === undefined ? {} : { jobs }),
    ...(python === undefined ? {} : { python }),
  };
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export async function runCheckCommand(
  args: string[],
  opts: Omit<FilesOptions, 'cpython' | 'workers' | 'verbose' | 'python'> = {},
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
  const notPython = parsed.paths.filter((p) => !p.endsWith('.py') && isFile(p));
  if (notPython.length) {
    for (const p of notPython)
      process.stderr.write(`hooksmith check: not a Python file: ${p} (give an agent folder or a .py file)\n`);
    return 2;
  }
  buildEachPathOnce(); // this process checks each file once: no def cache (see function-cache.ts)
  const result = await analyseFiles(parsed.paths, {
    ...opts,
    oneShot: true, // this process exits after the check
    cpython: parsed.cpython,
    verbose: parsed.verbose,
    ...(parsed.cache ? {} : { cache: false }),
    ...(parsed.jobs === undefined ? {} : { workers: parsed.jobs }),
    ...(parsed.python === undefined ? {} : { python: parsed.python }),
  });
  if (result.missing.length) {
    for (const m of result.missing)
      process.stderr.write(`hooksmith check: no such file or directory: ${m}\n`);
    return 2;
  }
  const all: HookDiagnostic[] = [...result.diagnostics.values()].flat().sort(compareDiagnostics);
  const cwd = process.cwd();
  const findings = all.map((d) => toFinding(d, cwd));
  const out =
    parsed.format === 'json'
      ? formatJson(findings)
      : parsed.format === 'sarif'
        ? formatSarif(findings, version, cwd)
        : formatText(findings, result.fileCount);
  await new Promise<void>((resolve) => process.stdout.write(out, () => resolve()));
  return all.some((d) => d.severity === 'error') ? 1 : 0;
}
