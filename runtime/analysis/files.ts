// Paths on disk → diagnostics, for the CLI: discover agents, read and decode, parse, confirm
// syntax with CPython (one python3 process for all files, started first and fed file paths), run
// the rules with each agent's sibling modules. Large checks share the parsing and rules with check
// workers (check-pool.ts), agent by agent, so cross-file rules still see every sibling. An agent's
// rules run as soon as it is parsed; syntax-error, the one rule CPython's verdict changes, once
// CPython has judged its files.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { HookDiagnostic } from '../diagnostics';
import { discover, nodeFs, type Agent, type DiscoveryFs } from '../discovery';
import { CpythonSyntaxChecker, type SyntaxRequest } from '../python/cpython-syntax';
import { textKey, VerdictCache } from '../python/cpython-cache';
import type { HookModule, SyntaxIssue } from '../python/model';
import type { AnalysisOptions } from './options';
import type { PythonBackend } from './backend';
import { defaultBackend } from './default-backend';
import {
  checkAgent,
  finishAgent,
  parseAgent,
  parseFile,
  ruleAgent,
  EMPTY_RANGE,
  type AgentJob,
  type AgentResult,
  type ParsedFile,
  type ReadFile,
  type RuledAgent,
  type Verdicts,
} from './agent-check';
import { CheckPool, workerScript } from './check-pool';
import { claimNext, turn } from './check-protocol';
import { KeptReadsFs, readSourceFile, type SourceBytes } from './read-source';
import { TreeHelper, treeWorkerScript } from './tree-helper';
import { othersBusyCores, processCpuMs, sampleCpu } from './cpu-load';
import { confineHelpers, type ConfinedHelpers } from './helper-cores';

export interface FilesOptions {
  /** Confirm syntax with CPython when python3 is available (default true). */
  cpython?: boolean;
  /**
   * The interpreter that confirms syntax (default `python3`, which may be a launcher: a pyenv
   * shim adds ~0.35 s of start-up). Default backend only.
   */
  python?: string;
  options?: AnalysisOptions;
  fs?: DiscoveryFs;
  backend?: PythonBackend;
  /** Reads a file's bytes (default: the disk, where CPython may then read the files itself). */
  readBytes?: (file: string) => Uint8Array;
  /**
   * Check workers besides the main thread. Default: defaultWorkerCount(files). 0: single-threaded.
   * Default backend only.
   */
  workers?: number;
  /**
   * Remember CPython's verdicts across runs (python/cpython-cache.ts), and use them for texts it
   * has judged before. Default: on unless HOOKSMITH_NO_CACHE is set (the test runner sets it, so
   * that tests see python3's own answers). `cacheDir` overrides where.
   */
  cache?: boolean;
  cacheDir?: string;
  /** Say how the check runs (threads, or why single-threaded) through the logger. */
  verbose?: boolean;
  /**
   * This process runs this check and then exits (the CLI): it may rearrange the scheduling of
   * its own threads (helper-cores.ts). Never in a long-lived process such as the extension host,
   * where the change would outlive the check and slow everything else it runs.
   */
  oneShot?: boolean;
  /**
   * A tree worker (tree-helper.ts) that parses beside the main thread when no check worker runs.
   * Default: when treeWorkerPays(). Off when `workers` is 0.
   */
  treeWorker?: boolean;
  /** The tree-worker script (default: found beside this module); for tests. */
  treeWorkerScript?: string;
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

/**
 * Files each check worker must have to pay for itself. A worker costs ~1 s of CPU beyond the
 * files it parses: ~0.2 s to start (its isolate, the bundle, tree-sitter's WASM), the rest a cold
 * JIT — the first few hundred files run slower while V8 compiles the hot code again for that
 * isolate, on background threads.
 */
export const FILES_PER_WORKER = 300;
/** Below this many files the check runs on one thread. */
export const PARALLEL_MIN_FILES = FILES_PER_WORKER;

/**
 * One worker per FILES_PER_WORKER files, on the cores left once the main thread has one and
 * python3 plus V8's own background threads (GC, JIT) have another, net of what other programs
 * use (`othersBusy`, cores' worth, measured: cpu-load.ts); at most 3.
 *
 * Measured on a 2-core VM, 1,000 files: a single-threaded check already keeps ~1.4 cores busy
 * (python3 ~0.8 s and V8's background work ~1 s of CPU beside the main thread's ~2.7 s), and a
 * worker added ~1.0–1.2 s of CPU, so it made the check no faster even with no other program
 * running, and slower otherwise. Hence no worker on 2 cores; on 4 free cores, two.
 */
export function defaultWorkerCount(
  fileCount: number,
  cores = availableParallelism(),
  othersBusy = 0,
): number {
  const free = Math.floor(cores - othersBusy + 0.5);
  return Math.max(0, Math.min(3, free - 2, Math.floor(fileCount / FILES_PER_WORKER)));
}

/**
 * Files a tree worker must have to pay for itself: it costs ~0.1 s of CPU to start (an isolate,
 * a small bundle, tree-sitter's WASM) and parses ~1 file per ms once warm.
 */
export const TREE_WORKER_MIN_FILES = 150;

/**
 * Whether a tree worker pays by default: when the check is large enough and a core is left once
 * the main thread, V8's background work and python3 (if it runs) have theirs. Measured on 2
 * cores, 1,000 files (medians of 6–8): without CPython 1.46 → 1.35 s; with python3 running, no
 * faster (1.75 either way) for 0.4 s more CPU, so not then.
 */
export function treeWorkerPays(
  fileCount: number,
  cpythonRuns: boolean,
  cores = availableParallelism(),
): boolean {
  return fileCount >= TREE_WORKER_MIN_FILES && cores >= (cpythonRuns ? 3 : 2);
}

/** Starts a tree worker when no check worker runs and one pays (see FilesOptions.treeWorker). */
function startTreeHelper(
  fileCount: number,
  opts: FilesOptions,
  log: (m: string) => void,
  cpythonRuns: boolean,
): TreeHelper | undefined {
  if (opts.workers === 0 || opts.treeWorker === false || fileCount === 0) return undefined;
  if (opts.treeWorker === undefined && !treeWorkerPays(fileCount, cpythonRuns)) return undefined;
  if (opts.backend && opts.backend !== defaultBackend) return undefined;
  const script = opts.treeWorkerScript ?? treeWorkerScript();
  if (!script) {
    if (opts.verbose)
      log('[hooksmith] tree-worker script not found beside the CLI: parsing on the main thread only');
    return undefined;
  }
  if (opts.verbose) log('[hooksmith] a tree worker parses beside the main thread');
  return new TreeHelper(script, log);
}

/**
 * Other programs' load (cores' worth, measured over discovery) below which helpers are confined
 * (helper-cores.ts): beside a program using a whole core they would starve. Not lower: over
 * discovery's ~80 ms the kernel's 10 ms ticks make an idle machine read as up to ~0.4 busy.
 * Measured on 2 cores, 1,000 files, all new to CPython: the main thread waited 130–250 ms for a
 * core, then ~20 ms; the check took 1.58 s, then 1.47 s (medians of 14 interleaved rounds, 13 won).
 */
const CONFINE_MAX_OTHERS_BUSY = 0.75;

/** Reads and decodes one file (no parsing yet: CPython gets the files first). */
function read(
  file: string,
  isMantle: boolean,
  backend: PythonBackend,
  readBytes: ((f: string) => Uint8Array) | undefined,
  disk: KeptReadsFs | undefined,
): { file: ReadFile; disk?: SourceBytes['disk'] } {
  let source: SourceBytes;
  try {
    source = readBytes ? { bytes: readBytes(file) } : (disk?.take(file) ?? readSourceFile(file));
  } catch (err) {
    const message = `cannot read file: ${err instanceof Error ? err.message : String(err)}`;
    return { file: { path: file, text: '', isMantle, failure: { message, range: EMPTY_RANGE } } };
  }
  const decoded = backend.decode(source.bytes);
  // CPython refuses the whole file (binary, UTF-16, bytes its encoding cannot decode): so do we.
  if (decoded.issue) return { file: { path: file, text: decoded.text, isMantle, failure: decoded.issue } };
  return {
    file: { path: file, text: decoded.text, isMantle },
    ...(source.disk ? { disk: source.disk } : {}),
  };
}

/** Starts check workers when the check is large enough and a worker script exists. */
function startPool(
  fileCount: number,
  opts: FilesOptions,
  log: (m: string) => void,
  othersBusy: number | undefined,
): CheckPool | undefined {
  const verbose = (m: string) => opts.verbose && log(`[hooksmith] ${m}`);
  // An explicit worker count is honoured at any size (tests compare both modes on small trees).
  const count = opts.workers ?? defaultWorkerCount(fileCount, availableParallelism(), othersBusy);
  const machine = `${availableParallelism()} cores${othersBusy === undefined ? '' : `, ${othersBusy.toFixed(1)} busy with other programs`}`;
  if (count <= 0 || fileCount === 0) {
    verbose(`checking ${fileCount} file(s) on one thread (${machine})`);
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
  verbose(`checking ${fileCount} files on ${count + 1} threads (${machine})`);
  return new CheckPool(script, count, log);
}

export async function analyseFiles(paths: readonly string[], opts: FilesOptions = {}): Promise<FilesResult> {
  // The disk (the default) keeps what discovery read for the check; another file system is asked.
  const disk = opts.fs || opts.readBytes ? undefined : new KeptReadsFs();
  const f = opts.fs ?? disk ?? nodeFs;
  const backend = opts.backend ?? defaultBackend;
  const log = opts.options?.logger ?? ((m: string) => process.stderr.write(m + '\n'));
  // python3 first: it may be a launcher (a pyenv shim costs ~0.35 s) and starts on another core.
  // The default backend's CPython is driven here directly, so that it can start before discovery
  // and read the files itself; a custom backend's cpythonSyntax is called once the texts are read.
  const checker =
    opts.cpython !== false && backend.cpythonSyntax === defaultBackend.cpythonSyntax
      ? new CpythonSyntaxChecker({ log, lowPriority: true, ...(opts.python ? { python: opts.python } : {}) })
      : undefined;
  // Whether a worker pays depends on free cores: measured over discovery (skipped when the
  // caller fixed the number of workers).
  const cpuBefore = opts.workers === undefined ? sampleCpu() : undefined;
  const verdicts = openVerdictCache(checker, opts);
  // Started now, its start-up overlaps discovery; but when verdicts are remembered from an
  // earlier check, most files will need none, so python3 waits until one is asked for.
  if (!verdicts?.size) checker?.warm();
  // The WASM loads while discovery and reading go on; awaited before the first parse.
  const ready = backend.init();
  ready.catch(() => undefined);
  let pool: CheckPool | undefined;
  let trees: TreeHelper | undefined;
  try {
    const started = performance.now();
    const { agents, missing } = discover(paths, f);
    const discovered = performance.now();
    const candidates = agents.reduce((n, a) => n + new Set([...a.mantleModules, ...a.cayuModules]).size, 0);
    const othersBusy =
      cpuBefore && candidates >= PARALLEL_MIN_FILES
        ? othersBusyCores(cpuBefore, sampleCpu([checker?.pid]))
        : undefined;
    pool = startPool(candidates, opts, log, othersBusy);
    // Only for a large check on one thread (othersBusy is measured from PARALLEL_MIN_FILES on).
    const helpers =
      opts.oneShot && checker && !pool && othersBusy !== undefined && othersBusy < CONFINE_MAX_OTHERS_BUSY
        ? confineHelpers(checker, opts.verbose ? log : undefined)
        : undefined;
    // The tree worker is decided once the files are read and CPython's cached verdicts are known.
    const startTrees = (cpythonBusy: boolean) =>
      (trees = pool ? undefined : startTreeHelper(candidates, opts, log, cpythonBusy));
    const result = await analyseAgents(agents, {
      ...opts,
      backend,
      log,
      ready,
      pool,
      startTrees,
      checker,
      verdicts,
      disk,
      helpers,
    });
    if (opts.verbose) {
      const t = result.timings;
      const span = (a: number, b: number) => `${Math.round(b - a)} ms`;
      log(
        `[hooksmith] times: process start to check ${Math.round(started)} ms, discovery ${span(started, discovered)}, reading ${span(discovered, t.read)}, parsing and rules ${span(t.read, t.parsed)}, then waiting for python3 and workers ${span(t.parsed, t.done)}`,
      );
    }
    if (opts.verbose && checker?.version) {
      const { fromDisk, resent } = checker.stats;
      log(
        `[hooksmith] CPython ${checker.version} read ${fromDisk} file(s) itself${resent ? `, ${resent} sent as text` : ''}`,
      );
    }
    return { diagnostics: result.diagnostics, fileCount: result.fileCount, missing };
  } finally {
    pool?.terminate(); // idle workers would otherwise keep the process alive after a failure
    trees?.close();
    await checker?.end();
  }
}

interface Run extends FilesOptions {
  backend: PythonBackend;
  log: (m: string) => void;
  ready: Promise<void>;
  pool: CheckPool | undefined;
  /** Starts the tree worker if one pays, given whether python3 has much to compile. */
  startTrees: (cpythonBusy: boolean) => TreeHelper | undefined;
  checker: CpythonSyntaxChecker | undefined;
  /** CPython's remembered verdicts (undefined: not remembering). */
  verdicts: VerdictCache | undefined;
  disk: KeptReadsFs | undefined;
  /** python3 and V8's threads confined to the other cores (helper-cores.ts). */
  helpers: ConfinedHelpers | undefined;
}

type Verdict = SyntaxIssue | null | undefined;

/** How long the main thread parses before letting the event loop run (pipes, worker messages). */
const TURN_MS = 4;

/** One promise per request, never rejecting: CPython's verdict, or undefined (no verdict). */
function askCpython(requests: SyntaxRequest[], run: Run): Promise<Verdict>[] {
  if (run.checker) return run.checker.checkEach(requests);
  if (run.cpython === false || requests.length === 0) return requests.map(() => Promise.resolve(undefined));
  let all: Promise<Verdict[]>;
  try {
    all = run.backend.cpythonSyntax(requests.map(({ path, text }) => ({ path, text })));
  } catch (err) {
    all = Promise.reject(err); // a backend that throws at once is reported like one that fails later
  }
  const answers = all.then(
    (a) => a,
    (err: unknown) => {
      run.log(
        `[hooksmith] syntax is checked by tree-sitter only: ${err instanceof Error ? err.message : String(err)}`,
      );
      return [] as Verdict[];
    },
  );
  return requests.map((_, i) => answers.then((a) => a[i]));
}

/** The remembered verdicts for this checker's interpreter, unless remembering is off (see FilesOptions.cache). */
function openVerdictCache(
  checker: CpythonSyntaxChecker | undefined,
  opts: FilesOptions,
): VerdictCache | undefined {
  const enabled = opts.cache ?? !process.env.HOOKSMITH_NO_CACHE;
  const identity = checker && enabled ? checker.verdictIdentity() : undefined;
  return identity ? VerdictCache.open(identity, opts.cacheDir) : undefined;
}

/**
 * CPython's verdict per request: remembered for texts judged before, else asked for (and
 * remembered once given). `misses`: how many python3 must compile.
 */
function verdictsFor(requests: SyntaxRequest[], run: Run): { answers: Promise<Verdict>[]; misses: number } {
  const cache = run.verdicts;
  if (!cache) return { answers: askCpython(requests, run), misses: requests.length };
  const keys = requests.map((r) => textKey(r.text));
  const known = keys.map((k) => cache.get(k));
  const asked = askCpython(
    requests.filter((_, i) => known[i] === undefined),
    run,
  );
  let next = 0;
  const answers = requests.map((_, i) => {
    const v = known[i];
    if (v !== undefined) return Promise.resolve<Verdict>(v);
    return (asked[next++] as Promise<Verdict>).then((verdict) => {
      cache.set(keys[i] as string, verdict);
      return verdict;
    });
  });
  return { answers, misses: asked.length };
}

/** performance.now() when the files were read, this thread had parsed (and checked) its share, and all was done. */
interface Timings {
  read: number;
  parsed: number;
  done: number;
}

async function analyseAgents(
  agents: Agent[],
  run: Run,
): Promise<Omit<FilesResult, 'missing'> & { timings: Timings }> {
  const { backend, log, ready, pool } = run;
  // Read every candidate once and hand them all to CPython (its own process, on another core)
  // before parsing. Files that end up not kept (Cayu candidates without a RuntimeHook subclass)
  // are judged too: their verdicts are simply unused.
  const requests: SyntaxRequest[] = [];
  const owner: number[] = [];
  const jobs: AgentJob[] = agents.map((agent, index) => {
    const mantle = new Set(agent.mantleModules);
    const files = [...new Set([...agent.mantleModules, ...agent.cayuModules])].sort().map((p) => {
      const r = read(p, mantle.has(p), backend, run.readBytes, run.disk);
      if (!r.file.failure) {
        requests.push({ path: r.file.path, text: r.file.text, ...(r.disk ? { disk: r.disk } : {}) });
        owner.push(index);
      }
      return r.file;
    });
    return agent.report ? { files, report: agent.report } : { files };
  });
  const readAt = performance.now();
  const { answers, misses } = verdictsFor(requests, run);
  // The tree worker gets the texts in the order the loop below parses them (agents in order:
  // with no check worker, the main thread claims every agent).
  const trees = run.startTrees(
    run.checker !== undefined && !run.checker.unavailableReason && misses >= TREE_WORKER_MIN_FILES,
  );
  const treeIndex = new Map<ReadFile, number>();
  if (trees) {
    const texts: string[] = [];
    for (const job of jobs)
      for (const f of job.files) if (!f.failure) treeIndex.set(f, texts.push(f.text) - 1);
    trees.start(texts);
  }
  const parse = (f: ReadFile): HookModule => {
    const k = treeIndex.get(f);
    return (k !== undefined && trees?.modelFor(k, f.text, f.path)) || backend.parseModule(f.text, f.path);
  };
  // Every verdict in: python3 may exit while the rules finish (end() in analyseFiles waits for it).
  if (run.checker) {
    const checker = run.checker;
    void Promise.all(answers).then(() => {
      const cpu = processCpuMs(checker.pid);
      if (run.verbose && cpu) log(`[hooksmith] python3 used ${cpu} ms of CPU (start included)`);
      return checker.end();
    });
  }
  const waitingForCpython = run.cpython !== false && requests.length > 0;

  // Each agent's verdicts, complete once CPython has judged all of its files.
  const perAgent: Promise<Verdict>[][] = jobs.map(() => []);
  const paths: string[][] = jobs.map(() => []);
  answers.forEach((a, i) => {
    perAgent[owner[i]!]!.push(a);
    paths[owner[i]!]!.push(requests[i]!.path);
  });
  const settled = new Map<number, Verdicts>();
  const agentVerdicts = perAgent.map(async (list, i) => {
    const found = await Promise.all(list);
    const v: Verdicts = new Map(found.map((x, k) => [paths[i]![k]!, x]));
    settled.set(i, v);
    pool?.verdicts(i, v);
    return v;
  });

  const counter = new SharedArrayBuffer(4);
  const claims = new Int32Array(counter);
  pool?.start(jobs, counter, run.options);
  await ready;
  const results = new Map<number, AgentResult>();
  // Agents whose rules have run, waiting for CPython's verdicts (syntax-error alone needs them).
  const ruled = new Map<number, RuledAgent>();
  const checkSettled = () => {
    for (const [i, agent] of ruled) {
      const v = settled.get(i);
      if (!v) continue;
      ruled.delete(i);
      results.set(i, finishAgent(agent, v, run.options));
    }
  };
  let lastTurn = performance.now();
  // For run.helpers: how many files this thread parsed and python3 judged.
  let parsedCount = 0;
  let judgedCount = 0;
  if (run.helpers) for (const a of answers) void a.then(() => judgedCount++);
  for (let i = claimNext(claims); i < jobs.length; i = claimNext(claims)) {
    const job = jobs[i]!;
    const report = job.report ? new Set(job.report) : undefined;
    const kept: ParsedFile[] = [];
    for (const file of job.files) {
      const p = parseFile(file, report, backend, log, parse);
      if (p) kept.push(p);
      run.helpers?.keepPace(++parsedCount, judgedCount, requests.length);
      // Let the event loop feed CPython's stdin (a 64 KB pipe), read its answers and forward them
      // to workers: every few milliseconds, not after every file (each turn polls the loop).
      if ((waitingForCpython || pool) && performance.now() - lastTurn > TURN_MS) {
        await turn();
        lastTurn = performance.now();
      }
    }
    // The rules run now, not once python3 has judged the files: the models can go at once.
    ruled.set(i, ruleAgent(job, kept, run.options));
    checkSettled();
  }
  const parsedAt = performance.now();
  for (const [i, agent] of ruled) results.set(i, finishAgent(agent, await agentVerdicts[i]!, run.options));

  if (pool) {
    await pool.close();
    for (const [i, r] of pool.results) results.set(i, r);
    if (run.verbose) log(`[hooksmith] workers checked ${pool.results.size} of ${jobs.length} agents`);
  }
  if (trees && run.verbose)
    log(`[hooksmith] the tree worker parsed ${trees.fromWorker} of ${treeIndex.size} files`);
  if (run.verdicts) {
    await Promise.all(answers);
    run.verdicts.save();
    if (run.verbose)
      log(`[hooksmith] CPython verdicts: ${run.verdicts.stats.hits} remembered, ${misses} asked for`);
  }
  // Agents a failed worker claimed but did not finish.
  for (let i = 0; i < jobs.length; i++) {
    if (!results.has(i))
      results.set(
        i,
        checkAgent(jobs[i]!, parseAgent(jobs[i]!, backend, log), await agentVerdicts[i]!, run.options),
      );
  }

  const diagnostics = new Map<string, HookDiagnostic[]>();
  let fileCount = 0;
  for (let i = 0; i < jobs.length; i++) {
    const r = results.get(i)!;
    for (const [path, found] of r.diagnostics) diagnostics.set(path, found);
    fileCount += r.fileCount;
  }
  return { diagnostics, fileCount, timings: { read: readAt, parsed: parsedAt, done: performance.now() } };
}
