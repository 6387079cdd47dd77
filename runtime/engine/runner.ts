// The one entry point the extension and the CLI use: a hook runner keeping ONE warm Python
// host for every run and simulation until disposed.
import { PythonHost } from '../host/python-host';
import type { HookRunnerOptions, RunRequest, RunResult, SimulationResult } from './api';
import { hostPort, type RawHost } from './host-adapter';
import { oneApp, type HostPort } from './host-port';
import { formatDiagnostic, ModuleChecker, refusing } from './module-check';
import type { HookTarget } from './hook-locator';
import { invokeHook, runHook, RunInputError } from './run-hook';
import { loadScenario, ScenarioError, type LoadedScenario } from './scenario-load';
import { AgentHooksCache } from './agent-hooks';
import { needsModel, SimModels, type ModelRunOptions } from './model-step';
import { PythonEnvironment, type EngineFacts } from '../cpython/environment';
import { WIRED_POINTS_OPTION, type WiringSource } from '../catalogue/wiring';
import { MANTLE_LINE_ENV } from '../catalogue/api-lines';
import { activeCayuLine, CAYU_LINE_ENV } from '../catalogue/cayu-lines';
import { cayuEngine, singleCallPlayedBy, type CayuEngine } from './engine-mode';
import { mantleCalls, playScenario, type ScenarioRequest } from './players';
import { cayuSafetyStopMs } from './cayu-safety-stop';
import { mantleEngine } from './mantle-engine';

export interface HookRunner {
  run(req: RunRequest): Promise<RunResult>;
  /** A scenario file (YAML/JSON), or a scenario object (its agent resolved from `baseDir`). */
  simulate(scenario: string | object, baseDir?: string): Promise<SimulationResult>;
  /** A scenario already read and validated (a test case: read once, when it was found). */
  simulateLoaded(loaded: LoadedScenario): Promise<SimulationResult>;
  /**
   * Invokes a hook already checked and located, on an input already validated (fuzzing: the
   * module is checked once, not per payload). Call `endRuns` when the batch is done: the calls
   * until then are one app (the first imports the agent's modules; they share them).
   */
  invoke(
    file: string,
    agentRoot: string,
    target: HookTarget,
    input: Record<string, unknown>,
  ): Promise<RunResult>;
  /** What `run` does after each run: end the host when the hooks left processes behind. */
  endRuns(): void;
  /** The Cayu safety stop this runner gives a phase now (ms): its budget, as `invoke` applies it. */
  safetyStopMs(): number;
  /** A model is given for every scenario (--model): Mantle files with simulation_context can play. */
  readonly modelGiven: boolean;
  dispose(): Promise<void>;
}

/** Who plays Cayu phases: whether the host imports the real cayu, and the mode the run's options give. */
export interface CayuChoice {
  installed?: () => Promise<boolean>;
  /** Read at each run (the editor's setting may change between runs); engine-mode.ts cayuEngine. */
  engine?: () => string | undefined;
  /** The safety stop in seconds, read at each run; cayu-safety-stop.ts cayuSafetyStopMs. */
  safetyStopS?: () => number | undefined;
}

/** Who plays Mantle hook calls: whether the host imports rasa.mantle.hooks, and the mode the run's options give. */
export interface MantleChoice {
  installed?: () => Promise<boolean>;
  /** Read at each call (the editor's setting may change between runs); mantle-engine.ts mantleEngine. */
  engine?: () => string | undefined;
}

export function createHookRunnerWithHost(
  host: HostPort,
  workspaceRoots: () => readonly string[] = () => [],
  wiring?: () => Promise<WiringSource | undefined>,
  models: ModelRunOptions = {},
  cayu: CayuChoice = {},
  mantle: MantleChoice = {},
): HookRunner {
  /** Whether the host's interpreter imports the real cayu (real-engine mode needs it). */
  const realCayu = cayu.installed ?? (async () => false);
  const mode = (): CayuEngine => cayuEngine(cayu.engine?.());
  const mantleMode = () => mantleEngine(mantle.engine?.());
  const stopMs = () => cayuSafetyStopMs(cayu.safetyStopS?.());
  const checker = new ModuleChecker();
  const agents = new AgentHooksCache();
  const installed = { cayu: realCayu, mantle: mantle.installed ?? (async () => false) };
  // One call (run, fuzz): the Mantle player routes it (players.ts); a scenario's calls, playScenario.
  const calls = mantleCalls(host, installed, mantleMode);
  // invoke's calls until endRuns are one app (a fuzz batch), as a scenario's are.
  let batch = oneApp(calls);
  /** A Cayu phase call names who played it (the emulation, and why: engine-mode.ts SINGLE_CALL). */
  const named = async (r: RunResult): Promise<RunResult> =>
    r.engine === 'cayu'
      ? { ...r, playedBy: singleCallPlayedBy(await realCayu().catch(() => false), mode()) }
      : r;
  async function simulateLoaded(loaded: LoadedScenario): Promise<SimulationResult> {
    // Asked now (it may start a process), awaited only by a player that reads it.
    const wired = wiring?.().catch(() => undefined);
    const safetyStopMs = stopMs();
    const hooks = await playableHooks(agents, loaded.agentRoot, safetyStopMs);
    const played = SimModels.of(loaded.scenario, loaded.source, loaded.agentRoot, models);
    if (loaded.scenario.user_simulation && !played)
      throw new ScenarioError(`${loaded.source}: ${needsModel(models.audience)}`);
    const req: ScenarioRequest = {
      host,
      hooks,
      scenario: loaded.scenario,
      source: loaded.source,
      safetyStopMs,
      cayuEngine: mode(),
      mantleEngine: mantleMode(),
      wiring: async () => wired,
      ...(played ? { models: played } : {}),
    };
    const result = playScenario(req, installed);
    return result.finally(() => host.endRun?.());
  }
  return {
    run: (req) =>
      runHook({ host: calls, checker, safetyStopMs: stopMs(), ...(wiring ? { wiring } : {}) }, req)
        .then(named)
        .finally(() => host.endRun?.()),
    simulate: async (scenario, baseDir) =>
      simulateLoaded(loadScenario(scenario, baseDir, workspaceRoots(), !!models.model, models.audience)),
    modelGiven: !!models.model,
    simulateLoaded,
    invoke: async (file, agentRoot, target, input) =>
      named(
        await invokeHook(
          batch,
          file,
          agentRoot,
          withStop(target, stopMs()),
          input,
          await wiring?.().catch(() => undefined),
        ),
      ),
    safetyStopMs: stopMs,
    endRuns() {
      host.endRun?.();
      batch = oneApp(calls);
    },
    dispose: () => host.dispose(),
  };
}

/** A located Cayu phase takes the run's safety stop as its budget (hook-locator.ts). */
function withStop(target: HookTarget, safetyStopMs: number): HookTarget {
  return target.engine === 'cayu' ? { ...target, timeoutMs: safetyStopMs } : target;
}

/** The agent's hooks, each Cayu phase budgeted `safetyStopMs`; refused when the engine would reject the agent. */
async function playableHooks(agents: AgentHooksCache, agentRoot: string, safetyStopMs: number) {
  const hooks = await agents.get(agentRoot, safetyStopMs);
  const refused = refusing(hooks.errors);
  if (refused.length) {
    throw new RunInputError(
      'check',
      `the agent at ${agentRoot} has ${refused.length} error(s) the engine rejects at train/load time; fix them first`,
      refused.map((d) => formatDiagnostic(d)),
      refused,
    );
  }
  return hooks;
}

/**
 * How long past its budget a call may go before the host is killed, when coverage.py traces:
 * the tracer slows every line the host runs, and with many calls in flight (1,000 observers of
 * one point) that overhead alone outran the usual 250 ms, so an innocent hook was blamed and the
 * host restarted (#44 item 5). The budget verdict (timed out, over budget) is still the host's own.
 */
const COVERAGE_GRACE_MS = 10_000;

export function createHookRunner(options: HookRunnerOptions = {}): HookRunner {
  const raw = new PythonHost({
    python: options.python,
    log: options.log,
    debug: options.debug,
    ...(options.coverage ? { graceMs: COVERAGE_GRACE_MS } : {}),
    ...(options.memoryLimitMb !== undefined ? { memoryLimitMb: options.memoryLimitMb } : {}),
    env: {
      ...(options.mantleLine ? { [MANTLE_LINE_ENV]: options.mantleLine } : {}),
      // The Cayu line this process selected (selectEngineLine): the host's shim serves its modules.
      ...(activeCayuLine() ? { [CAYU_LINE_ENV]: activeCayuLine()!.id } : {}),
      ...(options.coverage ? { HOOKSMITH_COVERAGE: '1' } : {}),
    },
  });
  const sink = options.coverage;
  const measured = sink ? withCoverage(raw, sink) : raw;
  const facts = installedFacts(options);
  // The host's own hello says whether its interpreter (with its PYTHONPATH) imports the real cayu.
  const realCayu = async () => (await raw.start()).realCayu === true;
  const realMantle = async () => (await raw.start()).realMantle === true;
  return createHookRunnerWithHost(
    hostPort(measured),
    options.workspaceRoots,
    installedWiring(options, facts),
    options.models,
    {
      installed: realCayu,
      ...(options.cayuEngine ? { engine: options.cayuEngine } : {}),
      ...(options.cayuSafetyStopS ? { safetyStopS: options.cayuSafetyStopS } : {}),
    },
    { installed: realMantle, ...(options.mantleEngine ? { engine: options.mantleEngine } : {}) },
  );
}

/** Hands each answer's coverage to `sink` before the engine reads the answer. */
function withCoverage(raw: PythonHost, sink: NonNullable<HookRunnerOptions['coverage']>): RawHost {
  return {
    invoke: async (req) => {
      const answer = await raw.invoke(req);
      if (answer.coverage) sink(answer.coverage, req.agentRoot);
      return answer;
    },
    endRun: () => raw.endRun(),
    dispose: () => raw.dispose(),
  };
}

/** What the selected interpreter has installed (asked once, remembered on disk as the server and check do). */
function installedFacts(options: HookRunnerOptions): () => Promise<EngineFacts | undefined> {
  let facts: Promise<EngineFacts | undefined> | undefined;
  return () =>
    (facts ??= PythonEnvironment.withDefaultCache(
      { ...(options.python ? { python: options.python } : {}) },
      !process.env.HOOKSMITH_NO_CACHE,
    )
      .engine()
      .catch(() => undefined));
}

/** Runner options for the points the CLI's --wired-points lists (none given: the installed rasa-pro decides). */
export function listedWiring(
  points: readonly string[] | undefined,
): Pick<HookRunnerOptions, 'wiredPoints' | 'wiredBy'> {
  return points ? { wiredPoints: () => points, wiredBy: WIRED_POINTS_OPTION } : {};
}

/**
 * Whether the engine invokes each point, as the not-wired rule is told: the setting, else the
 * rasa-pro installed for this interpreter (asked once, remembered on disk as the server and check do).
 */
function installedWiring(
  options: HookRunnerOptions,
  facts: () => Promise<EngineFacts | undefined>,
): () => Promise<WiringSource | undefined> {
  return async () => {
    const points = options.wiredPoints?.();
    if (points)
      return { wiredPoints: new Set(points), ...(options.wiredBy ? { wiredBy: options.wiredBy } : {}) };
    const engine = await facts();
    return engine ? { engine } : undefined;
  };
}
