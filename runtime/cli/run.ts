// `hooksmith run FILE::HANDLER --payload JSON_FILE|- [--python PATH] [--format text|json] [--wired-points …]`
// Exit codes: 0 the hook returned normally or raised a signal allowed where it stands;
// 1 it crashed, timed out, returned an invalid value or raised a signal that is ignored there;
// 2 usage or input errors (malformed payload with its JSON path, unknown handler, module
// check errors, a module that fails to import).
import { type HostOptions, runnerHostOptions } from './host-options';
import * as fs from 'node:fs';
import type { RunResult } from '../engine/api';
import { JSON_LIMITS } from '../json/json-faithful';
import { formatRunText } from './format-run-text';
import { RunInputError } from '../engine/run-hook';
import { PythonHostError } from '../host/host-spawn';
import { createHookRunner, listedWiring } from '../engine/runner';
import { FAILED_OUTCOMES } from '../testing/outcomes';
import { parseCommandArgs, WIRED_POINTS_SPEC, wiredPointsOption } from './args';
import { cliDebug, DEBUG_SPEC } from './debug-option';
import { printable } from './printable';
import { parseJson, stringifyJson } from '../json/lossless-json';

const USAGE =
  'usage: hooksmith run FILE::HANDLER --payload JSON_FILE|- [--python PATH] [--format text|json]\n' +
  '       [--wired-points POINT,...] [--debug [HOST:]PORT]\n';

interface RunArgs {
  target: string;
  payload: string;
  python?: string;
  format: 'text' | 'json';
  wiredPoints?: readonly string[];
  debug?: string;
}

function parseRunArgs(args: string[]): RunArgs | string {
  const parsed = parseCommandArgs(args, {
    payload: { type: 'string' },
    python: { type: 'string' },
    format: { type: 'string' },
    ...WIRED_POINTS_SPEC,
    ...DEBUG_SPEC,
  });
  if (typeof parsed === 'string') return parsed;
  const [target, extra] = parsed.positionals;
  const { payload, python, format = 'text', debug } = parsed.values as Record<string, string | undefined>;
  if (extra !== undefined) return `unexpected argument ${extra}`;
  if (!target) return 'missing FILE::HANDLER';
  if (!target.includes('::')) return `expected FILE::HANDLER, got ${target}`;
  if (payload === undefined) return 'missing --payload JSON_FILE|-';
  if (format !== 'text' && format !== 'json') return `--format must be text or json, got ${format}`;
  const wiredPoints = wiredPointsOption(parsed.values['wired-points']);
  if (typeof wiredPoints === 'string') return wiredPoints;
  return { target, payload, python, format, debug, ...(wiredPoints ? { wiredPoints } : {}) };
}

export { FAILED_OUTCOMES };

/** A hook result that makes `run` / `simulate` exit 1. */
export function misbehaved(r: { outcome?: RunResult['outcome']; overBudget?: boolean }): boolean {
  return (r.outcome !== undefined && FAILED_OUTCOMES.has(r.outcome)) || r.overBudget === true;
}

function readPayload(source: string): unknown {
  if (source !== '-' && fs.statSync(source).size > JSON_LIMITS.bytes) throw tooBig(source);
  const text = source === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(source, 'utf8');
  if (text.length > JSON_LIMITS.bytes) throw tooBig(source);
  try {
    return parseJson(text);
  } catch (err) {
    throw new RunInputError(
      'payload',
      `${source === '-' ? 'stdin' : source}: not valid JSON: ${(err as Error).message}`,
    );
  }
}

function tooBig(source: string): RunInputError {
  return new RunInputError(
    'payload',
    `${source === '-' ? 'stdin' : source}: the payload is larger than ${JSON_LIMITS.bytes / 1024 / 1024} MiB, the limit for payloads`,
  );
}

export function reportInputError(
  command: string,
  err: RunInputError | { message: string; details: string[] },
): void {
  process.stderr.write(
    printable(
      `hooksmith ${command}: ${err.message}\n${err.details.map((d) => `  ${d.replace(/\n/g, '\n  ')}\n`).join('')}`,
    ),
  );
}

/** The payload of --payload (a file or `-`); undefined when it cannot be read (said on stderr: exit 2). */
function payloadOf(source: string): { payload: unknown } | undefined {
  try {
    return { payload: readPayload(source) };
  } catch (err) {
    if (err instanceof RunInputError) reportInputError('run', err);
    else
      process.stderr.write(
        printable(`hooksmith run: cannot read payload ${source}: ${(err as Error).message}\n`),
      );
    return undefined;
  }
}

export async function runRunCommand(args: string[], host: HostOptions = {}): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const parsed = parseRunArgs(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`hooksmith run: ${parsed}\n${USAGE}`);
    return 2;
  }
  const sep = parsed.target.lastIndexOf('::');
  const file = parsed.target.slice(0, sep);
  const handler = parsed.target.slice(sep + 2);
  const read = payloadOf(parsed.payload);
  if (!read) return 2;
  const { payload } = read;
  const { wiredPoints } = parsed;
  const debugging = await cliDebug('run', parsed.debug, parsed.python);
  if (typeof debugging === 'number') return debugging;
  const runner = createHookRunner({
    python: parsed.python,
    ...runnerHostOptions(host),
    ...listedWiring(wiredPoints),
    ...(debugging ? { debug: debugging.debug } : {}),
    log: (l) => (process.env.HOOKSMITH_DEBUG ? process.stderr.write(l + '\n') : undefined),
  });
  const uninterruptible = debugging?.onInterrupt(runner);
  try {
    const result = await runner.run({ file, handler, payload });
    process.stdout.write(
      parsed.format === 'json' ? stringifyJson(result, 2) + '\n' : printable(formatRunText(result)),
    );
    return misbehaved(result) ? 1 : 0;
  } catch (err) {
    if (err instanceof RunInputError) {
      reportInputError('run', err);
      return 2;
    }
    if (err instanceof PythonHostError) {
      process.stderr.write(printable(`hooksmith run: ${err.message}\n`));
      return 2;
    }
    throw err;
  } finally {
    uninterruptible?.();
    await runner.dispose();
  }
}
