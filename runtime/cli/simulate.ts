// `hooksmith simulate SCENARIO_FILE [--python PATH] [--format text|json]`
// Exit codes: 0 the scenario played and no hook misbehaved; 1 it played and some hook crashed,
// timed out, ran over its budget, returned an invalid value or raised an ignored signal; 2 usage or
// input errors (malformed scenario with its JSON path, agent check errors): nothing runs.
import { formatSimulationText } from '../engine/format-text';
import { RunInputError } from '../engine/run-hook';
import { createHookRunner } from '../engine/runner';
import { ScenarioError } from '../engine/scenario-load';
import { misbehaved, reportInputError } from './run';

const USAGE = 'usage: hooksmith simulate SCENARIO_FILE [--python PATH] [--format text|json]\n';

export async function runSimulateCommand(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let file: string | undefined;
  let python: string | undefined;
  let format = 'text';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--python' || a === '--format') {
      const v = args[++i];
      if (v === undefined) {
        process.stderr.write(`hooksmith simulate: ${a} needs a value\n${USAGE}`);
        return 2;
      }
      if (a === '--python') python = v;
      else format = v;
    } else if (a.startsWith('--python=')) python = a.slice(9);
    else if (a.startsWith('--format=')) format = a.slice(9);
    else if (a.startsWith('-') || file !== undefined) {
      process.stderr.write(`hooksmith simulate: unexpected argument ${a}\n${USAGE}`);
      return 2;
    } else file = a;
  }
  if (!file || (format !== 'text' && format !== 'json')) {
    process.stderr.write(
      `hooksmith simulate: ${file ? `--format must be text or json, got ${format}` : 'missing SCENARIO_FILE'}\n${USAGE}`,
    );
    return 2;
  }
  const runner = createHookRunner({
    python,
    // The CLI's workspace is where it runs: a scenario's agent: may name a folder under it.
    workspaceRoots: () => [process.cwd()],
    log: (l) => (process.env.HOOKSMITH_DEBUG ? process.stderr.write(l + '\n') : undefined),
  });
  try {
    const result = await runner.simulate(file);
    process.stdout.write(
      format === 'json' ? JSON.stringify(result, null, 2) + '\n' : formatSimulationText(result),
    );
    return result.events.some(misbehaved) ? 1 : 0;
  } catch (err) {
    if (err instanceof RunInputError || err instanceof ScenarioError) {
      reportInputError('simulate', err);
      return 2;
    }
    if (err instanceof Error && err.name === 'PythonHostError') {
      process.stderr.write(`hooksmith simulate: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    await runner.dispose();
  }
}
