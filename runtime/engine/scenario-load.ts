// Scenario file (YAML or JSON) or object → a validated Scenario, or errors naming JSON paths.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { formatIssues } from './json-path';
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
      doc.errors.map((e) => e.message.split('\n')[0] ?? e.message),
    );
  return doc.toJS();
}

export function validateScenario(input: unknown, source: string): Scenario {
  const parsed = scenarioSchema.safeParse(input);
  if (!parsed.success) throw new ScenarioError(`${source}: invalid scenario`, formatIssues(parsed.error));
  return parsed.data;
}

export function loadScenario(fileOrObject: string | object, baseDir = process.cwd()): LoadedScenario {
  if (typeof fileOrObject !== 'string') {
    const scenario = validateScenario(fileOrObject, '<inline>');
    return { scenario, source: '<inline>', agentRoot: path.resolve(baseDir, scenario.agent ?? '.') };
  }
  const file = path.resolve(fileOrObject);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ScenarioError(
      `cannot read scenario ${fileOrObject}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const scenario = validateScenario(parseScenarioText(text, file), fileOrObject);
  return {
    scenario,
    source: fileOrObject,
    agentRoot: path.resolve(path.dirname(file), scenario.agent ?? '.'),
  };
}
