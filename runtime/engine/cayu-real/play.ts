// Real-engine mode: a scenario played by the installed Cayu runtime in the Python host (one
// `invoke` of kind cayu-real: one CayuApp, one session, `run` then `resume` per turn). The host's
// deadline covers the whole scenario, so a hook that blocks the loop past Hooksmith's safety stop
// gets the host killed and restarted (the result says so), as in the emulation.
import * as path from 'node:path';
import type { SimulationResult, TimelineEvent } from '../api';
import type { HostPort } from '../host-port';
import { RunInputError } from '../run-hook';
import type { Scenario } from '../scenario-schema';
import type { AgentHooks } from '../agent-hooks';
import { turnScenario, userMessages } from '../scenario-turns';
import { realSpec } from './scenario-spec';
import type { SessionRecord } from './session-record';
import { simulationFromRecord } from './timeline';

/**
 * The runtime's own time allowed per tool call: cayu 0.3 spent ~3.5 ms a call on 10,000 calls in
 * the #44 run, over 13 ms on this machine under load (#44 item 15).
 */
const RUNTIME_MS_PER_CALL = 25;

/**
 * The runtime's fixed allowance (its start, the session): 30 s. HOOKSMITH_TEST_CAYU_REAL_SLACK_MS
 * replaces it for tests only (docs/development.md), so an overrun of the deadline takes seconds.
 */
function runtimeSlackMs(): number {
  const v = Number(process.env.HOOKSMITH_TEST_CAYU_REAL_SLACK_MS);
  return process.env.HOOKSMITH_TEST_CAYU_REAL_SLACK_MS && Number.isFinite(v) && v >= 0 ? v : 30_000;
}

/**
 * The whole scenario's deadline: the scripted time (latencies), one safety stop, 30 s and a share
 * per tool call for the runtime's own work. A hook has its own stop: the host's for one that awaits
 * forever, PythonHost's (hookTimeoutMs) for one that blocks the loop, so neither waits for this.
 */
function deadlineMs(sc: Scenario, safetyStopMs: number): number {
  const turns = sc.turns ? sc.turns.map((t) => turnScenario(sc, t)) : [sc];
  const scripted = turns.reduce(
    (n, t) =>
      n +
      t.completions.reduce((m, c) => m + c.latency_ms, 0) +
      Object.values(t.tools).reduce((m, tool) => m + tool.latency_ms * t.completions.length, 0),
    0,
  );
  const calls = turns.reduce((n, t) => n + t.completions.reduce((m, c) => m + c.tool_calls.length, 0), 0);
  return safetyStopMs + scripted + runtimeSlackMs() + RUNTIME_MS_PER_CALL * calls;
}

/** The scripted latencies the runtime waited for: each completion's, each tool call's tool's. */
function scriptedMs(turns: Scenario[]): number {
  return turns.reduce(
    (n, t) =>
      n +
      t.completions.reduce(
        (m, c) =>
          m + c.latency_ms + c.tool_calls.reduce((k, tc) => k + (t.tools[tc.tool_name]?.latency_ms ?? 0), 0),
        0,
      ),
    0,
  );
}

/**
 * The scenario's verdict when a hook took the host down (killed at the safety stop, or the process
 * ended): no runtime event survives it, so this one stands for the hook, and fails the run as the
 * emulation's killed hook does (`no_crashes`, exit 1). The host cannot say which hook it was.
 */
function hostLost(outcome: 'timed-out' | 'crashed', why: string, timeoutMs: number): TimelineEvent {
  return {
    seq: 1,
    point: 'cayu_runtime',
    lane: 'phase',
    hook: 'a Cayu hook',
    outcome,
    timeoutMs,
    before: {},
    after: null,
    signal: null,
    error: {
      type: outcome === 'crashed' ? 'HostExit' : 'SafetyStop',
      message: why,
      traceback: [],
      formatted: '',
    },
    effect: why,
    wired: true,
    context: 'turn',
    notes: ['the Python host was lost while the runtime played: the runtime recorded nothing after it'],
  };
}

function unfinished(
  sc: Scenario,
  source: string,
  root: string,
  why: string,
  lost?: TimelineEvent,
): SimulationResult {
  return {
    scenario: source,
    events: lost ? [lost] : [],
    transcript: [{ role: 'engine', text: why }],
    tools: [],
    status: 'error',
    agentRoot: root,
    ending: why,
    ...(sc.turns ? { turns: [] } : {}),
    playedBy: 'the installed cayu runtime',
  };
}

export async function playCayuReal(
  host: HostPort,
  hooks: AgentHooks,
  sc: Scenario,
  source: string,
  safetyStopMs: number,
): Promise<SimulationResult | { unavailable: string }> {
  const spec = realSpec(sc, hooks, safetyStopMs);
  const timeoutMs = deadlineMs(sc, safetyStopMs);
  const fact = await host.invoke({
    agentRoot: hooks.root,
    file: spec.hooks[0]?.file ?? path.join(hooks.root, '__hooksmith_no_hooks__.py'),
    engine: 'cayu-real',
    function: 'play',
    payload: spec,
    timeoutMs,
    hookTimeoutMs: safetyStopMs,
  });
  if (fact.kind === 'load-error')
    throw new RunInputError(
      'load',
      `the agent's Cayu hooks failed to load: ${fact.error.type}: ${fact.error.message}`,
      fact.error.formatted ? [fact.error.formatted] : [],
      [],
      fact.error,
    );
  if (fact.kind === 'timed-out' && fact.runtime)
    return {
      ...unfinished(
        sc,
        source,
        hooks.root,
        `the installed cayu runtime's own work took longer than Hooksmith allows this scenario (${Math.round(timeoutMs / 1000)} s): no hook ran past its safety stop${fact.hard ? '; the Python host was restarted' : ''}`,
      ),
      engineUnfinished: `the cayu runtime did not finish the scenario within ${Math.round(timeoutMs / 1000)} s`,
    };
  if (fact.kind === 'timed-out') {
    const why = `a hook never returned: Hooksmith's safety stop (${safetyStopMs / 1000} s) ended the scenario${fact.hard ? '; it blocked the event loop, so the Python host was killed and restarted' : ''}`;
    return unfinished(sc, source, hooks.root, why, hostLost('timed-out', why, safetyStopMs));
  }
  if (fact.kind === 'crashed') {
    const why = `the Python host died while the runtime played: ${fact.message}`;
    return unfinished(sc, source, hooks.root, why, hostLost('crashed', why, safetyStopMs));
  }
  if (fact.kind === 'raised')
    return {
      ...unfinished(
        sc,
        source,
        hooks.root,
        `the installed cayu runtime did not play the scenario: its driver failed: ${fact.error.type}: ${fact.error.message}`,
      ),
      internalError: fact.error.message,
    };
  if (fact.value.kind !== 'cayu-session')
    throw new Error(`the host answered a real-engine scenario with ${fact.value.kind}`);
  const unavailable = (fact.value.data as { unavailable?: string }).unavailable;
  if (unavailable !== undefined) return { unavailable };
  const turns = sc.turns ? sc.turns.map((t) => turnScenario(sc, t)) : [sc];
  // With the ids the driver gave them (the runtime's transcript keeps results by id).
  const calls = spec.turns.map((t) =>
    t.completions.flatMap((c) => c.tool_calls as { id: string; tool_name: string; tool_args: unknown }[]),
  );
  const result = simulationFromRecord(
    fact.value.data as SessionRecord,
    calls,
    turns.map((t) => userMessages(t.user)),
    source,
    hooks.root,
    safetyStopMs,
    sc.turns !== undefined,
  );
  // The scenario's wall time in the host (the runtime's own time included), as the emulation reports its turn's.
  return { ...result, durationMs: Math.round(fact.durationMs * 10) / 10, scriptedMs: scriptedMs(turns) };
}
