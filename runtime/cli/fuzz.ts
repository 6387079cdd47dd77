// `hooksmith fuzz FILE::HANDLER [--runs N] [--seed S] [--save NAME] [--python PATH] [--format text|json] [--coverage]`
// --coverage: the lines and branches of the agent's files the generated payloads reached (coverage.py).
// Exit codes: 0 no generated payload made the hook misbehave; 1 some did (the smallest one is
// printed, and written as a payload case with --save); 2 usage or input errors.
import { type HostOptions, runnerHostOptions } from './host-options';
import * as path from 'node:path';
import { findAgentRoot, nodeFs } from '../workspace/discovery';
import { RunInputError } from '../engine/run-hook';
import { PythonHostError } from '../host/host-spawn';
import { createHookRunner } from '../engine/runner';
import { formatFuzzText, fuzzHook, payloadCaseText, type FuzzReport } from '../testing/fuzz-run';
import { SaveCaseError, saveFuzzCase, saveNameProblem } from '../testing/fuzz-save';
import { parseCommandArgs } from './args';
import { printable } from './printable';
import { reportInputError } from './run';
import { stringifyJson } from '../json/lossless-json';
import { coverageJson, formatCoverageText } from '../testing/coverage/coverage-report';
import { LineCoverage } from '../testing/coverage/line-coverage';

const USAGE =
  'usage: hooksmith fuzz FILE::HANDLER [--runs N] [--seed S] [--save NAME] [--python PATH] [--format text|json] [--coverage]\n';

/** A decimal integer as typed (`-3`, `200`); undefined for `0x10`, ` 7`, ``, `1e300`, `2.5`. */
function wholeNumber(text: string): number | undefined {
  if (!/^-?\d{1,16}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

interface FuzzOptions {
  file: string;
  handler: string;
  runs: number;
  seed: number;
  save: string | undefined;
  python: string | undefined;
  format: 'text' | 'json';
  coverage: boolean;
}

/** The options of `hooksmith fuzz`, checked; a number is the exit code (the usage or help was printed). */
function fuzzOptions(args: string[]): FuzzOptions | number {
  const parsed = parseCommandArgs(args, {
    runs: { type: 'string' },
    seed: { type: 'string' },
    save: { type: 'string' },
    python: { type: 'string' },
    format: { type: 'string' },
    coverage: { type: 'boolean' },
  });
  const fail = (m: string) => (process.stderr.write(`hooksmith fuzz: ${m}\n${USAGE}`), 2);
  if (typeof parsed === 'string') return fail(parsed);
  const v = parsed.values as Record<string, string | undefined> & { help?: boolean };
  if (v.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [target, extra] = parsed.positionals;
  if (!target || extra !== undefined)
    return fail(target ? `unexpected argument ${extra}` : 'missing FILE::HANDLER');
  if (!target.includes('::')) return fail(`expected FILE::HANDLER, got ${target}`);
  const runs = v.runs === undefined ? 200 : wholeNumber(v.runs);
  const seed = v.seed === undefined ? Date.now() % 2 ** 31 : wholeNumber(v.seed);
  if (runs === undefined || runs < 1 || runs > 1_000_000)
    return fail(
      `--runs must be a whole number from 1 to 1000000 (decimal digits), got ${JSON.stringify(v.runs)}`,
    );
  if (seed === undefined || Math.abs(seed) > 2 ** 31 - 1)
    return fail(
      `--seed must be an integer from -2147483647 to 2147483647 (decimal digits), got ${JSON.stringify(v.seed)}`,
    );
  if (v.save) {
    const problem = saveNameProblem(v.save.replace(/\.json$/i, ''));
    if (problem) return fail(`--save ${JSON.stringify(v.save)}: ${problem}`);
  }
  const format = v.format ?? 'text';
  if (format !== 'text' && format !== 'json') return fail(`--format must be text or json, got ${format}`);
  const sep = target.lastIndexOf('::');
  const file = target.slice(0, sep);
  const handler = target.slice(sep + 2);
  return { file, handler, runs, seed, save: v.save, python: v.python, format, coverage: !!v.coverage };
}

/** The smallest failing payload: saved as a payload case with --save, else how to keep it. */
function keepSmallest(report: FuzzReport, o: FuzzOptions): void {
  const root = findAgentRoot(path.resolve(o.file), nodeFs) ?? path.dirname(path.resolve(o.file));
  if (o.save !== undefined) {
    const name = o.save || `fuzz-${o.handler.replace(/\W+/g, '_')}`;
    const out = saveFuzzCase(root, name, payloadCaseText(report, root, o.file, o.handler));
    process.stderr.write(`hooksmith fuzz: saved as a payload case: ${path.relative(process.cwd(), out)}\n`);
  } else if (o.format === 'text')
    process.stdout.write(
      `\nkeep the fix tested: add --save NAME to write it as .hooksmith/payloads/NAME.json with expect {outcome: returned}\n`,
    );
}

/** Exit 2 and the message for what stops a fuzz run before a verdict; undefined for anything else. */
function inputFailure(err: unknown): 2 | undefined {
  if (err instanceof RunInputError) {
    reportInputError('fuzz', err);
    return 2;
  }
  if (err instanceof SaveCaseError) {
    process.stderr.write(printable(`hooksmith fuzz: --save: ${err.message}\n`));
    return 2;
  }
  if (err instanceof PythonHostError) {
    process.stderr.write(`hooksmith fuzz: ${err.message}\n`);
    return 2;
  }
  return undefined;
}

export async function runFuzzCommand(args: string[], host: HostOptions = {}): Promise<number> {
  const o = fuzzOptions(args);
  if (typeof o === 'number') return o;
  const { file, handler, runs, seed, format } = o;
  const lines = o.coverage ? new LineCoverage() : undefined;
  const measured = lines?.agent();
  measured?.begin('fuzz');
  const runner = createHookRunner({
    python: o.python,
    ...runnerHostOptions(host),
    log: (l) => (process.env.HOOKSMITH_DEBUG ? process.stderr.write(l + '\n') : undefined),
    ...(measured ? { coverage: measured.sink } : {}),
  });
  const tty = process.stderr.isTTY && format === 'text';
  try {
    const report = await fuzzHook(runner, file, handler, {
      runs,
      seed,
      onProgress: tty ? (d, n) => process.stderr.write(`\r\x1b[K${d}/${n} payloads`) : undefined,
    });
    if (tty) process.stderr.write('\r\x1b[K');
    const relative = (f: string) => path.relative(process.cwd(), f) || f;
    // What the payloads reached: the line table of `test --coverage` (no hook table: one hook ran).
    const covered = lines && { hooks: [], lines };
    process.stdout.write(
      format === 'json'
        ? stringifyJson(
            covered ? { ...report, coverage: coverageJson(covered, relative).lines } : report,
            2,
          ) + '\n'
        : formatFuzzText(report) + (covered ? formatCoverageText(covered, relative) : ''),
    );
    if (report.smallest) keepSmallest(report, o);
    return report.failures ? 1 : 0;
  } catch (err) {
    const code = inputFailure(err);
    if (code === undefined) throw err;
    return code;
  } finally {
    await runner.dispose();
  }
}
