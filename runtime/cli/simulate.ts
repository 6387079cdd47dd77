// `hooksmith simulate SCENARIO_FILE [--python PATH] [--format text|json] [--wired-points POINT,...]`
// Exit codes: 0 the scenario played and no hook misbehaved; 1 it played and some hook crashed,
// timed out, ran over its budget, returned an invalid value or raised an ignored signal; 2 usage or
// input errors (malformed scenario with its JSON path, agent check errors): nothing runs; also 2
// when Hooksmith itself failed mid-turn (status error, `internalError`).
import { type HostOptions, runnerHostOptions } from './host-options';
import type { SimulationResult } from '../engine/api';
import { formatSimulationText } from './format-run-text';
import { RunInputError } from '../engine/run-hook';
import { PythonHostError } from '../host/host-spawn';
import { createHookRunner, listedWiring } from '../engine/runner';
import { ScenarioError } from '../engine/scenario-load';
import { parseCommandArgs, WIRED_POINTS_SPEC, wiredPointsOption } from './args';
import { cliDebug, DEBUG_SPEC } from './debug-option';
import { printable } from './printable';
import { misbehaved, reportInputError } from './run';
import { MODEL_SPEC, MODEL_USAGE, modelFailed, modelLines, modelOptions } from './model-options';
import type { ModelRunOptions } from '../engine/model-step';
import { CassetteError } from '../engine/model-step';
import { stringifyJson } from '../json/lossless-json';
import { saveCassette } from '../testing/save-cassette';

const USAGE =
  'usage: hooksmith simulate SCENARIO_FILE [--python PATH] [--format text|json] [--wired-points POINT,...]\n' +
  `       [--debug [HOST:]PORT] ${MODEL_USAGE}\n`;

interface SimulateArgs {
  file: string;
  python?: string;
  format: string;
  wiredPoints?: readonly string[];
  debug?: string;
  models: ModelRunOptions;
}

function parseSimulateArgs(args: string[]): SimulateArgs | string {
  const parsed = parseCommandArgs(args, {
    python: { type: 'string' },
    format: { type: 'string' },
    ...WIRED_POINTS_SPEC,
    ...DEBUG_SPEC,
    ...MODEL_SPEC,
  });
  if (typeof parsed === 'string') return parsed;
  const models = modelOptions(parsed.values);
  if (typeof models === 'string') return models;
  const [file, extra] = parsed.positionals;
  const { python, format = 'text', debug } = parsed.values as Record<string, string | undefined>;
  if (extra !== undefined) return `unexpected argument ${extra}`;
  if (!file) return 'missing SCENARIO_FILE';
  if (format !== 'text' && format !== 'json') return `--format must be text or json, got ${format}`;
  const wiredPoints = wiredPointsOption(parsed.values['wired-points']);
  if (typeof wiredPoints === 'string') return wiredPoints;
  return { file, python, format, debug, models, ...(wiredPoints ? { wiredPoints } : {}) };
}

/**
 * 2 when Hooksmith itself failed mid-turn or the engine did not finish, 1 when a hook misbehaved
 * or the model failed, else 0.
 */
export function simulateExitCode(result: SimulationResult): number {
  if (result.internalError !== undefined || result.engineUnfinished !== undefined) return 2;
  return result.events.some(misbehaved) || modelFailed(result) ? 1 : 0;
}

export async function runSimulateCommand(args: string[], host: HostOptions = {}): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const parsed = parseSimulateArgs(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`hooksmith simulate: ${parsed}\n${USAGE}`);
    return 2;
  }
  const { file, python, format, wiredPoints } = parsed;
  const debugging = await cliDebug('simulate', parsed.debug, python);
  if (typeof debugging === 'number') return debugging;
  const runner = createHookRunner({
    python,
    ...runnerHostOptions(host),
    ...listedWiring(wiredPoints),
    ...(debugging ? { debug: debugging.debug } : {}),
    // The CLI's workspace is where it runs: a scenario's agent: may name a folder under it.
    workspaceRoots: () => [process.cwd()],
    models: parsed.models,
    log: (l) => (process.env.HOOKSMITH_DEBUG ? process.stderr.write(l + '\n') : undefined),
  });
  const uninterruptible = debugging?.onInterrupt(runner);
  try {
    const result = await runner.simulate(file);
    saveCassette(result); // this command owns the run: it writes what the run recorded
    process.stdout.write(
      format === 'json' ? stringifyJson(result, 2) + '\n' : printable(formatSimulationText(result)),
    );
    for (const line of modelLines(result)) process.stderr.write(printable(`hooksmith simulate: ${line}\n`));
    if (result.internalError)
      process.stderr.write(`hooksmith simulate: internal error: ${result.internalError}\n`);
    if (result.engineUnfinished)
      process.stderr.write(`hooksmith simulate: no verdict: ${result.engineUnfinished}\n`);
    return simulateExitCode(result);
  } catch (err) {
    if (err instanceof RunInputError || err instanceof ScenarioError) {
      reportInputError('simulate', err);
      return 2;
    }
    if (err instanceof PythonHostError || err instanceof CassetteError) {
      process.stderr.write(printable(`hooksmith simulate: ${err.message}\n`));
      return 2;
    }
    throw err;
  } finally {
    uninterruptible?.();
    await runner.dispose();
  }
}
