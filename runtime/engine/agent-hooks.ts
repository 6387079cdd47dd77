// The hooks of a whole agent, as the simulator fires them: Mantle hooks by point and lane
// (one modify hook per point — a second is a check error), Cayu phase methods by phase.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyseAgent, parseModule } from '../analysis';
import { catalogueGeneration, type CayuLineId, type CayuPhaseId, type PointId } from '../catalogue';
import type { HookDiagnostic } from '../rules/diagnostics';
import { agentAt, nodeFs } from '../workspace/discovery';
import { initParser } from '../python/parser';
import { hooksOf, type HookTarget } from './hook-locator';
import { cayuLineOfImports } from './cayu-line-of-module';
import { ScenarioError } from './scenario-load';

export interface AgentHook {
  file: string;
  agentRoot: string;
  target: HookTarget;
  /** "hooks/tool_hooks.py::guard_orders" (relative to the agent root). */
  label: string;
  /** Its place among the agent's hooks: files in path order, each file's hooks in source order. */
  order?: number;
}

export interface AgentHooks {
  root: string;
  observe: Map<PointId, AgentHook[]>;
  modify: Map<PointId, AgentHook>;
  cayu: Map<CayuPhaseId, AgentHook[]>;
  /** The agent defines at least one RuntimeHook subclass (Cayu phases appear in the timeline). */
  hasCayu: boolean;
  /**
   * The Cayu line the first hook module that names one imports the hook API from (unguarded), and
   * that module: what the emulation follows when no line is chosen and no cayu is installed.
   */
  cayuLineOfImports?: { line: CayuLineId; file: string };
  diagnostics: HookDiagnostic[];
  errors: HookDiagnostic[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The files that can hold a hook of the agent (Mantle modules and Cayu candidates). */
export function agentFiles(root: string): string[] {
  const agent = agentAt(path.resolve(root), nodeFs);
  return [...new Set([...agent.mantleModules, ...agent.cayuModules])].sort();
}

/**
 * A cheap change stamp: size and mtime of the known hook files, and the mtime of their folders,
 * the root and hooks/ (a file added or removed there changes its folder's mtime). Re-discovering
 * the whole tree on every run costs more than a simulated turn.
 */
export function filesStamp(root: string, files: readonly string[]): string {
  const dirs = new Set([root, path.join(root, 'hooks'), ...files.map((f) => path.dirname(f))]);
  // A change of Mantle API line changes what the same text means (its decorators' names).
  return [
    `line:${catalogueGeneration()}`,
    ...[...dirs, ...files].map((f) => {
      const st = fs.statSync(f, { throwIfNoEntry: false });
      return `${f}:${st?.size}:${st?.mtimeMs}`;
    }),
  ].join('|');
}

/** Caches loadAgentHooks per agent root until one of its hook files changes. */
export class AgentHooksCache {
  private cache = new Map<
    string,
    { files: string[]; stamp: string; safetyStopMs: number | undefined; hooks: AgentHooks }
  >();

  /** `safetyStopMs`: the run's Cayu safety stop (a changed one reloads: it is each phase's budget). */
  async get(root: string, safetyStopMs?: number): Promise<AgentHooks> {
    const abs = path.resolve(root);
    if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) return loadAgentHooks(abs, safetyStopMs);
    const hit = this.cache.get(abs);
    if (hit && hit.safetyStopMs === safetyStopMs && hit.stamp === filesStamp(abs, hit.files))
      return hit.hooks;
    const files = agentFiles(abs);
    const stamp = filesStamp(abs, files);
    const hooks = await loadAgentHooks(abs, safetyStopMs);
    this.cache.set(abs, { files, stamp, safetyStopMs, hooks });
    return hooks;
  }
}

/** Discovers, checks (in process: analyseAgent) and indexes the hooks of the agent at `root`. */
export async function loadAgentHooks(root: string, safetyStopMs?: number): Promise<AgentHooks> {
  const abs = path.resolve(root);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory())
    throw new ScenarioError(
      `agent root is not a folder: ${root} (set agent: in the scenario, relative to the scenario file)`,
    );
  await initParser();
  const agent = agentAt(abs, nodeFs);
  const diagnostics = analyseAgent(agent);
  const all = [...diagnostics.values()].flat();
  const out: AgentHooks = {
    root: abs,
    observe: new Map(),
    modify: new Map(),
    cayu: new Map(),
    hasCayu: false,
    diagnostics: all,
    errors: all.filter((d) => d.severity === 'error'),
  };
  const mantleFiles = new Set(agent.mantleModules);
  let order = 0;
  for (const file of [...new Set([...agent.mantleModules, ...agent.cayuModules])].sort()) {
    const module = parseModule(fs.readFileSync(file, 'utf8'), file);
    for (const target of hooksOf(module, safetyStopMs)) {
      const hook: AgentHook = {
        file,
        agentRoot: abs,
        target,
        label: `${path.relative(abs, file)}::${target.handler}`,
        order: order++,
      };
      if (target.engine === 'cayu') {
        out.hasCayu = true;
        const line = out.cayuLineOfImports ? undefined : cayuLineOfImports(module.imports);
        if (line) out.cayuLineOfImports = { line, file };
        push(out.cayu, target.phase, hook);
      } else if (mantleFiles.has(file)) {
        // Only the loader's files register Mantle hooks (hooks.py, hooks/**/*.py).
        if (target.lane === 'observe') push(out.observe, target.point.id, hook);
        else out.modify.set(target.point.id, hook);
      }
    }
  }
  return out;
}
