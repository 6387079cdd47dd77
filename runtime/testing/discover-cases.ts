// Finds test cases under paths: every scenario (`*.scenario.yaml|yml|json`) and every payload
// file with an `expect` block (`.hooksmith/payloads/*.json`). A file that is no valid case is
// reported as malformed (exit 2) and the others still run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { fileIssues } from '../json/json-path';
import { withoutSchemaKey } from '../engine/payload-input';
import { parseJsonText, readScenarioFile, ScenarioError } from '../engine/scenario-load';
import { isMantleScenarioPath, mantleKeyPath } from '../engine/mantle-scenario';
import { isCayuEvalPath } from '../engine/cayu-eval';
import { cayuEvalCases } from './cayu-eval-cases';
import type { MalformedFile, TestCase } from './cases';
import { payloadCaseKeys } from '../engine/expect-schema';
import { sourceLines } from './source-lines';
import { strictUtf8 } from '../workspace/text-form';

const SCENARIO = /\.scenario\.(ya?ml|json)$/;
const SKIP_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', '.vscode-test', 'dist']);

/** A Hooksmith scenario (`*.scenario.yaml|yml|json`) or a Mantle eval scenario (`eval/scenarios/*.yml`). */
export function isScenarioFile(file: string): boolean {
  return SCENARIO.test(file) || isMantleScenarioPath(file);
}

export function isPayloadFile(file: string): boolean {
  return (
    file.endsWith('.json') &&
    path.basename(path.dirname(file)) === 'payloads' &&
    path.basename(path.dirname(path.dirname(file))) === '.hooksmith'
  );
}

function walk(dir: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (SKIP_DIRS.has(e.name) || (e.name.startsWith('.') && e.name !== '.hooksmith')) continue;
      walk(full, out);
    } else if (e.isFile() && (isScenarioFile(full) || isPayloadFile(full) || isCayuEvalPath(full)))
      out.push(full);
  }
}

/** The candidate files under the paths (files given directly are taken as they are), sorted. */
export function caseFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths.length ? paths : ['.']) {
    const abs = path.resolve(p);
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (st?.isDirectory()) walk(abs, out);
    else if (st?.isFile()) out.push(abs);
  }
  return [...new Set(out)].sort();
}

const payloadCase = z.object(payloadCaseKeys);

function scenarioCase(file: string, text: string): TestCase {
  const loaded = readScenarioFile(file);
  const lines = sourceLines(text);
  const base = { kind: 'scenario' as const, file, agentRoot: loaded.agentRoot, text, lines };
  if ('engineOnly' in loaded)
    return {
      ...base,
      name: loaded.name,
      line: lines.lineOf(['scenario']),
      engineOnly: loaded.engineOnly,
      scenario: loaded.playable,
      mantle: true,
    };
  const sc = loaded.scenario;
  const key = sc.expect ? 'expect' : sc.goals ? 'goals' : sc.turns ? 'turns' : undefined;
  const at = (k: string) => (loaded.mantle ? mantleKeyPath([k]) : [k]);
  return {
    ...base,
    name: sc.name ?? path.basename(file),
    line: key ? lines.lineOf(at(key)) : 1,
    scenario: sc,
    ...(loaded.mantle ? { mantle: true } : {}),
  };
}

/** A payload file that is a case (it has `expect`): its data and hook, checked; undefined for a plain sample. */
export function readPayloadCaseText(
  file: string,
  text: string,
): { data: Record<string, unknown>; hook: string; agentRoot: string } | undefined {
  const data = parseJsonText(text, file);
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !('expect' in data))
    return undefined;
  const parsed = payloadCase.safeParse(data);
  if (!parsed.success)
    throw ScenarioError.ofIssues('invalid payload case', fileIssues(parsed.error, [], payloadCase));
  const agentRoot = path.dirname(path.dirname(path.dirname(file)));
  const outside = hookOutsideAgent(agentRoot, parsed.data.hook);
  if (outside)
    throw ScenarioError.ofIssues('invalid payload case', [
      { path: ['hook'], kind: 'invalid-value', message: outside },
    ]);
  return { data: data as Record<string, unknown>, hook: parsed.data.hook, agentRoot };
}

function payloadFileCase(file: string, text: string): TestCase | MalformedFile | undefined {
  let read: ReturnType<typeof readPayloadCaseText>;
  try {
    read = readPayloadCaseText(file, text);
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    const json = err.syntax.length > 0;
    return {
      file,
      message: json ? 'not valid JSON' : err.message,
      details: json ? [err.syntax[0]!.message] : err.details,
    };
  }
  if (!read) return undefined;
  return {
    kind: 'payload',
    file,
    name: `${path.basename(file, '.json')} → ${read.hook}`,
    agentRoot: read.agentRoot,
    line: sourceLines(text).lineOf(['expect']),
    hook: read.hook,
    payload: withoutSchemaKey(read.data),
    text,
  };
}

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/**
 * Why a payload case's `hook` file is not the agent's own module, or undefined: it must resolve
 * (symlinks too) inside the agent root, as the case runs before any import of it.
 */
export function hookOutsideAgent(agentRoot: string, hook: string): string | undefined {
  const file = hook.slice(0, hook.lastIndexOf('::'));
  const rule = `hook: ${JSON.stringify(hook)}: FILE must be a module inside the agent root ${agentRoot}`;
  // eslint-disable-next-line no-control-regex -- a NUL or control character is no module path
  if (!file || /[\u0000-\u001f]/.test(file) || path.isAbsolute(file)) return rule;
  const abs = path.resolve(agentRoot, file);
  if (!inside(agentRoot, abs)) return rule;
  try {
    if (!inside(fs.realpathSync(agentRoot), fs.realpathSync(abs))) return `${rule} (it links outside)`;
  } catch {
    // not there: the run says the module is not found
  }
  return undefined;
}

/** Reads and validates one candidate file: a case, a malformed file, or nothing (a plain sample). */
export function readCase(file: string): TestCase | MalformedFile | undefined {
  let text: string;
  try {
    text = strictUtf8(file, fs.readFileSync(file));
  } catch (err) {
    return { file, message: 'cannot read', details: [(err as Error).message] };
  }
  if (isScenarioFile(file)) {
    try {
      return scenarioCase(file, text);
    } catch (err) {
      if (err instanceof ScenarioError) return { file, message: err.message, details: err.details };
      throw err;
    }
  }
  if (isPayloadFile(file) || file.endsWith('.json')) return payloadFileCase(file, text);
  return undefined;
}

export function discoverCases(paths: readonly string[]): { cases: TestCase[]; malformed: MalformedFile[] } {
  const cases: TestCase[] = [];
  const malformed: MalformedFile[] = [];
  for (const f of caseFiles(paths)) {
    const c = readCaseFile(f);
    if (!c) continue;
    if (Array.isArray(c)) cases.push(...c);
    else malformed.push(c);
  }
  return { cases, malformed };
}

/**
 * The cases of one candidate file (a Cayu eval corpus holds many, any other file one), a
 * malformed file, or nothing (a plain sample). The Testing view reads a file this way too.
 */
export function readCaseFile(file: string): TestCase[] | MalformedFile | undefined {
  if (isCayuEvalPath(file)) return readCorpus(file);
  const c = readCase(file);
  return c && 'kind' in c ? [c] : c;
}

/** A case read again from disk before it runs (the file may have changed); undefined if it is gone. */
export function rereadCase(c: TestCase): TestCase | undefined {
  const now = readCaseFile(c.file);
  if (!Array.isArray(now)) return undefined;
  return c.cayuEval ? now.find((n) => n.cayuEval?.id === c.cayuEval!.id) : now[0];
}

function readCorpus(file: string): TestCase[] | MalformedFile {
  try {
    return cayuEvalCases(file, strictUtf8(file, fs.readFileSync(file)));
  } catch (err) {
    return { file, message: 'cannot read', details: [(err as Error).message] };
  }
}
