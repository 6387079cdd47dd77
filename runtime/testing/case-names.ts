// The names a scenario or payload case uses that the agent or the scenario does not have: a
// hook (`hook_outcome.hook`, `payload_after.hook`, `order`, a payload case's `hook:`), a point
// or phase, a tool (a scripted tool call, `tool_called`). The run would not fail on them, it
// would just never match, so they are warnings, each with the name likely meant.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CAYU_PHASE_IDS, findCayuPhase, findPoint, POINT_IDS } from '../catalogue';
import { parseModule } from '../analysis';
import { hooksOf } from '../engine/hook-locator';
import { agentFiles } from '../engine/agent-hooks';
import type { HookModule } from '../python/model';
import type { Scenario, ScenarioCompletion } from '../engine/scenario-schema';
import { nearestKey } from '../json/json-path';
import { hookIs } from './evaluate-scenario';
import type { KeyPath } from './source-lines';

/** One hook of the agent: "hooks/tool_hooks.py::guard_orders" (relative to the agent root). */
export interface AgentHookName {
  label: string;
  point: string;
}

export type NameKind = 'hook' | 'point' | 'tool';

export interface UnknownName {
  kind: NameKind;
  path: KeyPath;
  name: string;
  message: string;
  suggestion?: string;
  /** The value with the suggestion in place (a `point:hook` selector keeps its other part). */
  replacement?: string;
}

/** The hooks of `module` (at `file`) as scenarios name them; Mantle ones only from the loader's files. */
export function hookNamesOf(
  root: string,
  file: string,
  module: HookModule,
  mantleModule: boolean,
): AgentHookName[] {
  return hooksOf(module)
    .filter((t) => t.engine === 'cayu' || mantleModule)
    .map((t) => ({
      label: `${path.relative(root, file)}::${t.handler}`,
      point: t.engine === 'cayu' ? t.phase : t.point.id,
    }));
}

/** The hooks of the agent at `root`, read from disk (the CLI; the server uses its open buffers). */
export function agentHookNamesOnDisk(root: string, mantleModules: ReadonlySet<string>): AgentHookName[] {
  return agentFiles(root).flatMap((file) => {
    try {
      return hookNamesOf(
        root,
        file,
        parseModule(fs.readFileSync(file, 'utf8'), file),
        mantleModules.has(file),
      );
    } catch {
      return [];
    }
  });
}

const POINTS = [...POINT_IDS, ...CAYU_PHASE_IDS];
const isPoint = (name: string) => !!(findPoint(name) ?? findCayuPhase(name));
const handlerOf = (label: string) => label.slice(label.lastIndexOf('::') + 2);
const meant = (s: string | undefined) => (s ? ` (did you mean '${s}'?)` : '');

class Finder {
  readonly out: UnknownName[] = [];
  constructor(
    private readonly hooks: readonly AgentHookName[] | undefined,
    private readonly tools: ReadonlySet<string>,
  ) {}

  private add(
    kind: NameKind,
    path: KeyPath,
    name: string,
    known: readonly string[],
    what: string,
    put?: (s: string) => string,
  ) {
    const suggestion = nearestKey(name, known);
    const replacement = suggestion && (put ? put(suggestion) : suggestion);
    this.out.push({ kind, path, name, suggestion, replacement, message: `${what}${meant(suggestion)}` });
  }

  point(p: KeyPath, name: unknown, put?: (s: string) => string): void {
    if (typeof name !== 'string' || isPoint(name)) return;
    this.add('point', p, name, POINTS, `no point or phase '${name}'`, put);
  }

  hook(p: KeyPath, name: unknown, put?: (s: string) => string): void {
    // An agent with no hook known (not scanned, or none yet) is not judged.
    if (typeof name !== 'string' || !this.hooks?.length || this.hooks.some((h) => hookIs(name, h.label)))
      return;
    const names = this.hooks.map((h) => (name.includes('::') ? h.label : handlerOf(h.label)));
    this.add('hook', p, name, names, `no hook '${name}' in the agent`, put);
  }

  /** `tool_call`, `guard_orders` or `tool_call:guard_orders`. */
  selector(p: KeyPath, sel: unknown): void {
    if (typeof sel !== 'string') return;
    const colon = sel.indexOf(':');
    if (colon > 0 && sel[colon + 1] !== ':') {
      const [point, hook] = [sel.slice(0, colon), sel.slice(colon + 1)];
      this.point(p, point, (s) => `${s}:${hook}`);
      this.hook(p, hook, (s) => `${point}:${s}`);
    } else if (!isPoint(sel)) this.hook(p, sel);
  }

  tool(p: KeyPath, name: unknown): void {
    if (typeof name !== 'string' || this.tools.has(name)) return;
    this.add('tool', p, name, [...this.tools], `no tool '${name}' in this scenario's tools`);
  }

  /** An `expect:` block, or one goals assertion. */
  expectations(base: KeyPath, block: Record<string, unknown> | undefined): void {
    for (const [key, value] of Object.entries(block ?? {})) {
      const items = Array.isArray(value)
        ? value.map((v, i) => [v, [...base, key, i]] as const)
        : [[value, [...base, key]] as const];
      for (const [v, at] of items) {
        if (!v || typeof v !== 'object') continue;
        const o = v as Record<string, unknown>;
        if (key === 'tool_called' || key === 'tool_not_called') this.tool([...at, 'tool_name'], o.tool_name);
        if (key === 'hook_outcome' || key === 'payload_after') {
          this.point([...at, 'point'], o.point);
          this.hook([...at, 'hook'], o.hook);
        }
        if (key === 'order') {
          this.selector([...at, 'first'], o.first);
          this.selector([...at, 'then'], o.then);
        }
      }
    }
  }

  completions(base: KeyPath, list: readonly ScenarioCompletion[]): void {
    list.forEach((c, i) =>
      c.tool_calls.forEach((t, j) => this.tool([...base, i, 'tool_calls', j, 'tool_name'], t.tool_name)),
    );
  }
}

/** The unknown names of a validated scenario (paths as in the played scenario). */
export function unknownScenarioNames(
  sc: Scenario,
  hooks: readonly AgentHookName[] | undefined,
): UnknownName[] {
  const tools = new Set([
    ...Object.keys(sc.tools),
    ...(sc.turns ?? []).flatMap((t) => Object.keys(t.tools ?? {})),
    ...(sc.knowledge ? [sc.knowledge.tool] : []),
  ]);
  const f = new Finder(hooks, tools);
  f.completions(['completions'], sc.completions);
  sc.turns?.forEach((t, i) => {
    f.completions(['turns', i, 'completions'], t.completions);
    f.expectations(['turns', i, 'expect'], t.expect);
  });
  f.expectations(['expect'], sc.expect);
  sc.goals?.assertions.forEach((a, i) => f.expectations(['goals', 'assertions', i], a));
  return f.out;
}

/** A payload case's `hook: FILE::HANDLER` that is no hook of the agent. */
export function unknownPayloadHook(hook: string, hooks: readonly AgentHookName[] | undefined): UnknownName[] {
  const f = new Finder(hooks, new Set());
  f.hook(['hook'], hook);
  return f.out;
}
