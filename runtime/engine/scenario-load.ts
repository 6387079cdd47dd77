// Scenario file (YAML or JSON) or object → a validated Scenario, or errors naming JSON paths.
import * as fs from 'node:fs';
import * as path from 'node:path';
// The ESM build: esbuild cannot follow the requires inside the UMD build's factory.
import { parse as parseJsonc, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { parseDocument } from 'yaml';
import { JSON_LIMITS, unfaithfulJson } from '../json/json-faithful';
import { fileIssues, formatIssue, jsonPath, type FileIssue } from '../json/json-path';
import {
  hooksmithScenarioOf,
  isMantleDocument,
  isMantleScenarioPath,
  mantleAgentBase,
  mantleScenarioDocument,
  mantleKeyPath,
  NEEDS_MANTLE,
  needsMantleModel,
} from './mantle-scenario';
import { scenarioSchema, type Scenario } from './scenario-schema';
import { strictUtf8 } from '../workspace/text-form';
import { narrowBigIntsInPlace, parseJson } from '../json/lossless-json';
import { safeParseKeepingKeys } from '../json/proto-keys';

/** Where a file does not parse: a message at a character offset (to `end`). */
export interface SyntaxProblem {
  message: string;
  offset: number;
  end?: number;
}

/**
 * Why a scenario (or payload case) cannot be used. `details` are the lines `hooksmith test`
 * prints; `issues` and `syntax` are the same problems structured, so the editor places each at
 * its key or its position with the same words.
 */
export class ScenarioError extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
    readonly issues: FileIssue[] = [],
    readonly syntax: SyntaxProblem[] = [],
  ) {
    super(message);
  }

  static ofIssues(message: string, issues: FileIssue[]): ScenarioError {
    return new ScenarioError(message, issues.map(formatIssue), issues);
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

/** A Mantle eval scenario without a scripted conversation or a model: it needs a model to play. */
export interface EngineOnlyScenario {
  engineOnly: string;
  /** What it plays once a model is given: an LLM-played user from simulation_context. */
  playable: Scenario;
  name: string;
  source: string;
  agentRoot: string;
}

/** JSON text → its value, or a ScenarioError placing the parser's complaint in the text. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return parseJson(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const problem = { message, offset: jsonErrorOffset(message, text) };
    throw new ScenarioError(`${file}: not valid JSON: ${message}`, [], [], [problem]);
  }
}

/** Where JSON.parse stopped: V8 names it only sometimes, so a strict JSON scanner finds it. */
function jsonErrorOffset(message: string, text: string): number {
  const at = /at position (\d+)/.exec(message);
  if (at) return Math.min(Number(at[1]), text.length);
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0]?.offset ?? text.length;
}

export function parseScenarioText(text: string, file: string): unknown {
  if (file.endsWith('.json')) return parseJsonText(text, file);
  // Integers as bigint, then the ones a number holds as numbers: the shape parseJson gives.
  const doc = parseDocument(text, { prettyErrors: true, intAsBigInt: true });
  if (doc.errors.length) {
    const syntax = doc.errors.map((e) => ({
      // The parser recurses per level: say what a stack overflow there means.
      message: (e.message.split('\n')[0] ?? e.message).replace(
        /^Maximum call stack size exceeded/,
        `nested too deeply to parse (the limit for scenario values is ${JSON_LIMITS.depth} levels)`,
      ),
      offset: e.pos[0],
      end: e.pos[1],
    }));
    throw new ScenarioError(
      `${file}: not valid YAML`,
      syntax.map((p) => p.message),
      [],
      syntax,
    );
  }
  let parsed: unknown;
  try {
    parsed = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    // The yaml library stops an alias bomb (a billion laughs) with a ReferenceError.
    if (err instanceof ReferenceError && /alias/i.test(err.message))
      throw new ScenarioError(
        `${file}: its YAML aliases expand too far (more than ${MAX_ALIAS_COUNT} alias uses, or aliases that nest exponentially): write the values out`,
      );
    throw err;
  }
  const { value, cycle } = narrowBigIntsInPlace(parsed);
  if (cycle)
    throw new ScenarioError(
      `${file}: ${jsonPath(cycle)}: a YAML alias refers to the value that holds it (an endless value): write the value out`,
    );
  return value;
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
  const parsed = safeParseKeepingKeys(scenarioSchema, input);
  if (!parsed.success)
    throw ScenarioError.ofIssues(`${source}: invalid scenario`, fileIssues(parsed.error, [], scenarioSchema));
  return parsed.data;
}

/** A Mantle document → the scenario it plays, or why only Mantle can play it. */
function fromMantle(
  doc: unknown,
  file: string,
  source: string,
  workspaceRoots: readonly string[],
): LoadedScenario | EngineOnlyScenario {
  const parsed = safeParseKeepingKeys(mantleScenarioDocument, doc);
  if (!parsed.success)
    throw ScenarioError.ofIssues(
      `${source}: invalid Mantle scenario`,
      fileIssues(parsed.error, [], mantleScenarioDocument),
    );
  const base = mantleAgentBase(file);
  const played = hooksmithScenarioOf(parsed.data);
  let scenario: Scenario;
  try {
    scenario = validateScenario(played.scenario, source);
  } catch (err) {
    // The played scenario's keys stand under scenario (goals, name) or scenario.hooksmith.
    if (err instanceof ScenarioError)
      throw ScenarioError.ofIssues(
        err.message,
        err.issues.map((i) => ({ ...i, path: mantleKeyPath(i.path as (string | number)[]) })),
      );
    throw err;
  }
  if (!played.scripted) {
    const agentRoot = confinedAgentRoot(base, undefined, source, workspaceRoots);
    return {
      engineOnly: NEEDS_MANTLE,
      name: parsed.data.scenario.name,
      source,
      agentRoot,
      playable: scenario,
    };
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
    text = strictUtf8(fileOrObject, fs.readFileSync(file));
  } catch (err) {
    throw new ScenarioError(
      `cannot read scenario ${fileOrObject}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return readScenarioText(file, text, fileOrObject, workspaceRoots);
}

/** A scenario file's text (as the editor holds it, or as read): what readScenarioFile makes of it. */
export function readScenarioText(
  file: string,
  text: string,
  fileOrObject: string = file,
  workspaceRoots: readonly string[] = [],
): LoadedScenario | EngineOnlyScenario {
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
  /** A model is given for every scenario: a Mantle file's simulation_context can be played. */
  modelGiven = false,
  /** Whose words a refusal uses: the CLI's flags, or the editor's settings. */
  audience: 'cli' | 'editor' = 'cli',
): LoadedScenario {
  if (typeof fileOrObject !== 'string') {
    const scenario = validateScenario(fileOrObject, '<inline>');
    const agentRoot = confinedAgentRoot(baseDir, scenario.agent, '<inline>', workspaceRoots);
    return { scenario, source: '<inline>', agentRoot };
  }
  const read = readScenarioFile(fileOrObject, workspaceRoots);
  if ('engineOnly' in read) {
    if (!modelGiven)
      throw new ScenarioError(
        `${fileOrObject}: ${read.engineOnly === NEEDS_MANTLE ? needsMantleModel(audience) : read.engineOnly}`,
      );
    return { scenario: read.playable, source: read.source, agentRoot: read.agentRoot, mantle: true };
  }
  return read;
}
