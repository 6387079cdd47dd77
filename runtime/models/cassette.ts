// A cassette: the model exchanges of one scenario, one JSON line each, in the order they were
// made (`.hooksmith/cassettes/<scenario>.jsonl` under the agent). A line holds the request as
// sent (after the hooks; never the key), the answer or the provider's fault, and the latency.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { jsonEqual } from '../json/json-equal';
import { jsonPath } from '../json/json-path';
import { parseJson, stringifyJson } from '../json/lossless-json';
import type { ModelFault } from './chat-provider';
import type { ChatAnswer, ChatRequest } from './chat-wire';

/** Who the model played: the agent, or the user (an LLM-played user). */
export type ModelRole = 'agent' | 'user';

export interface CassetteEntry {
  role: ModelRole;
  /** The conversation turn the exchange belongs to (1-based). */
  turn: number;
  request: ChatRequest;
  response?: ChatAnswer;
  fault?: ModelFault;
  latency_ms: number;
}

/** The cassette file of a scenario: its name without the scenario suffix. */
export function cassetteFile(agentRoot: string, scenarioFile: string): string {
  const name = path.basename(scenarioFile).replace(/(\.scenario)?\.(ya?ml|json)$/, '');
  return path.join(agentRoot, '.hooksmith', 'cassettes', `${name}.jsonl`);
}

/** A cassette that cannot be read: a line that is no exchange. */
export class CassetteError extends Error {
  override name = 'CassetteError';
}

function isEntry(v: unknown): v is CassetteEntry {
  const e = v as CassetteEntry;
  return (
    !!e &&
    typeof e === 'object' &&
    (e.role === 'agent' || e.role === 'user') &&
    typeof e.request === 'object' &&
    e.request !== null &&
    (typeof e.response === 'object' || typeof e.fault === 'object')
  );
}

export function readCassette(file: string): CassetteEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    let v: unknown;
    try {
      v = parseJson(line);
    } catch (err) {
      throw new CassetteError(
        `${file}:${i + 1}: not JSON: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!isEntry(v))
      throw new CassetteError(`${file}:${i + 1}: not a model exchange (role, request, response or fault)`);
    return [v];
  });
}

export function writeCassette(file: string, entries: readonly CassetteEntry[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, entries.map((e) => stringifyJson(e)).join('\n') + (entries.length ? '\n' : ''));
}

/** Where two JSON values first differ: its path and both values; undefined when equal. */
export function firstDifference(
  recorded: unknown,
  now: unknown,
  at: (string | number)[] = [],
): { path: (string | number)[]; recorded: unknown; now: unknown } | undefined {
  if (jsonEqual(recorded, now)) return undefined;
  const bothArrays = Array.isArray(recorded) && Array.isArray(now);
  const bothObjects =
    !!recorded &&
    !!now &&
    typeof recorded === 'object' &&
    typeof now === 'object' &&
    !Array.isArray(recorded) &&
    !Array.isArray(now);
  if (bothArrays) {
    const a = recorded as unknown[];
    const b = now as unknown[];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], [...at, i]);
      if (d) return d;
    }
  }
  if (bothObjects) {
    const a = recorded as Record<string, unknown>;
    const b = now as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDifference(a[k], b[k], [...at, k]);
      if (d) return d;
    }
  }
  return { path: at, recorded, now };
}

const shown = (v: unknown): string => {
  const s = v === undefined ? '(absent)' : (stringifyJson(v) ?? String(v));
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
};

/** "messages[1].content: recorded "…", now "…"" */
export function describeDifference(d: NonNullable<ReturnType<typeof firstDifference>>): string {
  return `${jsonPath(d.path)}: recorded ${shown(d.recorded)}, now ${shown(d.now)}`;
}
