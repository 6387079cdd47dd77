// One agent's files → diagnostics, in two steps: parse (decide which files are hook modules),
// then — once CPython's verdicts are in — run the rules with the agent's sibling modules.
// The same code runs on the main thread and in check workers (runtime/analysis/check-worker.ts),
// so a parallel check gives exactly the single-threaded answer. Everything here is plain data
// (structured-clone safe) except the backend and the logger.
import type { HookDiagnostic } from '../diagnostics';
import type { HookModule, Range, SyntaxIssue } from '../python/model';
import { mergeSyntaxIssues } from '../python/cpython-syntax';
import { definesRuntimeHook } from '../rules/cayu-common';
import type { AnalysisOptions } from './options';
import type { PythonBackend } from './backend';
import { analyseModule } from './module';

/** A file read and decoded on the main thread. */
export interface ReadFile {
  path: string;
  text: string;
  isMantle: boolean;
  /** Unreadable, binary or undecodable: reported as a syntax error, no rules run. */
  failure?: { message: string; range: Range };
}

/** One agent as the parse step needs it. */
export interface AgentJob {
  files: ReadFile[];
  /** When set, report diagnostics only for these files. */
  report?: string[];
}

/** A file after the parse step (kept: it is a hook module or was asked for). */
export interface ParsedFile extends ReadFile {
  module: HookModule;
}

export interface AgentResult {
  /** [path, diagnostics] in the order single-threaded analysis produces them. */
  diagnostics: [string, HookDiagnostic[]][];
  fileCount: number;
}

/** CPython's verdict per path: the issue, null (compiles), undefined (no verdict). */
export type Verdicts = ReadonlyMap<string, SyntaxIssue | null | undefined>;

export const EMPTY_RANGE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function emptyModule(path: string): HookModule {
  return { path, syntaxErrors: [], futureAnnotations: false, imports: [], functions: [], classes: [], lineCount: 0 };
}

/**
 * Parses one of an agent's files; undefined when it is not kept. Kept: Mantle modules, files
 * asked for (`report`), files that could not be read, and Cayu candidates that define a
 * RuntimeHook subclass. A file the parser fails on is logged and skipped.
 */
export function parseFile(
  f: ReadFile,
  report: ReadonlySet<string> | undefined,
  backend: PythonBackend,
  log: (m: string) => void,
  /** How to get the model (default: the backend parses it; the CLI may have a tree worker's tree). */
  parse: (f: ReadFile) => HookModule = (file) => backend.parseModule(file.text, file.path),
): ParsedFile | undefined {
  let module = emptyModule(f.path);
  if (!f.failure) {
    try {
      module = parse(f);
    } catch (err) {
      log(`[hooksmith] could not analyse ${f.path}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }
  return f.isMantle || report?.has(f.path) || f.failure !== undefined || definesRuntimeHook(module) ? { ...f, module } : undefined;
}

/** Parses an agent's files and keeps its hook modules (see parseFile). */
export function parseAgent(job: AgentJob, backend: PythonBackend, log: (m: string) => void): ParsedFile[] {
  const report = job.report ? new Set(job.report) : undefined;
  const kept: ParsedFile[] = [];
  for (const f of job.files) {
    const p = parseFile(f, report, backend, log);
    if (p) kept.push(p);
  }
  return kept;
}

function failureDiagnostic(f: ReadFile): HookDiagnostic {
  const why = f.failure ?? { message: 'unreadable', range: EMPTY_RANGE };
  return { code: 'syntax-error', severity: 'error', message: why.message, file: f.path, range: why.range };
}

/** CPython's verdict replaces tree-sitter's: CPython is what the engine runs. */
function withCpython(module: HookModule, verdict: SyntaxIssue | null | undefined): HookModule {
  if (verdict === undefined) return module;
  return { ...module, syntaxErrors: mergeSyntaxIssues(module.syntaxErrors, verdict) };
}

/** Runs the rules over an agent's kept files, each seeing its Mantle siblings. */
export function checkAgent(job: AgentJob, files: ParsedFile[], verdicts: Verdicts, options?: AnalysisOptions): AgentResult {
  const report = job.report ? new Set(job.report) : undefined;
  const modules = files.map((f) => withCpython(f.module, verdicts.get(f.path)));
  const siblings = modules.filter((_, i) => files[i]!.isMantle && !files[i]!.failure);
  const diagnostics: [string, HookDiagnostic[]][] = [];
  let fileCount = 0;
  files.forEach((f, i) => {
    if (report && !report.has(f.path)) return;
    fileCount++;
    if (f.failure) {
      diagnostics.push([f.path, [failureDiagnostic(f)]]);
      return;
    }
    const module = modules[i]!;
    const found = analyseModule({
      path: f.path,
      text: f.text,
      module,
      agentModules: f.isMantle ? siblings : [module],
      isMantleModule: f.isMantle,
      options,
    });
    diagnostics.push([f.path, found]);
  });
  return { diagnostics, fileCount };
}
