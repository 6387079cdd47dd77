// The one argument parser of the CLI: node:util's parseArgs, with its errors turned into the
// one-line usage messages the commands print (exit 2).
import { parseArgs } from 'node:util';
import { findPoint, MANTLE_POINTS, spelledPoint } from '../catalogue';

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** The parsed arguments, or the usage error to print. `--help`/`-h` is always known. */
export function parseCommandArgs(args: readonly string[], options: OptionSpec): ParsedArgs | string {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals };
  } catch (err) {
    const { code, message } = err as { code?: string; message: string };
    const option = /'(-[^' ]*)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option '${option}'`;
    if (/argument missing/.test(message)) return `option ${option} needs a value`;
    return message.charAt(0).toLowerCase() + message.slice(1);
  }
}

/** The option every command that judges or plays Mantle hooks takes, as the editor's setting. */
export const WIRED_POINTS_SPEC: OptionSpec = { 'wired-points': { type: 'string' } };

/**
 * `--wired-points tool_call,model_request`: the Mantle points the engine invokes, overriding the
 * installed rasa-pro (as hooksmith.mantle.wiredPoints does in the editor); '' lists none. Undefined
 * when not given; a string is the usage error.
 */
export function wiredPointsOption(value: unknown): readonly string[] | undefined | string {
  if (typeof value !== 'string') return undefined;
  const points = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = points.filter((p) => !findPoint(p));
  if (unknown.length)
    return `--wired-points: unknown point '${unknown[0]}' (points: ${MANTLE_POINTS.map((p) => spelledPoint(p.id)).join(', ')})`;
  return points.map((p) => findPoint(p)!.id);
}
