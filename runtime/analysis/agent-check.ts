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
import { RULES } from '../rules';
import { syntaxError } from '../rules/syntax-error';
import { analyseModule, compareDiagnostics } from './module';

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
  return {
    path,
    syntaxErrors: [],
    futureAnnotations: false,
    imports: [],
    functions: [],
    classes: [],
    lineCount: 0,
  };
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
  return f.isMantle || report?.has(f.path) || f.failure !== undefined || definesRuntimeHook(module)
    ? { ...f, module }
    : undefined;
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

/**
 * An agent with every rule run except syntax-error: the only rule that reads a module's syntax
 * errors, and so the only one CPython's verdict can change. What finishAgent needs is kept; the
 * models are not, so a check that parses ahead of python3 holds no models while it waits.
 */
export interface RuledAgent {
  files: {
    path: string;
    text: string;
    lineCount: number;
    isMantle: boolean;
    /** tree-sitter's syntax errors, to merge with CPython's verdict. */
    syntaxErrors: SyntaxIssue[];
    /** Undefined: unreadable file (its one diagnostic is the failure). */
    found?: HookDiagnostic[];
    failure?: ReadFile['failure'];
  }[];
  fileCount: number;
}

const OTHER_RULES = RULES.filter((r) => r !== syntaxError);

/** Runs every rule but syntax-error over an agent's kept files, each seeing its Mantle siblings. */
export function ruleAgent(job: AgentJob, files: ParsedFile[], options?: AnalysisOptions): RuledAgent {
  const report = job.report ? new Set(job.report) : undefined;
  const siblings = files.filter((f) => f.isMantle && !f.failure).map((f) => f.module);
  const out: RuledAgent['files'] = [];
  for (const f of files) {
    if (report && !report.has(f.path)) continue;
    const base = {
      path: f.path,
      text: f.text,
      lineCount: f.module.lineCount,
      isMantle: f.isMantle,
      syntaxErrors: f.module.syntaxErrors,
    };
    if (f.failure) {
      out.push({ ...base, failure: f.failure });
      continue;
    }
    const found = analyseModule(
      {
        path: f.path,
        text: f.text,
        module: f.module,
        agentModules: f.isMantle ? siblings : [f.module],
        isMantleModule: f.isMantle,
        options,
      },
      OTHER_RULES,
    );
    out.push({ ...base, found });
  }
  return { files: out, fileCount: out.length };
}

/** Adds syntax-error, now that CPython's verdicts are in (see ruleAgent). */
export function finishAgent(ruled: RuledAgent, verdicts: Verdicts, options?: AnalysisOptions): AgentResult {
  const diagnostics: [string, HookDiagnostic[]][] = ruled.files.map((f) => {
    if (!f.found) return [f.path, [failureDiagnostic(f)]];
    const module: HookModule = {
      path: f.path,
      syntaxErrors: mergeSyntaxIssues(f.syntaxErrors, verdicts.get(f.path)),
      futureAnnotations: false,
      imports: [],
      functions: [],
      classes: [],
      lineCount: f.lineCount,
    };
    const syntax = analyseModule(
      { path: f.path, text: f.text, module, agentModules: [module], isMantleModule: f.isMantle, options },
      [syntaxError],
    );
    return [f.path, syntax.length ? [...f.found, ...syntax].sort(compareDiagnostics) : f.found];
  });
  return { diagnostics, fileCount: ruled.fileCount };
}

/** Runs the rules over an agent's kept files, each seeing its Mantle siblings. */
export function checkAgent(
  job: AgentJob,
  files: ParsedFile[],
  verdicts: Verdicts,
  options?: AnalysisOptions,
): AgentResult {
  return finishAgent(ruleAgent(job, files, options), verdicts, options);
}
