// `hooksmith` — the command-line face of the core: check | run | simulate | payload | … | lsp.
// Exit codes: 0 ok, 1 findings / failed run, 2 usage or input error.
// Subcommands load on demand: `check` never evaluates the engine, `--version` nothing at all
// (esbuild keeps dynamically imported modules in the bundle but evaluates them lazily).

import {
  CAYU_SAFETY_STOP_ENV,
  MAX_CAYU_SAFETY_STOP_S,
  parseSafetyStopSeconds,
} from '../engine/cayu-safety-stop';
import { CAYU_ENGINE_ENV, CAYU_ENGINES, parseCayuEngine } from '../engine/engine-mode';

const USAGE = `usage: hooksmith <command> [options]

commands:
  check [PATH...] [--format text|json|sarif]       validate hook modules (agent roots or files)
  (check, run, simulate and test take --wired-points POINT,...: the Mantle points the engine
   invokes, overriding the installed rasa-pro, as the hooksmith.mantle.wiredPoints setting does;
   run, simulate and test take --debug [HOST:]PORT: wait for a DAP client (debugpy) to attach;
   every command takes --mantle-line rasa-pro-3.21|mantle-newest: the Mantle API line, overriding
   the one the installed rasa.mantle.hooks speaks, as hooksmith.mantle.apiLine does, and
   --cayu-line cayu-0.3|cayu-newer: the Cayu import layout, overriding the installed cayu's;
   run, simulate, test and fuzz take --memory-limit MIB: the Python host's memory limit, default 4096, 0 none,
   --cayu-safety-stop SECONDS: Hooksmith's own stop for a Cayu hook that never returns, default 120,
   and --cayu-engine auto|real|emulation: who plays Cayu phases, default auto (the installed cayu
   runtime wherever cayu is importable, else Hooksmith's emulation), as hooksmith.cayu.engine does)
  run FILE::HANDLER --payload JSON_FILE|- [--python PATH] [--format text|json]
                                                   run one hook as the engine would
  simulate SCENARIO_FILE [--python PATH] [--format text|json]
                                                   play a whole turn with a mock LLM and tools
  payload POINT                                    print a valid sample payload for a point
  test [PATH...] [--format text|json|junit] [-k PATTERN] [--update]
                                                   run scenarios and payload cases with expectations
  fuzz FILE::HANDLER [--runs N] [--seed S]         run a hook on generated payloads
  scenario from-messages FILE [--expect snapshot] [-o OUT]
                                                   a recorded conversation → a multi-turn scenario
  lsp [--stdio]                                    the language server over stdio (docs/editors.md)
`;

export type CommandMain = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<CommandMain>> = {
  check: async () => (await import('./check')).runCheckCommand,
  run: async () => (await import('./run')).runRunCommand,
  simulate: async () => (await import('./simulate')).runSimulateCommand,
  payload: async () => (await import('./payload')).runPayloadCommand,
  test: async () => (await import('./test')).runTestCommand,
  fuzz: async () => (await import('./fuzz')).runFuzzCommand,
  scenario: async () => (await import('./scenario')).runScenarioCommand,
  lsp: async () => (await import('./lsp')).runLspCommand,
};

const HOST_COMMANDS = new Set(['run', 'simulate', 'test', 'fuzz']);

/** An option of every command that runs hooks, passed to the hosts it starts through the env. */
interface HostOption {
  name: string;
  env: string;
  valid: (value: string) => boolean;
  expected: string;
}

const HOST_OPTIONS: readonly HostOption[] = [
  // The Python host's address-space limit (HOOKSMITH_MEMORY_LIMIT_MB, host-spawn.ts).
  {
    name: '--memory-limit',
    env: 'HOOKSMITH_MEMORY_LIMIT_MB',
    valid: (v) => /^\d{1,7}$/.test(v),
    expected: 'whole MiB (decimal digits, 0 for no limit)',
  },
  // Hooksmith's own stop for a Cayu hook that never returns (engine/cayu-outcome.ts).
  {
    name: '--cayu-safety-stop',
    env: CAYU_SAFETY_STOP_ENV,
    valid: (v) => parseSafetyStopSeconds(v) !== undefined,
    expected: `whole seconds from 1 to ${MAX_CAYU_SAFETY_STOP_S} (decimal digits)`,
  },
  // Who plays Cayu phases: the installed runtime or the emulation (engine/engine-mode.ts).
  {
    name: '--cayu-engine',
    env: CAYU_ENGINE_ENV,
    valid: (v) => parseCayuEngine(v) !== undefined,
    expected: CAYU_ENGINES.join('|'),
  },
];

/** Takes the HOST_OPTIONS (`--name VALUE` or `--name=VALUE`) out of `args`: the rest, or the usage error. */
function takeHostOptions(args: string[]): string[] | string {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    const option = HOST_OPTIONS.find((o) => a === o.name || a.startsWith(`${o.name}=`));
    if (!option) {
      out.push(a);
      continue;
    }
    const value = a === option.name ? args[++i] : a.slice(option.name.length + 1);
    if (value === undefined || !option.valid(value))
      return `${option.name} takes ${option.expected}, got ${JSON.stringify(value ?? '')}`;
    process.env[option.env] = value;
  }
  return out;
}

/**
 * A host option's variable set in the environment (not by its option) holding a value the option
 * would refuse: the same usage error, never taken as the default (a typo must not change who plays).
 */
function invalidHostEnv(): string | undefined {
  for (const o of HOST_OPTIONS) {
    const value = process.env[o.env];
    if (value !== undefined && value !== '' && !o.valid(value))
      return `${o.env} (${o.name}) takes ${o.expected}, got ${JSON.stringify(value)}`;
  }
  return undefined;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  if (command === '--version') {
    process.stdout.write('hooksmith 0.1.0\n');
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    process.stderr.write(`hooksmith: unknown command '${command}'\n\n${USAGE}`);
    return 2;
  }
  // The server reads its settings from the editor: no engine line or host options here.
  if (command === 'lsp') return (await load())(rest);
  const limited = HOST_COMMANDS.has(command) ? takeHostOptions(rest) : rest;
  const refused = typeof limited === 'string' ? limited : HOST_COMMANDS.has(command) && invalidHostEnv();
  if (typeof limited === 'string' || refused) {
    process.stderr.write(`hooksmith ${command}: ${refused}\n`);
    return 2;
  }
  const { selectMantleLine, takeMantleLineOption } = await import('./mantle-line');
  const taken = takeMantleLineOption(limited);
  if (typeof taken === 'string') {
    process.stderr.write(`hooksmith ${command}: ${taken}\n`);
    return 2;
  }
  // check picks the line from the engine facts its own probe reads (analysis/files.ts).
  if (command !== 'check' || taken.line || taken.cayuLine)
    await selectMantleLine(taken.args, taken.line, taken.cayuLine);
  const code = await (await load())(taken.args);
  if (command === 'check') {
    // A finished check leaves nothing to do: exit now rather than let Node tear down a large heap
    // and wait for V8's background compile jobs. Output is written by then (check awaits
    // stdout); stderr gets an empty write to the same end.
    await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
    process.exit(code);
  }
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `hooksmith: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 2;
  },
);
