// `hooksmith test`'s coverage options: --coverage (hook and line tables), --min-hook-coverage P
// (exit 1 under P % of hooks exercised), --coverage-report lcov|cobertura|json and --coverage-output PATH.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { version } from '../../package.json';
import type { CaseResult } from '../testing/cases';
import { formatCobertura } from '../testing/coverage/cobertura';
import { coverageJson, formatCoverageText, type CoverageResult } from '../testing/coverage/coverage-report';
import { hookCoverage, totalHookPercent } from '../testing/coverage/hook-coverage';
import { formatLcov, lcovUnwritable } from '../testing/coverage/lcov';
import { LineCoverage } from '../testing/coverage/line-coverage';
import type { OptionSpec } from './args';

export const COVERAGE_SPEC: OptionSpec = {
  coverage: { type: 'boolean' },
  'min-hook-coverage': { type: 'string' },
  'coverage-report': { type: 'string' },
  'coverage-output': { type: 'string' },
};

export const COVERAGE_USAGE =
  '       [--coverage] [--min-hook-coverage P] [--coverage-report lcov|cobertura|json [--coverage-output PATH]]\n';

const REPORTS = {
  lcov: { file: 'lcov.info', write: formatLcov },
  cobertura: {
    file: 'coverage.xml',
    write: (f: Parameters<typeof formatLcov>[0], rel: (f: string) => string) =>
      formatCobertura(f, rel, `hooksmith ${version}`),
  },
  json: { file: 'coverage.json', write: undefined },
} as const;

export interface CoverageOptions {
  /** Where line data goes while the cases run. */
  lines: LineCoverage;
  minHookPercent?: number;
  report?: { format: keyof typeof REPORTS; output: string };
}

/** The coverage options asked (undefined: none), or the usage error. `--debug` and coverage exclude each other. */
export function coverageOptions(values: Record<string, unknown>): CoverageOptions | undefined | string {
  const min = values['min-hook-coverage'];
  const format = values['coverage-report'];
  const output = values['coverage-output'];
  if (!values.coverage && min === undefined && format === undefined && output === undefined) return undefined;
  if (values.debug !== undefined) return '--debug cannot be combined with coverage (both trace the hooks)';
  let minHookPercent: number | undefined;
  if (typeof min === 'string') {
    minHookPercent = Number(min.replace(/%$/, ''));
    if (!/^\d+(\.\d+)?%?$/.test(min) || minHookPercent > 100)
      return `--min-hook-coverage must be a percentage from 0 to 100, got ${min}`;
  }
  if (output !== undefined && format === undefined) return '--coverage-output needs --coverage-report';
  if (typeof format === 'string' && !Object.hasOwn(REPORTS, format))
    return `--coverage-report must be lcov, cobertura or json, got ${format}`;
  const f = format as keyof typeof REPORTS | undefined;
  return {
    lines: new LineCoverage(),
    ...(minHookPercent !== undefined ? { minHookPercent } : {}),
    ...(f ? { report: { format: f, output: typeof output === 'string' ? output : REPORTS[f].file } } : {}),
  };
}

/** Kinds of file a report cannot be written to as a file: a FIFO would block the run forever. */
function specialKind(st: fs.Stats): string | undefined {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a folder';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return undefined;
}

/** Throws when `output` exists (links followed) and is no regular file. */
function refuseSpecialFile(output: string): void {
  const st = fs.statSync(output, { throwIfNoEntry: false });
  const kind = st && specialKind(st);
  if (kind) throw new Error(`not a regular file (${kind})`);
}

/**
 * Computes hook coverage, writes the report file, and says whether the threshold holds: the text
 * to print after the test report (text format), the JSON to add to it, and 1 when under the threshold.
 */
export async function finishCoverage(
  o: CoverageOptions,
  results: readonly CaseResult[],
  relative: (f: string) => string,
): Promise<{
  result: CoverageResult;
  text: string;
  json: ReturnType<typeof coverageJson>;
  exit: 0 | 1 | 2;
  messages: string[];
}> {
  const result: CoverageResult = { hooks: await hookCoverage(results), lines: o.lines };
  const messages: string[] = [];
  let exit: 0 | 1 | 2 = 0;
  const json = coverageJson(result, relative);
  if (o.report) {
    const { format, output } = o.report;
    const files = o.lines.files();
    const text =
      format === 'json' ? JSON.stringify(json, null, 2) + '\n' : REPORTS[format].write(files, relative);
    try {
      refuseSpecialFile(output);
      fs.mkdirSync(path.dirname(path.resolve(output)), { recursive: true });
      fs.writeFileSync(output, text);
      messages.push(
        `wrote ${format} coverage report to ${output}${files.length || format === 'json' ? '' : ' (no line was measured)'}`,
      );
      if (format === 'lcov')
        for (const name of lcovUnwritable(files, relative))
          messages.push(
            `left ${JSON.stringify(name)} out of the LCOV report: LCOV cannot hold a line break in a file name`,
          );
    } catch (err) {
      messages.push(`cannot write the coverage report ${output}: ${(err as Error).message}`);
      exit = 2;
    }
  }
  const percent = totalHookPercent(result.hooks);
  if (o.minHookPercent !== undefined && percent < o.minHookPercent) {
    const missed = result.hooks.flatMap((a) => a.hooks.filter((h) => !h.cases).map((h) => h.hook));
    messages.push(
      `FAIL: hook coverage ${percent.toFixed(1)}% is under --min-hook-coverage ${o.minHookPercent}% (not exercised: ${missed.join(', ')})`,
    );
    if (exit === 0) exit = 1;
  }
  return { result, text: formatCoverageText(result, relative), json, exit, messages };
}
