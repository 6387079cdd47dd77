// `hooksmith scenario from-messages FILE [--expect snapshot] [-o OUT] [--python PATH]`: a recorded
// conversation (scaffold/scenario-from-messages.ts) → a multi-turn scenario, as YAML on stdout or
// in OUT. `--expect snapshot` plays it through the agent's hooks (the agent of OUT's folder, else
// of the current one) and records each turn's status and bot text as its expectations.
// Exit codes: 0 written; 2 usage, unreadable or bad input (not a message list, a tool message
// with no call), or a scenario that cannot play (agent check errors).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';
import { RunInputError } from '../engine/run-hook';
import { PythonHostError } from '../host/host-spawn';
import { createHookRunner } from '../engine/runner';
import { ScenarioError, validateScenario } from '../engine/scenario-load';
import { turnView } from '../engine/scenario-turns';
import {
  RecordingError,
  scenarioFromRecording,
  type RecordedScenario,
} from '../scaffold/scenario-from-messages';
import { botText } from '../testing/evaluate-scenario';
import { writeFileAtomic } from '../workspace/atomic-file';
import { readRegularFile } from '../workspace/regular-file';
import { strictUtf8 } from '../workspace/text-form';
import { parseCommandArgs } from './args';
import { printable } from './printable';
import { reportInputError } from './run';
import { parseJson } from '../json/lossless-json';
import { saveCassette } from '../testing/save-cassette';

const USAGE =
  'usage: hooksmith scenario from-messages FILE|- [--expect snapshot] [-o OUT [--force]] [--python PATH]\n' +
  '  FILE: an OpenAI chat message list (role, content, tool_calls, tool_call_id), or hooksmith simulate --format json output\n' +
  '  OUT: a new file, or a scenario (*.scenario.yaml|yml) to record again; --force replaces a scenario file that no longer loads\n';

function fail(message: string): number {
  process.stderr.write(printable(`hooksmith scenario: ${message}\n`) + USAGE);
  return 2;
}

function readInput(file: string): unknown {
  // A FIFO or a device (/dev/zero) is refused, not read forever.
  const bytes = file === '-' ? fs.readFileSync(0) : readRegularFile(file);
  let text: string;
  try {
    text = strictUtf8(file, bytes);
  } catch (err) {
    throw new RecordingError(`${file === '-' ? 'stdin' : file}: ${(err as Error).message}`);
  }
  try {
    return parseJson(text);
  } catch (err) {
    throw new RecordingError(`${file}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** What this command writes: a Hooksmith scenario in YAML (not a Mantle eval file, not JSON). */
const SCENARIO_YAML = /\.scenario\.ya?ml$/;

/**
 * Why OUT must not be written, or undefined. Only a scenario file is ever replaced: a file of
 * another kind (the agent's hooks.py, a payload case) never, a link or a FIFO never, and a
 * scenario-named file that does not load as one only with --force.
 */
function outputRefusal(output: string, force: boolean): string | undefined {
  const st = fs.lstatSync(output, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (!st.isFile()) return `-o ${output}: exists and is not a regular file: not written`;
  if (!SCENARIO_YAML.test(output))
    return `-o ${output}: exists and is not a scenario file (*.scenario.yaml|yml): never overwritten`;
  if (force) return undefined;
  try {
    validateScenario(parse(readRegularFile(output).toString('utf8')), output);
    return undefined;
  } catch {
    return `-o ${output}: exists and does not load as a scenario: not overwritten (--force replaces it)`;
  }
}

/** Plays the scenario and records, per turn, its status and bot text as it is now. */
async function recordSnapshots(sc: RecordedScenario, baseDir: string, python?: string): Promise<object> {
  const runner = createHookRunner({ python, workspaceRoots: () => [process.cwd()] });
  try {
    const sim = await runner.simulate(sc, baseDir);
    saveCassette(sim);
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
    force: { type: 'boolean' },
    python: { type: 'string' },
  });
  if (typeof parsed !== 'string' && parsed.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (typeof parsed === 'string') return fail(parsed);
  const [sub, file, extra] = parsed.positionals;
  const { expect, output, python } = parsed.values as Record<string, string | undefined>;
  const force = parsed.values.force === true;
  if (sub !== 'from-messages') return fail(sub ? `unknown subcommand '${sub}'` : 'missing subcommand');
  if (!file) return fail('missing FILE');
  if (extra !== undefined) return fail(`unexpected argument ${extra}`);
  if (expect !== undefined && expect !== 'snapshot') return fail(`--expect must be snapshot, got ${expect}`);
  if (force && !output) return fail('--force goes with -o OUT');
  const refusal = output ? outputRefusal(output, force) : undefined;
  if (refusal) return fail(refusal);
  try {
    const name = file === '-' ? 'recorded conversation' : path.basename(file).replace(/\.json$/, '');
    const recorded = scenarioFromRecording(readInput(file), name);
    const baseDir = output ? path.dirname(path.resolve(output)) : process.cwd();
    const scenario = expect ? await recordSnapshots(recorded, baseDir, python) : recorded;
    validateScenario(scenario, output ?? '<stdout>');
    const text = `# Recorded from ${file === '-' ? 'stdin' : file} by hooksmith scenario from-messages\n${stringify(scenario, { lineWidth: 0 })}`;
    // Checked again just before writing: the file may have appeared while the scenario played.
    const late = output ? outputRefusal(output, force) : undefined;
    if (late) return fail(late);
    if (output) writeFileAtomic(output, text);
    else process.stdout.write(text);
    return 0;
  } catch (err) {
    if (err instanceof RecordingError) return fail(`not a recorded conversation: ${err.message}`);
    if (err instanceof RunInputError || err instanceof ScenarioError) {
      reportInputError('scenario', err);
      return 2;
    }
    if (err instanceof Error && ('code' in err || err instanceof PythonHostError)) return fail(err.message);
    throw err;
  }
}
