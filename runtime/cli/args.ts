// The one argument parser of the CLI: node:util's parseArgs, with its errors turned into the
// one-line usage messages the commands print (exit 2).
import { parseArgs } from 'node:util';

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
