// `hooksmith scenario from-messages FILE [--expect snapshot] [-o OUT] [--python PATH]`: a recorded
// conversation (scaffold/scenario-from-messages.ts) → a multi-turn scenario, as YAML on stdout or
// in OUT. `--expect snapshot` plays it through the agent's hooks (the agent of OUT's folder, else
// of the current one) and records each turn's status and bot text as its expectations.
// Exit codes: 0 written; 2 usage, unreadable or bad input (not a message list, a tool message
// with no call), or a scenario that cannot play (agent check errors).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { RunInputError } from '../engine/run-hook';
import { createHookRunner } from '../engine/runner';
import { ScenarioError, validateScenario } from '../engine/scenario-load';
import { turnView } from '../engine/sim-turns';
import {
  RecordingError,
  scenarioFromRecording,
  type RecordedScenario,
} from '../scaffold/scenario-from-messages';
import { botText } from '../testing/evaluate-scenario';
import { writeFileAtomic } from '../workspace/atomic-file';
import { parseCommandArgs } from './args';
import { printable } from './printable';
import { reportInputError } from './run';

const USAGE =
  'usage: hooksmith scenario from-messages FILE|- [--expect snapshot] [-o OUT] [--python PATH]\n' +
  '  FILE: an OpenAI chat message list (role, content, tool_calls, tool_call_id), or hooksmith simulate --format json output\n';

function fail(message: string): number {
  process.stderr.write(printable(`hooksmith scenario: ${message}\n`) + USAGE);
  return 2;
}

function readInput(file: string): unknown {
  const text = file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RecordingError(`${file}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Plays the scenario and records, per turn, its status and bot text as it is now. */
async function recordSnapshots(sc: RecordedScenario, baseDir: string, python?: string): Promise<object> {
  const runner = createHookRunner({ python, workspaceRoots: () => [process.cwd()] });
  try {
    const sim = await runner.simulate(sc, baseDir);
    return {
      ...sc,
      turns: sc.turns.map((t, i) => {
        const view = turnView(sim, i + 1);
        return { ...t, expect: { status: view.status, transcript: { snapshot: botText(view) } } };
      }),
    };
  } finally {
    await runner.dispose();
  }
}

export async function runScenarioCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(args, {
    expect: { type: 'string' },
    output: { type: 'string', short: 'o' },
    python: { type: 'string' },
  });
  if (typeof parsed !== 'string' && parsed.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (typeof parsed === 'string') return fail(parsed);
  const [sub, file, extra] = parsed.positionals;
  const { expect, output, python } = parsed.values as Record<string, string | undefined>;
  if (sub !== 'from-messages') return fail(sub ? `unknown subcommand '${sub}'` : 'missing subcommand');
  if (!file) return fail('missing FILE');
  if (extra !== undefined) return fail(`unexpected argument ${extra}`);
  if (expect !== undefined && expect !== 'snapshot') return fail(`--expect must be snapshot, got ${expect}`);
  try {
    const name = file === '-' ? 'recorded conversation' : path.basename(file).replace(/\.json$/, '');
    const recorded = scenarioFromRecording(readInput(file), name);
    const baseDir = output ? path.dirname(path.resolve(output)) : process.cwd();
    const scenario = expect ? await recordSnapshots(recorded, baseDir, python) : recorded;
    validateScenario(scenario, output ?? '<stdout>');
    const text = `# Recorded from ${file === '-' ? 'stdin' : file} by hooksmith scenario from-messages\n${stringify(scenario, { lineWidth: 0 })}`;
    if (output) writeFileAtomic(output, text);
    else process.stdout.write(text);
    return 0;
  } catch (err) {
    if (err instanceof RecordingError) return fail(`not a recorded conversation: ${err.message}`);
    if (err instanceof RunInputError || err instanceof ScenarioError) {
      reportInputError('scenario', err);
      return 2;
    }
    if (err instanceof Error && ('code' in err || err.name === 'PythonHostError')) return fail(err.message);
    throw err;
  }
}
