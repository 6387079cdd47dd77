// Paths on disk → diagnostics: the batch check behind `hooksmith check`. Discover the agents, read
// every file, hand the texts to CPython (one python3 for the whole run, compiling while this
// thread parses), parse and run the rules agent by agent (agent.ts), then add syntax-error once
// CPython has judged each file.
import type { HookDiagnostic } from '../rules/diagnostics';
import { discover, nodeFs, type Discovery, type DiscoveryFs } from '../workspace/discovery';
import { initParser } from '../python/parser';
import type { HookModule } from '../python/model';
import { CpythonSyntaxChecker, type Verdict } from '../cpython/syntax-checker';
import { defaultCacheDir, VerdictCache } from '../cpython/verdict-cache';
import { PythonEnvironment } from '../cpython/environment';
import { selectEngineLine } from '../cpython/engine-line';
import { CAYU_LINE_ENV, MANTLE_LINE_ENV, untestedEngineHints } from '../catalogue';
import { interpreterImports, rememberedResolver, ruleEnvironment } from '../cpython/rule-environment';
import { engineDifferences } from '../rules/util/installed';
import { WIRED_POINTS_OPTION } from '../catalogue/wiring';
import {
  agentSources,
  finishFile,
  keepFile,
  ruleAgent,
  type KeptFile,
  type RuledFile,
  type SourceFile,
} from './agent';
import type { AnalysisOptions } from './module';
import type { RuleEnvironment } from '../rules/rule';

export interface FilesOptions {
  /** Confirm syntax with CPython when python3 is available (default true). */
  cpython?: boolean;
  /** The interpreter that confirms syntax (default python3). */
  python?: string;
  options?: AnalysisOptions;
  fs?: DiscoveryFs;
  /**
   * Remember CPython's verdicts across runs (cpython/verdict-cache.ts). Default: on unless
   * HOOKSMITH_NO_CACHE is set (the test runner sets it, so that tests see python3's own answers).
   */
  cache?: boolean;
  /** Where the verdicts are remembered (default: verdict-cache.ts's defaultCacheDir). */
  cacheDir?: string;
  /** Say what CPython and the cache did, through the logger. */
  verbose?: boolean;
  /** The Mantle points the engine invokes, overriding the installed rasa-pro (`--wired-points`). */
  wiredPoints?: readonly string[];
  /** Text → model (default: parseModule); tests pass one that fails. */
  parse?: (text: string, path: string) => HookModule;
}

/** What discovery could not see (missing, unusable PATHs, unreadable folders, its bound), and: */
export interface FilesResult extends Omit<Discovery, 'agents'> {
  /** Absolute file path → its diagnostics (files without findings map to []). */
  diagnostics: Map<string, HookDiagnostic[]>;
  /** Files checked. */
  fileCount: number;
  /** The interpreter started but never answered its start-up handshake: why (check exits 2). */
  unresponsive?: string;
}

/** How long this thread parses before letting the event loop feed python3's stdin (a 64 KB pipe). */
const TURN_MS = 4;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** CPython's syntax checker, its remembered verdicts and the installed environment: none without an interpreter. */
function interpreterParts(opts: FilesOptions, log: (m: string) => void) {
  const checker =
    opts.cpython === false
      ? undefined
      : new CpythonSyntaxChecker({ log, ...(opts.python ? { python: opts.python } : {}) });
  const identity =
    checker && (opts.cache ?? !process.env.HOOKSMITH_NO_CACHE) ? checker.verdictIdentity() : '';
  const cache = identity ? VerdictCache.open(identity, opts.cacheDir) : undefined;
  // The installed environment (import-error, unknown-import, not-wired): only with an interpreter.
  const useCache = opts.cache ?? !process.env.HOOKSMITH_NO_CACHE;
  const env = checker
    ? new PythonEnvironment({
        // The syntax checker already says when python3 is unusable; the rest is for --verbose.
        ...(opts.verbose ? { log } : {}),
        ...(opts.python ? { python: opts.python } : {}),
        ...(useCache && (opts.cacheDir ?? defaultCacheDir())
          ? { cacheDir: opts.cacheDir ?? defaultCacheDir() }
          : {}),
      })
    : undefined;
  return { checker, cache, env };
}

/**
 * Each agent's files parsed and ruled, agent by agent. While CPython judges files in the
 * background (`yieldToCpython`), the loop yields every TURN_MS so its answers are read.
 */
async function ruleAgents(
  agents: Discovery['agents'],
  sources: ReturnType<typeof agentSources>[],
  how: { log: (m: string) => void; parse: FilesOptions['parse']; verbose?: boolean; yieldToCpython: boolean },
  options: FilesOptions['options'],
): Promise<RuledFile[]> {
  const ruled: RuledFile[] = [];
  let lastTurn = performance.now();
  for (const [i, agent] of agents.entries()) {
    const report = agent.report ? new Set(agent.report) : undefined;
    const kept: KeptFile[] = [];
    for (const f of sources[i]!) {
      const k = keepFile(f, report, how.log, how.parse, how.verbose ? skippedBy(how.log) : undefined);
      if (k) kept.push(k);
      if (how.yieldToCpython && performance.now() - lastTurn > TURN_MS) {
        await turn();
        lastTurn = performance.now();
      }
    }
    ruled.push(...ruleAgent(kept, report, options));
  }
  return ruled;
}

export async function analyseFiles(paths: readonly string[], opts: FilesOptions = {}): Promise<FilesResult> {
  const log = opts.options?.logger ?? ((m: string) => process.stderr.write(m + '\n'));
  const { checker, cache, env } = interpreterParts(opts, log);
  env?.hold();
  const engine = env?.engine();
  // python3 starts while we discover; when verdicts are remembered it may not be needed at all.
  if (!cache?.size) checker?.warm();
  const ready = initParser();
  ready.catch(() => undefined);
  try {
    const { agents, ...unseen } = discover(paths, opts.fs ?? nodeFs);
    const sources = agents.map(agentSources);
    // Only Mantle modules import as the engine loads an agent; Cayu modules, from their project.
    const wiring = opts.wiredPoints ? { wiredPoints: opts.wiredPoints, wiredBy: WIRED_POINTS_OPTION } : {};
    const rootOf = new Map(agents.flatMap((a) => a.mantleModules.map((f) => [f, a.root] as const)));
    // The Mantle API line the installed engine speaks (an option or the setting already chose: kept).
    const facts = selectEngineLine(
      await engine,
      process.env[MANTLE_LINE_ENV],
      process.env[CAYU_LINE_ENV],
    ).engine;
    const local = rememberedResolver();
    const environment = env
      ? ruleEnvironment({
          reportShimmed: opts.verbose === true,
          env,
          local,
          rootOf: (f) => rootOf.get(f),
          ...(facts ? { engine: facts } : {}),
          ...wiring,
        })
      : wiring.wiredPoints
        ? withoutInterpreter(opts.python, wiring)
        : undefined;
    const options = environment ? { ...opts.options, environment } : opts.options;
    if (opts.verbose && environment)
      for (const line of engineDifferences(environment)) log(`[hooksmith] installed engine: ${line}`);
    for (const hint of untestedEngineHints(facts)) log(`[hooksmith] hint: ${hint}`);
    const { verdicts, asked } = verdictsFor(
      sources.flat().filter((f) => !f.failure),
      checker,
      cache,
    );
    await ready;
    const ruled = await ruleAgents(
      agents,
      sources,
      { log, parse: opts.parse, verbose: opts.verbose, yieldToCpython: asked > 0 },
      options,
    );
    await env?.resolve(
      ruled.flatMap((f) =>
        interpreterImports(
          f.imports.map((b) => b.module),
          f.path,
          rootOf.get(f.path),
          local,
        ),
      ),
    );
    const diagnostics = new Map<string, HookDiagnostic[]>();
    for (const f of ruled) diagnostics.set(f.path, finishFile(f, await verdicts.get(f.path), options));
    if (cache) {
      await Promise.all(verdicts.values());
      cache.save();
      if (opts.verbose)
        log(`[hooksmith] CPython verdicts: ${cache.stats.hits} remembered, ${asked} asked for`);
    }
    if (opts.verbose && checker?.version)
      log(`[hooksmith] CPython ${checker.version} judged ${asked} file(s)`);
    const unresponsive = checker?.unresponsiveReason ?? env?.unresponsive;
    return { diagnostics, fileCount: ruled.length, ...unseen, ...(unresponsive ? { unresponsive } : {}) };
  } finally {
    await Promise.all([checker?.end(), env?.release()]);
  }
}

/** --verbose: a named file that is no hook module passes; say why. */
function skippedBy(log: (m: string) => void): (path: string, why: string) => void {
  return (path, why) => log(`[hooksmith] skipped ${path}: ${why}`);
}

/**
 * CPython's verdict per file path: remembered for texts judged before, else asked for (and
 * remembered once given). `asked`: how many python3 must compile.
 */
function verdictsFor(
  files: readonly SourceFile[],
  checker: CpythonSyntaxChecker | undefined,
  cache: VerdictCache | undefined,
): { verdicts: Map<string, Promise<Verdict>>; asked: number } {
  const keys = files.map((f) => cache?.keyOf(f.text) ?? '');
  const known = keys.map((k) => cache?.get(k));
  const toAsk = files.filter((_, i) => known[i] === undefined);
  const answers = checker?.checkEach(toAsk) ?? [];
  const verdicts = new Map<string, Promise<Verdict>>();
  let next = 0;
  files.forEach((f, i) => {
    const v = known[i];
    if (v !== undefined) {
      verdicts.set(f.path, Promise.resolve(v));
      return;
    }
    const answer = answers[next++] ?? Promise.resolve(undefined);
    const remember = (a: Verdict) => {
      cache?.set(keys[i]!, a);
      return a;
    };
    verdicts.set(f.path, cache ? answer.then(remember) : answer);
  });
  return { verdicts, asked: checker ? toAsk.length : 0 };
}

/** With --no-cpython nothing about the interpreter is known; the listed points still are. */
function withoutInterpreter(
  python: string | undefined,
  wiring: { wiredPoints?: readonly string[]; wiredBy?: string },
): RuleEnvironment {
  return {
    python: python ?? 'python3',
    resolves: () => undefined,
    wiredPoints: new Set(wiring.wiredPoints),
    ...(wiring.wiredBy ? { wiredBy: wiring.wiredBy } : {}),
  };
}
