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

const CASSETTES = ['.hooksmith', 'cassettes'] as const;
const SCENARIO_SUFFIX = '.scenario.yaml';

/**
 * The cassette file of a scenario: `<agent>/.hooksmith/cassettes/<name>.jsonl`, `<name>` the file
 * name without `.scenario.yaml`; any other file keeps its whole name (`order.scenario.yml.jsonl`),
 * so `order.scenario.yaml`, `.yml` and `.json` beside each other never share one.
 */
export function cassetteFile(agentRoot: string, scenarioFile: string): string {
  const base = path.basename(scenarioFile);
  const name = base.endsWith(SCENARIO_SUFFIX) ? base.slice(0, -SCENARIO_SUFFIX.length) : base;
  return path.join(agentRoot, ...CASSETTES, `${name}.jsonl`);
}

/**
 * The name every scenario suffix mapped to before each file had its own (`order.scenario.json`
 * → `order.jsonl`), when it differs from `file`: a cassette found there is pointed to, never read.
 */
export function formerCassetteName(file: string): string | undefined {
  const base = path.basename(file);
  const former = base.replace(/(\.scenario)?\.(ya?ml|json)\.jsonl$/, '.jsonl');
  return former !== base ? former : undefined;
}

/** A cassette that cannot be read or written: a line that is no exchange, a path that is no file of the agent's. */
export class CassetteError extends Error {
  override name = 'CassetteError';
}

/** The agent root of a cassette path cassetteFile made. */
const agentOf = (file: string) => path.dirname(path.dirname(path.dirname(file)));

function isInside(real: string, root: string): boolean {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep; // the filesystem's root ends in one
  return real === root || real.startsWith(prefix);
}

/**
 * Refuses a cassette path that is no file of the agent's, as the payloads folder does: `.hooksmith`
 * or `cassettes` not a folder, or leading out of the agent; the cassette a folder, a FIFO (a read
 * would block), or a link leading out of the agent (its target would be read, echoed, replaced).
 * `make`: create the missing folders (for a write). Never reads the cassette's content.
 */
export function checkCassettePath(file: string, make: boolean): void {
  const agent = agentOf(file);
  const root = fs.realpathSync(agent);
  let dir = agent;
  for (const part of CASSETTES) {
    dir = path.join(dir, part);
    const shown = path.relative(agent, dir).split(path.sep).join('/');
    if (make) {
      try {
        fs.mkdirSync(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    const st = fs.statSync(dir, { throwIfNoEntry: false });
    if (!st) return;
    if (!st.isDirectory())
      throw new CassetteError(`${shown} in the agent ${agent} is not a folder: cannot hold cassettes`);
    const real = fs.realpathSync(dir);
    if (!isInside(real, root))
      throw new CassetteError(
        `${shown} in the agent ${agent} leads outside the agent (to ${real}): not followed`,
      );
  }
  const link = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!link) return;
  if (link.isSymbolicLink()) {
    let real: string;
    try {
      real = fs.realpathSync(file);
    } catch {
      throw new CassetteError(`${file} is a link to nothing: remove it`);
    }
    if (!isInside(real, root))
      throw new CassetteError(`${file} leads outside the agent (to ${real}): not read or written`);
  }
  const st = fs.statSync(file);
  if (st.isDirectory()) throw new CassetteError(`${file} is a folder, not a cassette`);
  if (!st.isFile()) throw new CassetteError(`${file} is not a regular file`);
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
  checkCassettePath(file, false);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CassetteError(`cannot read ${file}: ${(err as Error).message}`);
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

/** A cassette a run recorded, for the command that owns the run to write (testing/save-cassette.ts). */
export interface CassetteWrite {
  readonly file: string;
  readonly text: string;
}

/** The cassette's text: one JSON line per exchange. */
export function cassetteText(entries: readonly CassetteEntry[]): string {
  return entries.map((e) => stringifyJson(e)).join('\n') + (entries.length ? '\n' : '');
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
