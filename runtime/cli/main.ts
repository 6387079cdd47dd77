// `hooksmith` — the command-line face of the core: check | run | simulate | payload | … | lsp.
// Exit codes: 0 ok, 1 findings / failed run, 2 usage or input error.
// Subcommands load on demand: `check` never evaluates the engine, `--version` nothing at all
// (esbuild keeps dynamically imported modules in the bundle but evaluates them lazily).

import { invalidHostEnv, takeHostOptions, type HostOptions } from './host-options';

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
   runtime wherever cayu is importable, else Hooksmith's emulation), as hooksmith.cayu.engine does,
   and --mantle-engine auto|real|emulation: who plays Mantle hook calls, default auto (rasa-pro's
   hook runner wherever rasa.mantle.hooks is importable), as hooksmith.mantle.engine does)
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

/** A command's entry; the commands that run hooks also get the host options (host-options.ts). */
export type CommandMain = (args: string[], host: HostOptions) => Promise<number>;

const COMMANDS: Record<string, () => Promise<CommandMain>> = {
  check: async () => {
    const { runCheckCommand } = await import('./check');
    return (args) => runCheckCommand(args);
  },
  run: async () => (await import('./run')).runRunCommand,
  simulate: async () => (await import('./simulate')).runSimulateCommand,
  payload: async () => (await import('./payload')).runPayloadCommand,
  test: async () => (await import('./test')).runTestCommand,
  fuzz: async () => (await import('./fuzz')).runFuzzCommand,
  scenario: async () => (await import('./scenario')).runScenarioCommand,
  lsp: async () => (await import('./lsp')).runLspCommand,
};

const HOST_COMMANDS = new Set(['run', 'simulate', 'test', 'fuzz']);

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
  if (command === 'lsp') return (await load())(rest, {});
  const limited = HOST_COMMANDS.has(command) ? takeHostOptions(rest) : { args: rest, options: {} };
  const refused =
    typeof limited === 'string' ? limited : HOST_COMMANDS.has(command) && invalidHostEnv(limited.options);
  if (typeof limited === 'string' || refused) {
    process.stderr.write(`hooksmith ${command}: ${refused}\n`);
    return 2;
  }
  const { selectMantleLine, takeMantleLineOption } = await import('./mantle-line');
  const taken = takeMantleLineOption(limited.args);
  if (typeof taken === 'string') {
    process.stderr.write(`hooksmith ${command}: ${taken}\n`);
    return 2;
  }
  // check picks the line from the engine facts its own probe reads (analysis/files.ts).
  if (command !== 'check' || taken.line || taken.cayuLine)
    await selectMantleLine(taken.args, taken.line, taken.cayuLine);
  const code = await (await load())(taken.args, limited.options);
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
