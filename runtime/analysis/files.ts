// Paths on disk → diagnostics, for the CLI: discover agents, read and decode, parse,
// confirm syntax with CPython (one python3 process for all files), run the rules with
// each agent's sibling modules.
import * as fs from 'node:fs';
import type { HookDiagnostic } from '../diagnostics';
import { discover, nodeFs, type Agent, type DiscoveryFs } from '../discovery';
import type { HookModule, Range, SyntaxIssue } from '../python/model';
import { mergeSyntaxIssues } from '../python/cpython-syntax';
import { definesRuntimeHook } from '../rules/cayu-common';
import type { AnalysisOptions } from './options';
import type { PythonBackend } from './backend';
import { analyseModule } from './module';
import { defaultBackend } from './default-backend';

export interface FilesOptions {
  /** Confirm syntax with CPython when python3 is available (default true). */
  cpython?: boolean;
  options?: AnalysisOptions;
  fs?: DiscoveryFs;
  backend?: PythonBackend;
  /** Reads a file's bytes (default: the disk). */
  readBytes?: (file: string) => Uint8Array;
}

export interface FilesResult {
  /** Absolute file path → its diagnostics (files without findings map to []). */
  diagnostics: Map<string, HookDiagnostic[]>;
  /** PATH arguments that do not exist. */
  missing: string[];
  /** Files checked. */
  fileCount: number;
}

interface Loaded {
  path: string;
  text: string;
  module: HookModule;
  isMantle: boolean;
  /** Unreadable, binary or undecodable: reported as a syntax error, no rules run. */
  failure?: { message: string; range: Range };
  /** The parser failed on it: logged, not reported. */
  skipped?: boolean;
}

const EMPTY_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function emptyModule(path: string, issue?: SyntaxIssue): HookModule {
  return { path, syntaxErrors: issue ? [issue] : [], futureAnnotations: false, imports: [], functions: [], classes: [], lineCount: 0 };
}

/** Reads and decodes one file (no parsing yet: CPython gets the texts first). */
function read(file: string, isMantle: boolean, backend: PythonBackend, readBytes: (f: string) => Uint8Array): Loaded {
  let bytes: Uint8Array;
  try {
    bytes = readBytes(file);
  } catch (err) {
    const message = `cannot read file: ${err instanceof Error ? err.message : String(err)}`;
    return { path: file, text: '', module: emptyModule(file), isMantle, failure: { message, range: EMPTY_RANGE } };
  }
  const decoded = backend.decode(bytes);
  // CPython refuses the whole file (binary, UTF-16, bytes its encoding cannot decode): so do we.
  if (decoded.issue) return { path: file, text: decoded.text, module: emptyModule(file), isMantle, failure: decoded.issue };
  return { path: file, text: decoded.text, module: emptyModule(file), isMantle };
}

/** Parses a read file in place. */
function parseLoaded(l: Loaded, backend: PythonBackend, log: (m: string) => void): void {
  if (l.failure) return;
  try {
    l.module = backend.parseModule(l.text, l.path);
  } catch (err) {
    // A parser bug on one file is logged and that file skipped; the others are still checked.
    log(`[hooksmith] could not analyse ${l.path}: ${err instanceof Error ? err.message : String(err)}`);
    l.skipped = true;
  }
}

function failureDiagnostic(l: Loaded): HookDiagnostic {
  const f = l.failure ?? { message: 'unreadable', range: EMPTY_RANGE };
  return { code: 'syntax-error', severity: 'error', message: f.message, file: l.path, range: f.range };
}

/** CPython's verdict replaces tree-sitter's: CPython is what the engine runs. */
function withCpython(module: HookModule, verdict: SyntaxIssue | null | undefined): HookModule {
  if (verdict === undefined) return module;
  return { ...module, syntaxErrors: mergeSyntaxIssues(module.syntaxErrors, verdict) };
}

export async function analyseFiles(paths: readonly string[], opts: FilesOptions = {}): Promise<FilesResult> {
  const f = opts.fs ?? nodeFs;
  const backend = opts.backend ?? defaultBackend;
  const readBytes = opts.readBytes ?? ((p: string) => fs.readFileSync(p));
  const log = opts.options?.logger ?? ((m: string) => process.stderr.write(m + '\n'));
  await backend.init();
  const { agents, missing } = discover(paths, f);

  // Read every candidate once, then start CPython on the texts (it runs in its own process, on
  // the other core) while this thread parses; its verdicts are merged afterwards.
  const perAgent: { agent: Agent; files: Loaded[] }[] = [];
  for (const agent of agents) {
    const mantle = new Set(agent.mantleModules);
    const files: Loaded[] = [];
    for (const p of [...new Set([...agent.mantleModules, ...agent.cayuModules])].sort()) files.push(read(p, mantle.has(p), backend, readBytes));
    perAgent.push({ agent, files });
  }
  // Files that end up not kept (Cayu candidates without a RuntimeHook subclass) are checked too:
  // their verdicts are simply unused.
  const toConfirm = perAgent.flatMap((a) => a.files.filter((l) => !l.failure));
  let cpython: Promise<(SyntaxIssue | null | undefined)[]> | undefined;
  if (opts.cpython !== false && toConfirm.length) {
    try {
      cpython = backend.cpythonSyntax(toConfirm.map((l) => ({ path: l.path, text: l.text })));
    } catch (err) {
      cpython = Promise.reject(err); // a backend that throws at once is reported like one that fails later
    }
    cpython.catch(() => undefined); // handled below; parsing must not see an unhandled rejection
  }

  let parsed = 0;
  for (const a of perAgent) {
    const report = a.agent.report ? new Set(a.agent.report) : undefined;
    const kept: Loaded[] = [];
    for (const l of a.files) {
      parseLoaded(l, backend, log);
      // Let the event loop feed CPython's stdin and read its answers between files.
      if (cpython && ++parsed % 8 === 0) await new Promise<void>((r) => setImmediate(r));
      if (l.skipped) continue;
      const keep = l.isMantle || report?.has(l.path) || l.failure !== undefined || definesRuntimeHook(l.module);
      if (keep) kept.push(l);
    }
    a.files = kept;
  }

  const verdicts = new Map<string, SyntaxIssue | null | undefined>();
  if (cpython) {
    try {
      const answers = await cpython;
      toConfirm.forEach((l, i) => verdicts.set(l.path, answers[i]));
    } catch (err) {
      log(`[hooksmith] syntax is checked by tree-sitter only: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  const diagnostics = new Map<string, HookDiagnostic[]>();
  let fileCount = 0;
  for (const { agent, files } of perAgent) {
    const report = agent.report ? new Set(agent.report) : undefined;
    for (const l of files) l.module = withCpython(l.module, verdicts.get(l.path));
    const siblings = files.filter((l) => l.isMantle && !l.failure).map((l) => l.module);
    for (const l of files) {
      if (report && !report.has(l.path)) continue;
      fileCount++;
      if (l.failure) {
        diagnostics.set(l.path, [failureDiagnostic(l)]);
        continue;
      }
      const found = analyseModule({
        path: l.path,
        text: l.text,
        module: l.module,
        agentModules: l.isMantle ? siblings : [l.module],
        isMantleModule: l.isMantle,
        options: opts.options,
      });
      diagnostics.set(l.path, found);
    }
  }
  return { diagnostics, missing, fileCount };
}
