// Scenario file (YAML or JSON) or object → a validated Scenario, or errors naming JSON paths.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { JSON_LIMITS, unfaithfulJson } from '../json/json-faithful';
import { formatIssues } from '../json/json-path';
import {
  hooksmithScenarioOf,
  isMantleDocument,
  isMantleScenarioPath,
  mantleAgentBase,
  mantleScenarioDocument,
  NEEDS_MANTLE,
} from './mantle-scenario';
import { scenarioSchema, type Scenario } from './scenario-schema';

export class ScenarioError extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

export interface LoadedScenario {
  scenario: Scenario;
  /** The file, or '<inline>'. */
  source: string;
  /** Absolute agent root. */
  agentRoot: string;
  /** A Mantle eval scenario file (`scenario:`): its keys stand under `scenario` / `scenario.hooksmith`. */
  mantle?: boolean;
}

/** A Mantle eval scenario without a scripted conversation: only the Mantle engine can play it. */
export interface EngineOnlyScenario {
  engineOnly: string;
  name: string;
  source: string;
  agentRoot: string;
}

export function parseScenarioText(text: string, file: string): unknown {
  if (file.endsWith('.json')) {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new ScenarioError(`${file}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length)
    throw new ScenarioError(
      `${file}: not valid YAML`,
      doc.errors.map((e) =>
        // The parser recurses per level: say what a stack overflow there means.
        (e.message.split('\n')[0] ?? e.message).replace(
          /^Maximum call stack size exceeded/,
          `nested too deeply to parse (the limit for scenario values is ${JSON_LIMITS.depth} levels)`,
        ),
      ),
    );
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    // The yaml library stops an alias bomb (a billion laughs) with a ReferenceError.
    if (err instanceof ReferenceError && /alias/i.test(err.message))
      throw new ScenarioError(
        `${file}: its YAML aliases expand too far (more than ${MAX_ALIAS_COUNT} alias uses, or aliases that nest exponentially): write the values out`,
      );
    throw err;
  }
}

const MAX_ALIAS_COUNT = 100;

/**
 * The agent root a scenario names, confined to the scenario's folder tree or one of the
 * workspace roots (symlinks resolved): `agent: ../other` must not import someone else's code,
 * and `agent: /` must not scan the file system.
 */
export function confinedAgentRoot(
  base: string,
  agent: string | undefined,
  source: string,
  workspaceRoots: readonly string[] = [],
): string {
  const root = path.resolve(base, agent ?? '.');
  const real = realOrSelf(root);
  const allowed = [base, ...workspaceRoots].map((r) => realOrSelf(path.resolve(r)));
  if (allowed.some((a) => isInside(real, a))) return root;
  throw new ScenarioError(`${source}: agent: ${agent} is outside the scenario's folder and the workspace`, [
    `agent: resolves to ${real}; allowed: the folder tree of ${[...new Set(allowed)].join(', ')}`,
  ]);
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function validateScenario(input: unknown, source: string): Scenario {
  const unfaithful = unfaithfulJson(input);
  if (unfaithful)
    throw new ScenarioError(`${source}: the scenario holds a value JSON cannot carry faithfully`, [
      unfaithful,
    ]);
  const parsed = scenarioSchema.safeParse(input);
  if (!parsed.success) throw new ScenarioError(`${source}: invalid scenario`, formatIssues(parsed.error));
  return parsed.data;
}

/** A Mantle document → the scenario it plays, or why only Mantle can play it. */
function fromMantle(
  doc: unknown,
  file: string,
  source: string,
  workspaceRoots: readonly string[],
): LoadedScenario | EngineOnlyScenario {
  const parsed = mantleScenarioDocument.safeParse(doc);
  if (!parsed.success)
    throw new ScenarioError(`${source}: invalid Mantle scenario`, formatIssues(parsed.error));
  const base = mantleAgentBase(file);
  const played = hooksmithScenarioOf(parsed.data);
  if (!played) {
    const agentRoot = confinedAgentRoot(base, undefined, source, workspaceRoots);
    return { engineOnly: NEEDS_MANTLE, name: parsed.data.scenario.name, source, agentRoot };
  }
  let scenario: Scenario;
  try {
    scenario = validateScenario(played, source);
  } catch (err) {
    if (err instanceof ScenarioError)
      throw new ScenarioError(
        err.message,
        err.details.map((d) => (d.startsWith('goals') ? `scenario.${d}` : `scenario.hooksmith.${d}`)),
      );
    throw err;
  }
  const agentRoot = confinedAgentRoot(base, scenario.agent, source, workspaceRoots);
  return { scenario, source, agentRoot, mantle: true };
}

/** A scenario file: Hooksmith's, or Mantle's (`eval/scenarios/*.yml` with `scenario:`). */
export function readScenarioFile(
  fileOrObject: string,
  workspaceRoots: readonly string[] = [],
): LoadedScenario | EngineOnlyScenario {
  const file = path.resolve(fileOrObject);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ScenarioError(
      `cannot read scenario ${fileOrObject}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const doc = parseScenarioText(text, file);
  if (isMantleDocument(doc)) return fromMantle(doc, file, fileOrObject, workspaceRoots);
  if (isMantleScenarioPath(file))
    throw new ScenarioError(
      `${fileOrObject}: not a Mantle scenario: eval/scenarios files hold a \`scenario:\` mapping`,
    );
  const scenario = validateScenario(doc, fileOrObject);
  return {
    scenario,
    source: fileOrObject,
    agentRoot: confinedAgentRoot(path.dirname(file), scenario.agent, fileOrObject, workspaceRoots),
  };
}

export function loadScenario(
  fileOrObject: string | object,
  baseDir = process.cwd(),
  workspaceRoots: readonly string[] = [],
): LoadedScenario {
  if (typeof fileOrObject !== 'string') {
    const scenario = validateScenario(fileOrObject, '<inline>');
    const agentRoot = confinedAgentRoot(baseDir, scenario.agent, '<inline>', workspaceRoots);
    return { scenario, source: '<inline>', agentRoot };
  }
  const read = readScenarioFile(fileOrObject, workspaceRoots);
  if ('engineOnly' in read) throw new ScenarioError(`${fileOrObject}: ${read.engineOnly}`);
  return read;
}
