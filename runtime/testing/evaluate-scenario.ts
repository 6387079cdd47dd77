// A scenario's expectations (`expect:` or `goals.assertions`) checked against the played turn;
// a conversation's `turns[i].expect` against that turn alone (its checks named `turn N: …`).
import type { SimulationResult, TimelineEvent } from '../engine/api';
import { FAILED_OUTCOMES } from './outcomes';
import { samePointName } from '../catalogue';
import type { ExpectationResult } from './cases';
import { stringifyJson } from '../json/lossless-json';
import type {
  HookExpectation,
  OrderExpectation,
  PayloadExpectation,
  ScenarioExpect,
  TextMatch,
  ToolExpectation,
} from '../engine/expect-schema';
import { CHECKED_KEYS, ENGINE_ONLY_KEYS } from '../engine/expect-schema';
import { asList, describeText, subsetMismatch, textFailures } from './match';
import type { KeyPath, SourceLines } from './source-lines';
import type { Scenario } from '../engine/scenario-schema';
import { turnView } from '../engine/scenario-turns';

type Check = Omit<ExpectationResult, 'path' | 'line'>;
const json = (v: unknown) => stringifyJson(v);

/** The bot text the user saw: bot lines joined by a newline. */
export function botText(sim: SimulationResult): string {
  return sim.transcript
    .filter((t) => t.role === 'bot')
    .map((t) => t.text)
    .join('\n');
}

/** `tool_call`, `guard_orders`, `hooks/tool_hooks.py::guard_orders`, `tool_call:guard_orders`. */
export function selects(selector: string, e: TimelineEvent): boolean {
  const colon = selector.indexOf(':');
  if (colon > 0 && selector[colon + 1] !== ':') {
    return samePointName(e.point, selector.slice(0, colon)) && hookIs(selector.slice(colon + 1), e.hook);
  }
  return samePointName(e.point, selector) || hookIs(selector, e.hook);
}

/** Whether a hook name of a scenario (`guard`, `Class.method`, `FILE::HANDLER`) names the hook labelled `label`. */
export function hookIs(name: string, label: string | undefined): boolean {
  if (!label) return false;
  if (label === name) return true;
  const handler = label.slice(label.lastIndexOf('::') + 2);
  return handler === name || handler.endsWith(`.${name}`) || (name.includes('.') && handler === name);
}

function eventsAt(
  sim: SimulationResult,
  point: string | undefined,
  hook: string | undefined,
): TimelineEvent[] {
  return sim.events.filter(
    (e) =>
      (point === undefined || samePointName(e.point, point)) &&
      (hook !== undefined ? hookIs(hook, e.hook) : point === undefined || e.lane !== 'observe'),
  );
}

const where = (x: { point?: string; hook?: string }) =>
  [x.point, x.hook].filter(Boolean).join(' ') || 'any hook';

function transcript(m: TextMatch | 'snapshot' | { snapshot: string }, sim: SimulationResult): Check {
  const text = botText(sim);
  if (m === 'snapshot' || 'snapshot' in m) {
    const recorded = m === 'snapshot' ? undefined : m.snapshot;
    return {
      name: 'transcript snapshot',
      passed: recorded === text,
      expected: recorded ?? '(no snapshot recorded: run hooksmith test --update)',
      actual: text,
      observed: text,
    };
  }
  const failures = textFailures(m, text);
  return { name: 'transcript', passed: !failures.length, expected: describeText(m), actual: text };
}

function agentMessage(m: TextMatch, sim: SimulationResult): Check {
  const lines = sim.transcript.filter((t) => t.role === 'bot').map((t) => t.text);
  return {
    name: 'agent_message',
    passed: lines.some((l) => !textFailures(m, l).length),
    expected: `a bot message that ${describeText(m)}`,
    actual: lines.length ? lines.map((l) => json(l)).join('\n') : '(no bot message)',
  };
}

/** Cayu's final output: the last assistant message with text (cayu/evals/trajectory.py:1522). */
function finalMessage(m: TextMatch, sim: SimulationResult): Check {
  const last = sim.transcript.filter((t) => t.role === 'bot' && t.text).at(-1)?.text;
  return {
    name: 'final_message',
    passed: last !== undefined && !textFailures(m, last).length,
    expected: `the last bot message ${describeText(m)}`,
    actual: last === undefined ? '(no bot message)' : last,
  };
}

function ranTools(sim: SimulationResult, t: ToolExpectation) {
  return (sim.tools ?? []).filter(
    (r) => r.tool_name === t.tool_name && (!t.arguments || !subsetMismatch(t.arguments, r.arguments)),
  );
}

function describeRuns(sim: SimulationResult): string {
  const runs = sim.tools ?? [];
  return runs.length ? runs.map((r) => `${r.tool_name}(${json(r.arguments)})`).join(', ') : '(no tool ran)';
}

function toolCalled(t: ToolExpectation, sim: SimulationResult, negate: boolean): Check {
  const hits = ranTools(sim, t);
  const what = `${t.tool_name}${t.arguments ? ` with ${json(t.arguments)}` : ''}`;
  return {
    name: `${negate ? 'tool_not_called' : 'tool_called'} ${t.tool_name}`,
    passed: negate ? hits.length === 0 : hits.length > 0,
    expected: negate ? `${what} does not run` : `${what} runs`,
    actual: `ran: ${describeRuns(sim)}`,
  };
}

function hookOutcome(h: HookExpectation, sim: SimulationResult): Check {
  const runs = eventsAt(sim, h.point, h.hook).filter((e) => e.hook);
  return {
    name: `hook_outcome ${where(h)}`,
    passed: runs.some((e) => e.outcome === h.outcome),
    expected: `${where(h)}: ${h.outcome}`,
    actual: runs.length
      ? runs.map((e) => `#${e.seq} ${e.hook}: ${e.outcome}`).join('\n')
      : `no hook ran at ${where(h)}`,
  };
}

function payloadAfter(p: PayloadExpectation, sim: SimulationResult): Check {
  const runs = eventsAt(sim, p.point, p.hook).filter((e) => !p.where || !subsetMismatch(p.where, e.before));
  const name = `payload_after ${where(p)}`;
  if (!runs.length)
    return { name, passed: false, expected: `a payload at ${where(p)}`, actual: 'no matching event' };
  const expected = [
    p.fields ? `fields ${json(p.fields)}` : '',
    ...asList(p.not_contains).map((s) => `does not contain ${json(s)}`),
  ]
    .filter(Boolean)
    .join(' and ');
  for (const e of runs) {
    const after = e.after ?? e.before;
    const mismatch = p.fields ? subsetMismatch(p.fields, after) : null;
    const text = json(after) ?? '';
    const found = asList(p.not_contains).find((s) => text.includes(s));
    if (mismatch || found)
      return {
        name,
        passed: false,
        expected,
        actual: `#${e.seq} ${e.point}${e.hook ? ` ${e.hook}` : ''}: ${mismatch ? `differs at ${mismatch}` : `contains ${json(found)}`}\n${stringifyJson(after, 2)}`,
      };
  }
  return { name, passed: true, expected, actual: `${runs.length} matching payload(s)` };
}

function withinBudget(sim: SimulationResult): Check {
  const over = sim.events.filter(
    (e) =>
      e.outcome === 'timed-out' || e.overBudget === true || (e.durationMs ?? 0) > (e.timeoutMs ?? Infinity),
  );
  return {
    name: 'within_budget',
    passed: !over.length,
    expected: 'every hook within its budget',
    actual: over.length
      ? over
          .map((e) => `#${e.seq} ${e.hook}: ${e.durationMs} ms of ${e.timeoutMs} ms (${e.outcome})`)
          .join('\n')
      : 'all within budget',
  };
}

function noCrashes(sim: SimulationResult): Check {
  const bad = sim.events.filter((e) => e.outcome && FAILED_OUTCOMES.has(e.outcome));
  return {
    name: 'no_crashes',
    passed: !bad.length,
    expected: 'no hook crashed, timed out, returned an invalid value or raised an ignored signal',
    actual: bad.length
      ? bad
          .map(
            (e) =>
              `#${e.seq} ${e.point} ${e.hook}: ${e.outcome}${e.error ? ` (${e.error.type}: ${e.error.message})` : ''}`,
          )
          .join('\n')
      : 'none',
  };
}

function order(o: OrderExpectation, sim: SimulationResult): Check {
  const a = sim.events.find((e) => selects(o.first, e));
  const b = sim.events.find((e) => selects(o.then, e));
  const at = (e: TimelineEvent | undefined, s: string) =>
    e ? `${s} first at #${e.seq}` : `${s} never happens`;
  return {
    name: `order ${o.first} before ${o.then}`,
    passed: !!a && !!b && a.seq < b.seq,
    expected: `${o.first} before ${o.then}`,
    actual: `${at(a, o.first)}; ${at(b, o.then)}`,
  };
}

/** One key of an expect block → its checks (a list gives one check per item, with its index). */
function checksOf(key: keyof ScenarioExpect, value: unknown, sim: SimulationResult): [Check, number?][] {
  const each = <T>(f: (x: T) => Check): [Check, number?][] =>
    Array.isArray(value) ? value.map((v: T, i) => [f(v), i]) : [[f(value as T)]];
  switch (key) {
    case 'status':
      return [
        [
          {
            name: 'status',
            passed: sim.status === value,
            expected: String(value),
            actual: `${sim.status}${sim.ending ? ` (${sim.ending})` : ''}`,
          },
        ],
      ];
    case 'transcript':
      return [[transcript(value as TextMatch, sim)]];
    case 'agent_message':
      return [[agentMessage(value as TextMatch, sim)]];
    case 'final_message':
      return each<TextMatch>((m) => finalMessage(m, sim));
    case 'tool_called':
      return each<ToolExpectation>((t) => toolCalled(t, sim, false));
    case 'tool_not_called':
      return each<ToolExpectation>((t) => toolCalled(t, sim, true));
    case 'hook_outcome':
      return each<HookExpectation>((h) => hookOutcome(h, sim));
    case 'payload_after':
      return each<PayloadExpectation>((p) => payloadAfter(p, sim));
    case 'within_budget':
      return value ? [[withinBudget(sim)]] : [];
    case 'no_crashes':
      return value ? [[noCrashes(sim)]] : [];
    case 'order':
      return each<OrderExpectation>((o) => order(o, sim));
  }
}

export const NOT_CHECKED = 'not checked by hooksmith (needs the Mantle engine)';

/** A goals assertion Hooksmith cannot check in a hook simulation: reported, never passed. */
export function notChecked(key: string, value: unknown): Check & { skipped: string } {
  const o = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const what = ENGINE_ONLY_KEYS.has(key)
    ? 'skill lifecycle events are recorded by the Mantle engine; a hook simulation has no skills'
    : `'${key}' is not a check Hooksmith makes in a hook simulation (ordered blocks, memory, flows, … need the Mantle engine's events)`;
  const id = typeof o.skill_id === 'string' ? ` ${o.skill_id}` : '';
  return {
    name: `${key}${id}`,
    passed: false,
    skipped: `${NOT_CHECKED}: ${what}`,
    expected: json(value),
    actual: '(not checked)',
  };
}

/** Every expectation of the scenario, in file order, with its line. */
export function evaluateScenario(
  sc: Scenario,
  sim: SimulationResult,
  lines: SourceLines,
): ExpectationResult[] {
  const out: ExpectationResult[] = [];
  const add = (block: Record<string, unknown>, base: KeyPath, view = sim, prefix = '') => {
    for (const [key, value] of Object.entries(block)) {
      if (value === undefined) continue;
      for (const [check, i] of checksOf(key as keyof ScenarioExpect, value, view)) {
        const path = i === undefined ? [...base, key] : [...base, key, i];
        out.push({ ...check, name: prefix + check.name, path, line: lines.lineOf(path) });
      }
    }
  };
  sc.turns?.forEach((turn, i) => {
    if (!turn.expect) return;
    const base = ['turns', i, 'expect'];
    const prefix = `turn ${i + 1}: `;
    if (sim.turns?.[i]) return add(turn.expect, base, turnView(sim, i + 1), prefix);
    out.push({
      name: `${prefix}played`,
      passed: false,
      expected: 'the turn is played',
      actual: `the conversation stopped before it (${sim.ending ?? sim.status})`,
      path: base,
      line: lines.lineOf(base),
    });
  });
  if (sc.expect) add(sc.expect, ['expect']);
  sc.goals?.assertions.forEach((a, i) => {
    const [key, value] = Object.entries(a)[0] ?? [];
    if (key !== undefined && !CHECKED_KEYS.has(key)) {
      const path = ['goals', 'assertions', i, key];
      out.push({ ...notChecked(key, value), path, line: lines.lineOf(path) });
    } else add(a, ['goals', 'assertions', i]);
  });
  sc.goals?.criteria.forEach((c, i) => {
    const path = ['goals', 'criteria', i];
    out.push({
      name: `criterion ${i + 1}`,
      passed: false,
      skipped: `${NOT_CHECKED}: an LLM judge scores criteria against a real conversation`,
      expected: c,
      actual: '(not checked)',
      path,
      line: lines.lineOf(path),
    });
  });
  return out;
}

/** Does the scenario carry any expectation? */
export function hasExpectations(sc: Scenario): boolean {
  return (
    !!sc.expect ||
    !!sc.turns?.some((t) => t.expect) ||
    !!sc.goals?.assertions.length ||
    !!sc.goals?.criteria.length
  );
}
