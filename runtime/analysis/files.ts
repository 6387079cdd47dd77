// Paths on disk → diagnostics, for the CLI: discover agents, read and decode, parse,
// confirm syntax with CPython (one python3 process for all files), run the rules with
// each agent's sibling modules. Large checks share the parsing and rules with check workers
// (check-pool.ts), agent by agent, so cross-file rules still see every sibling.
import * as fs from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { HookDiagnostic } from '../diagnostics';
import { discover, nodeFs, type Agent, type DiscoveryFs } from '../discovery';
import type { SyntaxIssue } from '../python/model';
import type { AnalysisOptions } from './options';
import type { PythonBackend } from './backend';
import { defaultBackend } from './default-backend';
import { checkAgent, parseAgent, parseFile, EMPTY_RANGE, type AgentJob, type AgentResult, type ParsedFile, type ReadFile } from './agent-check';
import { CheckPool, workerScript } from './check-pool';
import { claimNext } from './check-protocol';

export interface FilesOptions {
  /** Confirm syntax with CPython when python3 is available (default true). */
  cpython?: boolean;
  options?: AnalysisOptions;
  fs?: DiscoveryFs;
  backend?: PythonBackend;
  /** Reads a file's bytes (default: the disk). */
  readBytes?: (file: string) => Uint8Array;
  /**
   * Check workers besides the main thread. Default: none below PARALLEL_MIN_FILES files, else
   * defaultWorkerCount() (idle cores by load average). 0: single-threaded. Default backend only.
   */
  workers?: number;
  /** Say how the check runs (threads, or why single-threaded) through the logger. */
  verbose?: boolean;
  /** The check-worker script (default: found beside this module); for tests. */
  workerScript?: string;
}

export interface FilesResult {
  /** Absolute file path → its diagnostics (files without findings map to []). */
  diagnostics: Map<string, HookDiagnostic[]>;
  /** PATH arguments that do not exist. */
  missing: string[];
  /** Files checked. */
  fileCount: number;
}

/** Below this many files a worker's start-up (~0.1–0.2 s) costs more than it saves. */
export const PARALLEL_MIN_FILES = 64;

/**
 * One worker per idle core beyond the main thread's (at most 3). A worker only pays when a core
 * is actually free: measured on a shared 2-core machine at load ~5, a worker added ~0.7 s CPU
 * (its own start, WASM and JIT warm-up) and made the check slower, not faster.
 */
export function defaultWorkerCount(cores = availableParallelism(), load1 = loadavg()[0] ?? 0): number {
  const idle = Math.floor(cores - load1 + 0.5);
  return Math.max(0, Math.min(3, cores - 1, idle - 1));
}

/** Reads and decodes one file (no parsing yet: CPython gets the texts first). */
function read(file: string, isMantle: boolean, backend: PythonBackend, readBytes: (f: string) => Uint8Array): ReadFile {
  let bytes: Uint8Array;
  try {
    bytes = readBytes(file);
  } catch (err) {
    const message = `cannot read file: ${err instanceof Error ? err.message : String(err)}`;
    return { path: file, text: '', isMantle, failure: { message, range: EMPTY_RANGE } };
  }
  const decoded = backend.decode(bytes);
  // CPython refuses the whole file (binary, UTF-16, bytes its encoding cannot decode): so do we.
  if (decoded.issue) return { path: file, text: decoded.text, isMantle, failure: decoded.issue };
  return { path: file, text: decoded.text, isMantle };
}

/** Starts check workers when the check is large enough and a worker script exists. */
function startPool(fileCount: number, opts: FilesOptions, log: (m: string) => void): CheckPool | undefined {
  const verbose = (m: string) => opts.verbose && log(`[hooksmith] ${m}`);
  // An explicit worker count is honoured at any size (tests compare both modes on small trees).
  const count = opts.workers ?? (fileCount >= PARALLEL_MIN_FILES ? defaultWorkerCount() : 0);
  if (count <= 0 || fileCount === 0) {
    const busy = opts.workers === undefined && fileCount >= PARALLEL_MIN_FILES;
    verbose(`checking ${fileCount} file(s) on one thread${busy ? ` (no idle core: load ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores)` : ''}`);
    return undefined;
  }
  if (opts.backend && opts.backend !== defaultBackend) {
    verbose('custom Python backend: checking on one thread');
    return undefined;
  }
  const script = opts.workerScript ?? workerScript();
  if (!script) {
    verbose('check-worker script not found beside the CLI: checking on one thread');
    return undefined;
  }
  verbose(`checking ${fileCount} files on ${count + 1} threads`);
  return new CheckPool(script, count, log);
}

export async function analyseFiles(paths: readonly string[], opts: FilesOptions = {}): Promise<FilesResult> {
  const f = opts.fs ?? nodeFs;
  const backend = opts.backend ?? defaultBackend;
  const readBytes = opts.readBytes ?? ((p: string) => fs.readFileSync(p));
  const log = opts.options?.logger ?? ((m: string) => process.stderr.write(m + '\n'));
  // The WASM loads while discovery and reading go on; awaited before the first parse.
  const ready = backend.init();
  ready.catch(() => undefined);
  const { agents, missing } = discover(paths, f);
  const candidates = agents.reduce((n, a) => n + new Set([...a.mantleModules, ...a.cayuModules]).size, 0);
  const pool = startPool(candidates, opts, log);
  try {
    return await analyseAgents(agents, missing, { ...opts, backend, readBytes, log, ready, pool });
  } finally {
    pool?.terminate(); // idle workers would otherwise keep the process alive after a failure
  }
}

interface Run extends FilesOptions {
  backend: PythonBackend;
  readBytes: (file: string) => Uint8Array;
  log: (m: string) => void;
  ready: Promise<void>;
  pool: CheckPool | undefined;
}

async function analyseAgents(agents: Agent[], missing: string[], run: Run): Promise<FilesResult> {
  const { backend, readBytes, log, ready, pool } = run;
  const opts: FilesOptions = run;
  // Read every candidate once, then start CPython on the texts (it runs in its own process,
  // on another core) while the threads parse; its verdicts are merged before the rules run.
  const jobs: AgentJob[] = agents.map((agent) => {
    const mantle = new Set(agent.mantleModules);
    const files = [...new Set([...agent.mantleModules, ...agent.cayuModules])].sort().map((p) => read(p, mantle.has(p), backend, readBytes));
    return agent.report ? { files, report: agent.report } : { files };
  });
  // Files that end up not kept (Cayu candidates without a RuntimeHook subclass) are checked too:
  // their verdicts are simply unused.
  const toConfirm = jobs.flatMap((j) => j.files.filter((l) => !l.failure));
  let cpython: Promise<(SyntaxIssue | null | undefined)[]> | undefined;
  if (opts.cpython !== false && toConfirm.length) {
    try {
      const files = toConfirm.map((l) => ({ path: l.path, text: l.text }));
      cpython = backend.cpythonSyntax(files);
    } catch (err) {
      cpython = Promise.reject(err); // a backend that throws at once is reported like one that fails later
    }
    cpython.catch(() => undefined); // handled below; parsing must not see an unhandled rejection
  }

  const counter = new SharedArrayBuffer(4);
  const claims = new Int32Array(counter);
  pool?.start(jobs, counter, opts.options);
  await ready;
  const parsed = new Map<number, ParsedFile[]>();
  for (let i = claimNext(claims); i < jobs.length; i = claimNext(claims)) {
    const job = jobs[i]!;
    const report = job.report ? new Set(job.report) : undefined;
    const kept: ParsedFile[] = [];
    for (const file of job.files) {
      const p = parseFile(file, report, backend, log);
      if (p) kept.push(p);
      // Let the event loop feed CPython's stdin (a pipe: ~64 KB, a dozen files, per turn) and
      // read its answers; yielding less often starves it and the check then waits for it.
      if (cpython) await new Promise<void>((r) => setImmediate(r));
    }
    parsed.set(i, kept);
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
  pool?.verdicts(verdicts);

  const results = new Map<number, AgentResult>();
  for (const [i, files] of parsed) results.set(i, checkAgent(jobs[i]!, files, verdicts, opts.options));
  if (pool) {
    await pool.close();
    for (const [i, r] of pool.results) results.set(i, r);
  }
  // Agents a failed worker claimed but did not finish.
  for (let i = 0; i < jobs.length; i++) {
    if (!results.has(i)) results.set(i, checkAgent(jobs[i]!, parseAgent(jobs[i]!, backend, log), verdicts, opts.options));
  }

  const diagnostics = new Map<string, HookDiagnostic[]>();
  let fileCount = 0;
  for (let i = 0; i < jobs.length; i++) {
    const r = results.get(i)!;
    for (const [path, found] of r.diagnostics) diagnostics.set(path, found);
    fileCount += r.fileCount;
  }
  return { diagnostics, missing, fileCount };
}
