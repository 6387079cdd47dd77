// One agent's files → diagnostics, in three steps: read (decode as CPython would), keep (parse;
// Mantle modules by the loader's rule, Cayu files that define a RuntimeHook subclass), rule (every
// rule, each module seeing its agent's Mantle siblings). Syntax errors are added last (finish):
// syntax-error is the one rule CPython's verdict changes, and the batch check (files.ts) gets the
// verdicts while it parses. analyseAgent runs the steps in process without CPython (Run Hook,
// Simulate Turn).
import type { HookDiagnostic } from '../rules/diagnostics';
import type { Agent } from '../workspace/discovery';
import { decodeSource } from '../python/decode';
import { readRegularFile } from '../workspace/regular-file';
import type { HookModule, Range } from '../python/model';
import { RULES } from '../rules';
import { definesRuntimeHook, mantleHooks, textMayDefineRuntimeHook } from '../python/hooks';
import { MANTLE_MODULE } from '../catalogue';
import { importError } from '../rules/import-error';
import { syntaxError } from '../rules';
import { withVerdict, type Verdict } from '../cpython/syntax-checker';
import { analyseModule, parseModule, type AnalysisOptions } from './module';
import { diagnoseModule } from './diagnose';

/** A file read and decoded. */
export interface SourceFile {
  path: string;
  text: string;
  isMantle: boolean;
  /** Unreadable, binary or undecodable: reported as a syntax error, no rules run. */
  failure?: { message: string; range: Range };
}

/** A file kept as a hook module, with its model. */
export interface KeptFile extends SourceFile {
  module: HookModule;
}

/**
 * A kept file with every rule run but syntax-error. The model is not kept (only its syntax
 * errors), so a check that parses ahead of python3 holds no models while it waits.
 */
export interface RuledFile extends SourceFile {
  lineCount: number;
  syntaxErrors: HookModule['syntaxErrors'];
  /** Undefined for a failure (its one diagnostic). */
  found?: HookDiagnostic[];
  /** Kept for import-error, which runs last (once the interpreter has resolved them). */
  imports: HookModule['imports'];
}

const START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function emptyModule(path: string, syntaxErrors: HookModule['syntaxErrors'] = [], lineCount = 0): HookModule {
  return { path, syntaxErrors, futureAnnotations: false, imports: [], functions: [], classes: [], lineCount };
}
/** Run last, by finishFile: they wait for CPython's verdict and the interpreter's import answers. */
const LATE_RULES = [syntaxError, importError];
const OTHER_RULES = RULES.filter((r) => !LATE_RULES.includes(r));

/** Reads and decodes a file (CPython refuses binary, UTF-16 and undecodable files: so do we). */
export function readSource(path: string, isMantle: boolean): SourceFile {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path);
  } catch (err) {
    const message = `cannot read file: ${err instanceof Error ? err.message : String(err)}`;
    return { path, text: '', isMantle, failure: { message, range: START } };
  }
  const decoded = decodeSource(bytes);
  return decoded.issue
    ? { path, text: decoded.text, isMantle, failure: decoded.issue }
    : { path, text: decoded.text, isMantle };
}

/** The files of an agent to read: its Mantle modules and Cayu candidates, sorted. */
export function agentSources(agent: Agent): SourceFile[] {
  const mantle = new Set(agent.mantleModules);
  return [...new Set([...agent.mantleModules, ...agent.cayuModules])]
    .sort()
    .map((p) => readSource(p, mantle.has(p)));
}

/**
 * Parses a file; undefined when it is not kept. Kept: what the folder scan finds to be a hook
 * module, whether or not the file was named (`report`): Mantle modules (the loader's rule), files
 * that define a RuntimeHook subclass or register a Mantle hook, and failures of such files. Any
 * other Python file passes silently (`skipped` says why, for --verbose): pre-commit names every
 * staged file. A file the parser throws on is logged and skipped.
 */
export function keepFile(
  f: SourceFile,
  report: ReadonlySet<string> | undefined,
  log: (m: string) => void,
  parse: (text: string, path: string) => HookModule = parseModule,
  skipped?: (path: string, why: string) => void,
): KeptFile | undefined {
  let module = emptyModule(f.path);
  if (!f.failure) {
    try {
      module = parse(f.text, f.path);
    } catch (err) {
      log(`[hooksmith] could not analyse ${f.path}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }
  if (isHookModule(f, module)) return { ...f, module };
  if (report?.has(f.path)) skipped?.(f.path, notHookModuleReason(f));
  return undefined;
}

/** What the folder scan would call a hook module (a failure counts when its text names a hook API). */
function isHookModule(f: SourceFile, module: HookModule): boolean {
  if (f.isMantle) return true;
  if (f.failure) return textMayDefineRuntimeHook(f.text) || f.text.includes(MANTLE_MODULE);
  return definesRuntimeHook(module) || mantleHooks(module).length > 0;
}

function notHookModuleReason(f: SourceFile): string {
  return f.failure
    ? 'not a hook module (unreadable, and it names no hook API)'
    : "not a hook module (no RuntimeHook subclass, no Mantle hook registered, not in an agent's hooks.py or hooks/)";
}

/** Runs every rule but syntax-error over an agent's kept files, each seeing its Mantle siblings. */
export function ruleAgent(
  kept: readonly KeptFile[],
  report: ReadonlySet<string> | undefined,
  options?: AnalysisOptions,
): RuledFile[] {
  const siblings = kept.filter((f) => f.isMantle && !f.failure).map((f) => f.module);
  return kept
    .filter((f) => !report || report.has(f.path))
    .map(({ module, ...f }) => {
      const ruled = {
        ...f,
        lineCount: module.lineCount,
        syntaxErrors: module.syntaxErrors,
        imports: options?.environment ? module.imports : [],
      };
      if (f.failure) return ruled;
      const agentModules = f.isMantle ? siblings : [module];
      const input = { path: f.path, text: f.text, module, agentModules, isMantleModule: f.isMantle, options };
      return { ...ruled, found: analyseModule(input, OTHER_RULES) };
    });
}

/** Adds syntax-error, with CPython's verdict on each file where there is one, and import-error. */
export function finishFile(f: RuledFile, verdict: Verdict, options?: AnalysisOptions): HookDiagnostic[] {
  if (!f.found) {
    const why = f.failure ?? { message: 'unreadable', range: START };
    return [
      { code: 'syntax-error', severity: 'error', message: why.message, file: f.path, range: why.range },
    ];
  }
  const module = {
    ...withVerdict(emptyModule(f.path, f.syntaxErrors, f.lineCount), verdict),
    imports: f.imports,
  };
  const input = {
    path: f.path,
    text: f.text,
    module,
    agentModules: [module],
    isMantleModule: f.isMantle,
    options,
  };
  return diagnoseModule(input, { rules: LATE_RULES, earlier: f.found }).diagnostics;
}

/**
 * One agent checked in process, without CPython (tree-sitter's syntax errors): what Run Hook and
 * Simulate Turn check before running hook code. The parser must be ready (initParser).
 */
export function analyseAgent(
  agent: Agent,
  options?: AnalysisOptions,
  log: (m: string) => void = (m) => process.stderr.write(m + '\n'),
): Map<string, HookDiagnostic[]> {
  const report = agent.report ? new Set(agent.report) : undefined;
  const kept = agentSources(agent).flatMap((f) => keepFile(f, report, log) ?? []);
  return new Map(ruleAgent(kept, report, options).map((f) => [f.path, finishFile(f, undefined, options)]));
}
