// `hooksmith test [PATH...] [--format text|json|junit] [-k PATTERN] [--update] [--python PATH] [-j N] …`
// Runs every scenario and payload case under the paths (runtime/testing), on -j hosts at once
// (default: the cores; a --debug run plays every case on its one host). Exit codes: 0 every
// case passed; 1 some expectation failed, or hook coverage is under --min-hook-coverage; 2 a
// malformed file, a report --coverage-report cannot write, a case that could not run (agent
// check errors, import failure, a payload the hook's point rejects), a PATH that does not exist or
// is a file that is no case, a snapshot --update could not write, or a usage error. No case found
// is a warning (exit 0), as `check` of a folder without hooks.
import { type HostOptions, runnerHostOptions } from './host-options';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printable } from './printable';
import type { CaseResult, TestCase } from '../testing/cases';
import { discoverCases } from '../testing/discover-cases';
import { counts, formatTestJson, formatTestJunit, formatTestText } from '../testing/report';
import { runCases } from '../testing/run-cases';
import { defaultJobs } from '../testing/pool';
import { writeSnapshots } from '../testing/snapshot-update';
import { createHookRunner, listedWiring } from '../engine/runner';
import { parseCommandArgs, WIRED_POINTS_SPEC, wiredPointsOption } from './args';
import { cliDebug, DEBUG_SPEC, type CliDebug } from './debug-option';
import { MODEL_SPEC, MODEL_USAGE, modelOptions } from './model-options';
import { COVERAGE_SPEC, COVERAGE_USAGE, coverageOptions, finishCoverage } from './test-coverage';
import { formatRepeatsJson, formatRepeatsText, repeatVerdict, summarizeRepeats } from '../testing/repeats';

const USAGE =
  'usage: hooksmith test [PATH...] [--format text|json|junit] [-k PATTERN] [--update] [--python PATH] [-j N]\n' +
  `       [--wired-points POINT,...] [--debug [HOST:]PORT] ${MODEL_USAGE}\n` +
  COVERAGE_USAGE;

const FORMATS = { text: formatTestText, json: formatTestJson, junit: formatTestJunit };

function relative(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}

/** -k: case-insensitive substring of `file::name`; several words with `or` / `not` like pytest's. */
export function selectCases(cases: TestCase[], pattern: string | undefined): TestCase[] {
  if (!pattern) return cases;
  const alternatives = pattern.split(/\s+or\s+/i).map((alt) =>
    alt.split(/\s+and\s+/i).map((term) => {
      const negate = /^not\s+/i.test(term);
      return {
        negate,
        text: term
          .replace(/^not\s+/i, '')
          .trim()
          .toLowerCase(),
      };
    }),
  );
  return cases.filter((c) => {
    const id = `${relative(c.file)}::${c.name}`.toLowerCase();
    return alternatives.some((terms) => terms.every((t) => id.includes(t.text) !== t.negate));
  });
}

type Found = ReturnType<typeof discoverCases>;
const filesOf = (found: Found) => [...found.cases.map((c) => c.file), ...found.malformed.map((m) => m.file)];

/** As `check` does: a PATH that does not exist, or a file that is no case, is a usage error (exit 2). */
function unusablePaths(paths: readonly string[], found: Found): string[] {
  const files = new Set(filesOf(found));
  const out: string[] = [];
  for (const p of paths) {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) out.push(`no such file or directory: ${p}`);
    else if (!st.isDirectory() && !files.has(path.resolve(p)))
      out.push(
        `not a test case: ${p} (give a folder, a *.scenario.yaml|yml|json file or a .hooksmith/payloads/*.json file with an expect block)`,
      );
  }
  return out;
}

/** The folders given that hold no case (said, not an error: a folder of hooks may have none yet). */
function emptyFolders(paths: readonly string[], found: Found): string[] {
  const files = filesOf(found);
  return paths.filter((p) => {
    const abs = path.resolve(p);
    return (
      fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() &&
      !files.some((f) => f.startsWith(abs + path.sep))
    );
  });
}

/** --repeat N: a whole number from 1 to 1000; text and json only. */
function repeatOption(value: unknown, format: string): number | string {
  if (value === undefined) return 1;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    return `--repeat must be a whole number from 1 to 1000, got ${String(value)}`;
  if (n > 1 && format === 'junit') return '--repeat reports pass rates in text or json, not junit';
  return n;
}

/** -j N / --jobs N: how many hosts play cases at once, a whole number from 1 to 256; default the cores. */
function jobsOption(value: unknown): number | string {
  if (value === undefined) return defaultJobs();
  const n = Number(value);
  if (!/^\d+$/.test(String(value)) || n < 1 || n > 256)
    return `--jobs must be a whole number from 1 to 256, got ${String(value)}`;
  return n;
}

/** The options a repeat run does not honour (it reports pass rates only): refused, never dropped. */
const NOT_WITH_REPEAT = [
  'update',
  'debug',
  'coverage',
  'min-hook-coverage',
  'coverage-report',
  'coverage-output',
];

function repeatConflict(values: Record<string, unknown>): string | undefined {
  const given = NOT_WITH_REPEAT.find((name) => values[name] !== undefined);
  return (
    given && `--repeat cannot be combined with --${given} (run them apart: --repeat only reports pass rates)`
  );
}

const TEST_SPEC = {
  format: { type: 'string' },
  k: { type: 'string', short: 'k' },
  update: { type: 'boolean' },
  python: { type: 'string' },
  ...WIRED_POINTS_SPEC,
  ...DEBUG_SPEC,
  ...MODEL_SPEC,
  ...COVERAGE_SPEC,
  repeat: { type: 'string' },
  jobs: { type: 'string', short: 'j' },
} as const;

/** The options of `hooksmith test`, checked; a number is the exit code (the usage or help was printed). */
function testOptions(args: string[]) {
  const parsed = parseCommandArgs(args, TEST_SPEC);
  const usage = (problem: string): number => {
    process.stderr.write(`hooksmith test: ${problem}\n${USAGE}`);
    return 2;
  };
  if (typeof parsed === 'string') return usage(parsed);
  const values = parsed.values as {
    format?: string;
    k?: string;
    update?: boolean;
    python?: string;
    help?: boolean;
  };
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const format = (values.format ?? 'text') as keyof typeof FORMATS;
  if (!Object.hasOwn(FORMATS, format))
    return usage(`--format must be text, json or junit, got ${values.format}`);
  const wiredPoints = wiredPointsOption(parsed.values['wired-points']);
  if (typeof wiredPoints === 'string') return usage(wiredPoints);
  const models = modelOptions(parsed.values);
  if (typeof models === 'string') return usage(models);
  const coverage = coverageOptions(parsed.values);
  if (typeof coverage === 'string') return usage(coverage);
  const repeat = repeatOption(parsed.values.repeat, format);
  const refused =
    typeof repeat === 'string' ? repeat : repeat > 1 ? repeatConflict(parsed.values) : undefined;
  if (typeof repeat === 'string' || refused) return usage(refused!);
  const jobs = jobsOption(parsed.values.jobs);
  if (typeof jobs === 'string') return usage(jobs);
  return {
    jobs,
    positionals: parsed.positionals,
    debug: parsed.values.debug,
    values,
    format,
    wiredPoints,
    models,
    coverage,
    repeat,
  };
}

type TestOptions = Exclude<ReturnType<typeof testOptions>, number>;
type Log = (line: string) => void;

/** --repeat N: every case N times with fresh model calls; prints the pass rates; the exit code. */
async function runRepeated(
  cases: TestCase[],
  options: TestOptions,
  host: HostOptions,
  found: Found,
  log: Log,
): Promise<number> {
  const { values, wiredPoints, models, repeat, jobs, format } = options;
  const runs: CaseResult[][] = [];
  // Fresh model calls each run where recording is on: a replay would only repeat itself.
  for (let i = 0; i < repeat; i++)
    runs.push(
      await runCases(cases, {
        python: values.python,
        ...runnerHostOptions(host),
        ...(wiredPoints ? { wiredPoints } : {}),
        models: { ...models, fresh: true },
        jobs,
        log,
      }),
    );
  const summary = summarizeRepeats(runs);
  process.stdout.write(
    format === 'json'
      ? formatRepeatsJson(summary, repeat, relative)
      : printable(formatRepeatsText(summary, repeat, relative)),
  );
  const verdicts = summary.map(repeatVerdict);
  if (found.malformed.length || verdicts.includes('error')) return 2;
  return verdicts.includes('failed') ? 1 : 0;
}

/** --update: writes the snapshots the run took; false when one could not be written (said). */
function updateSnapshots(results: CaseResult[]): boolean {
  let ok = true;
  const onError = (f: string, err: Error) => {
    ok = false;
    process.stderr.write(`hooksmith test: cannot update snapshots in ${relative(f)}: ${err.message}\n`);
  };
  for (const f of writeSnapshots(results, onError))
    process.stderr.write(`hooksmith test: updated snapshots in ${relative(f)}\n`);
  return ok;
}

/** No case found is a warning (exit 0), as is a folder given with none under it. */
function warnNothingFound(
  cases: TestCase[],
  found: Found,
  positionals: string[],
  k: string | undefined,
): void {
  if (!cases.length && !found.malformed.length)
    process.stderr.write(
      `hooksmith test: warning: no scenario or payload case found${k ? ` matching -k ${k}` : ''}: nothing was tested\n`,
    );
  else
    for (const dir of emptyFolders(positionals, found))
      process.stderr.write(`hooksmith test: warning: no scenario or payload case under ${dir}\n`);
}

/** A line per finished case while the run goes (a terminal and the text format only). */
function progressLine(count: number, shown: boolean): (r: CaseResult) => void {
  let done = 0;
  return () => {
    done++;
    if (shown) process.stdout.write(`\r\x1b[K${done}/${count} cases`);
  };
}

/** Every case once, on -j hosts (a debug run: on one host, one debugger session, for every agent's cases). */
async function runOnce(
  cases: TestCase[],
  options: TestOptions,
  host: HostOptions,
  debugging: CliDebug | undefined,
  report: { onResult: (r: CaseResult) => void; log: Log },
): Promise<CaseResult[]> {
  const { values, wiredPoints, models, coverage, jobs } = options;
  const shared = debugging
    ? createHookRunner({
        python: values.python,
        ...runnerHostOptions(host),
        log: report.log,
        debug: debugging.debug,
        models,
        ...listedWiring(wiredPoints),
      })
    : undefined;
  const uninterruptible = shared && debugging?.onInterrupt(shared);
  return runCases(cases, {
    python: values.python,
    ...runnerHostOptions(host),
    ...(wiredPoints ? { wiredPoints } : {}),
    ...(shared ? { runnerFor: () => shared } : {}),
    models,
    ...(coverage ? { coverage: coverage.lines } : {}),
    jobs,
    ...report,
  }).finally(async () => {
    uninterruptible?.();
    await shared?.dispose();
  });
}

export async function runTestCommand(args: string[], host: HostOptions = {}): Promise<number> {
  const options = testOptions(args);
  if (typeof options === 'number') return options;
  const { positionals, values, format, coverage, repeat } = options;
  const debugging = await cliDebug('test', options.debug, values.python);
  if (typeof debugging === 'number') return debugging;
  const t0 = performance.now();
  const found = discoverCases(positionals);
  const unusable = unusablePaths(positionals, found);
  if (unusable.length) {
    for (const u of unusable) process.stderr.write(`hooksmith test: ${u}\n`);
    return 2;
  }
  const cases = selectCases(found.cases, values.k);
  const progress = process.stdout.isTTY && format === 'text';
  const log = (l: string) => (process.env.HOOKSMITH_DEBUG ? process.stderr.write(l + '\n') : undefined);
  if (repeat > 1) return runRepeated(cases, options, host, found, log);
  const results = await runOnce(cases, options, host, debugging, {
    onResult: progressLine(cases.length, progress),
    log,
  });
  if (progress) process.stdout.write('\r\x1b[K');
  const updateFailed = values.update ? !updateSnapshots(results) : false;
  const report = { results, malformed: found.malformed, durationMs: performance.now() - t0, relative };
  const covered = coverage && (await finishCoverage(coverage, results, relative));
  process.stdout.write(
    covered && format === 'json'
      ? formatTestJson(report, { coverage: covered.json })
      : format === 'text'
        ? printable(FORMATS.text(report) + (covered ? covered.text : ''))
        : FORMATS[format](report),
  );
  for (const m of covered?.messages ?? []) process.stderr.write(`hooksmith test: ${m}\n`);
  warnNothingFound(cases, found, positionals, values.k);
  const c = counts(report);
  return c.errors || updateFailed || covered?.exit === 2 ? 2 : c.failed || covered?.exit ? 1 : 0;
}
