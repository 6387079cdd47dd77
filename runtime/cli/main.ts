// `hooksmith` — the command-line face of the core: check | run | simulate | payload.
// Exit codes: 0 ok, 1 findings / failed run, 2 usage or input error.
import { runCheckCommand } from './check';
import { runRunCommand } from './run';
import { runSimulateCommand } from './simulate';
import { runPayloadCommand } from './payload';

const USAGE = `usage: hooksmith <command> [options]

commands:
  check [PATH...] [--format text|json|sarif]       validate hook modules (agent roots or files)
  run FILE::HANDLER --payload JSON_FILE|- [--python PATH] [--format text|json]
                                                   run one hook as the engine would
  simulate SCENARIO_FILE [--python PATH] [--format text|json]
                                                   play a whole turn with a mock LLM and tools
  payload POINT                                    print a valid sample payload for a point
`;

export type CommandMain = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, CommandMain> = {
  check: runCheckCommand,
  run: runRunCommand,
  simulate: runSimulateCommand,
  payload: runPayloadCommand,
};

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
  const run = COMMANDS[command];
  if (!run) {
    process.stderr.write(`hooksmith: unknown command '${command}'\n\n${USAGE}`);
    return 2;
  }
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`hooksmith: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
