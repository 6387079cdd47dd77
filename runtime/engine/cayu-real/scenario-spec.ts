// A scenario in the terms the host's real driver (host/python/_hooksmith_host/cayu_real.py)
// plays it: the agent's RuntimeHook classes in registration order, each turn's completions, the
// mock tools. And what of a scenario only the emulation can play (the reason it says it played).
import * as path from 'node:path';
import type { Scenario } from '../scenario-schema';
import type { AgentHooks } from '../agent-hooks';
import { turnScenario, userMessages } from '../scenario-turns';
import { stringifyJson } from '../../json/lossless-json';
import { SAFE_EMPTY_RESULT_NOTE } from '../../catalogue';

export interface RealHook {
  file: string;
  className: string;
  scope: 'app' | 'agent';
  /** "runtime_hooks.py::Guard" (relative to the agent root): the timeline's hook label, with `.phase`. */
  label: string;
}

export interface RealSpec {
  hooks: RealHook[];
  /** Each turn's user messages: one run's (a resume's) input. */
  turns: { user: string[]; completions: Record<string, unknown>[] }[];
  tools: Record<string, Record<string, unknown>>;
  maxSteps: number;
  safetyStopMs: number;
}

/** Why the installed runtime cannot play this scenario (the emulation does), or undefined. */
export function emulationOnly(sc: Scenario, hooks: AgentHooks): string | undefined {
  if (hooks.observe.size || hooks.modify.size)
    return 'the agent also has Mantle hooks, which a Cayu runtime does not run';
  const turns = sc.turns ? sc.turns.map((t) => turnScenario(sc, t)) : [sc];
  if (turns.some((t) => t.completions.some((c) => c.quiet)))
    return 'quiet calls are a Mantle notion the Cayu runtime has no place for';
  if (turns.some((t) => t.interrupt))
    return '`interrupt:` needs the emulation (no barge-in is scripted for the runtime)';
  if (sc.fire_unwired) return '`fire_unwired:` names Mantle points';
  return undefined;
}

/**
 * The agent's hook classes: app scope in `cayu.app_hooks` order, then agent scope in file order and
 * each file's classes in source order (the order the user's code lists them, and the emulation's).
 */
export function realHooks(sc: Scenario, hooks: AgentHooks): RealHook[] {
  const classes = new Map<string, RealHook>();
  const inOrder = [...hooks.cayu.values()].flat().sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  for (const h of inOrder) {
    if (h.target.engine !== 'cayu') continue;
    const key = `${h.file}::${h.target.className}`;
    if (!classes.has(key))
      classes.set(key, {
        file: h.file,
        className: h.target.className,
        scope: 'agent',
        label: `${path.relative(hooks.root, h.file)}::${h.target.className}`,
      });
  }
  const all = [...classes.values()];
  const appNames = sc.cayu?.app_hooks ?? [];
  const app = appNames
    .flatMap((n) => all.filter((h) => h.className === n))
    .map((h) => ({ ...h, scope: 'app' as const }));
  return [...app, ...all.filter((h) => !appNames.includes(h.className))];
}

function completionsOf(sc: Scenario, turn: number): Record<string, unknown>[] {
  return sc.completions.map((c, i) => ({
    ...(c.text ? { text: c.text } : {}),
    ...(c.error !== undefined ? { error: c.error } : {}),
    latency_ms: c.latency_ms,
    tool_calls: c.tool_calls.map((tc, j) => ({
      id: tc.id ?? `call_${turn ? `t${turn}_` : ''}${i}_${j}`,
      tool_name: tc.tool_name,
      tool_args: tc.tool_args,
    })),
  }));
}

function toolsOf(sc: Scenario): Record<string, Record<string, unknown>> {
  const tools: Record<string, Record<string, unknown>> = {};
  for (const [name, t] of Object.entries(sc.tools)) tools[name] = { ...t };
  if (sc.knowledge) {
    const passages = sc.knowledge.passages ?? [];
    // The knowledge search's result as the engine serialises its passages.
    tools[sc.knowledge.tool] = {
      content: passages.length ? stringifyJson(passages) : SAFE_EMPTY_RESULT_NOTE,
      latency_ms: sc.knowledge.latency_ms ?? 0,
    };
  }
  return tools;
}

export function realSpec(sc: Scenario, hooks: AgentHooks, safetyStopMs: number): RealSpec {
  const turns = sc.turns
    ? sc.turns.map((t, i) => {
        const ts = turnScenario(sc, t);
        return { user: userMessages(ts.user), completions: completionsOf(ts, i + 1) };
      })
    : [{ user: userMessages(sc.user), completions: completionsOf(sc, 0) }];
  return {
    hooks: realHooks(sc, hooks),
    turns,
    tools: toolsOf(sc),
    maxSteps: sc.max_iterations,
    safetyStopMs,
  };
}
