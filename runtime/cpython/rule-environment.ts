// The installed environment as rules see it (RuleContext.environment): where an import resolves —
// inside the agent (its root and lib/, as the engine loads hook modules; relative imports from the
// file's package) by looking at the files, elsewhere by the interpreter — and what the real engine
// modules export. Built by the server and `check` for a known interpreter only.
import { dirname, join } from 'node:path';
import { isDirectory as isDir, isFile } from '../workspace/regular-file';
import type { EngineFacts, PythonEnvironment } from './environment';

/** Walks `parts` under `dir`: packages (or namespace folders) then a module or package. */
function walk(dir: string, parts: readonly string[]): boolean {
  let at = dir;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (isDir(join(at, part))) at = join(at, part);
    else return last && (isFile(join(at, `${part}.py`)) || isFile(join(at, `${part}.pyi`)));
  }
  return true;
}

/** The folders an agent's modules are imported from: its root and lib/. */
function agentDirs(root: string): string[] {
  return [root, join(root, 'lib')];
}

const PROJECT_MARKS = ['pyproject.toml', 'setup.py', 'setup.cfg', '.git'];

/**
 * A file outside any agent (a Cayu module) imports from its own folder and, as under a test runner,
 * from each folder up to its project's root (the nearest one holding a project mark); only its own
 * folder when it has no project.
 */
function looseDirs(file: string): string[] {
  const dirs: string[] = [];
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    dirs.push(dir);
    if (PROJECT_MARKS.some((m) => exists(join(dir, m)))) return dirs;
    if (dirname(dir) === dir) return [dirname(file)];
  }
}

function exists(p: string): boolean {
  return isFile(p) || isDir(p);
}

/** What rules may ask of the user's installed environment (RuleContext.environment). */
export interface RuleEnvironment {
  /** The interpreter, for messages. */
  python: string;
  /** Whether `module` (dotted, maybe relative) imported from `file` can be found; undefined: not known yet. */
  resolves(module: string, file: string): boolean | undefined;
  /**
   * Whether the engine package itself is installed: its real package with its distribution
   * metadata (a bare `cayu/` folder on the import path is a namespace package, not the engine).
   * Undefined: not known yet.
   */
  engineInstalled?(pkg: 'rasa' | 'cayu'): boolean | undefined;
  /** What the real engine modules export and the installed versions, once read. */
  engine?: EngineFacts;
  /** Say when a shim stands in for rasa.mantle.hooks / cayu (the editor; `check --verbose`). */
  reportShimmed?: boolean;
  /** Mantle points the user says are invoked (hooksmith.mantle.wiredPoints). */
  wiredPoints?: ReadonlySet<string>;
  /** Who listed them (default: the setting). */
  wiredBy?: string;
}

/** True/false when the agent decides it (local name or relative import); undefined: ask the interpreter. */
export function resolveLocally(module: string, file: string, root: string | undefined): boolean | undefined {
  const dots = /^\.*/.exec(module)![0].length;
  const parts = module.slice(dots).split('.').filter(Boolean);
  if (dots) {
    let base = dirname(file);
    for (let i = 1; i < dots; i++) base = dirname(base);
    return walk(base, parts);
  }
  const top = parts[0]!;
  for (const dir of root ? agentDirs(root) : looseDirs(file)) {
    if (isDir(join(dir, top)) || isFile(join(dir, `${top}.py`))) return walk(dir, parts);
  }
  return undefined;
}

/** resolveLocally, or a cache of its answers (the language server's, see server/environment.ts). */
export type LocalResolver = (module: string, file: string, root: string | undefined) => boolean | undefined;

/**
 * resolveLocally with its answers kept, for one `check` run (the tree does not change under it):
 * the answer depends on the module and on the agent root (absolute imports) or the file's folder
 * (relative ones, or no root). Profiled on the bench's 1,000-file tree, the same imports probed
 * file by file were 15% of check's CPU in statSync.
 */
export function rememberedResolver(): LocalResolver {
  const answers = new Map<string, boolean | undefined>();
  return (module, file, root) => {
    const where = module.startsWith('.') || !root ? dirname(file) : `root:${root}`;
    const key = `${module}\0${where}`;
    if (answers.has(key)) return answers.get(key);
    const answer = resolveLocally(module, file, root);
    answers.set(key, answer);
    return answer;
  };
}

export interface RuleEnvironmentInput {
  env: PythonEnvironment;
  /** How agent-local imports are looked up (default: on disk each time). */
  local?: LocalResolver;
  rootOf(file: string): string | undefined;
  engine?: EngineFacts;
  /** hooksmith.mantle.wiredPoints: overrides what the installed version says. */
  wiredPoints?: readonly string[];
  /** Who listed them (default: the setting). */
  wiredBy?: string;
  reportShimmed?: boolean;
}

export function ruleEnvironment(input: RuleEnvironmentInput): RuleEnvironment {
  return {
    python: input.env.python,
    resolves(module, file) {
      const local = (input.local ?? resolveLocally)(module, file, input.rootOf(file));
      return local ?? input.env.known(module);
    },
    engineInstalled(pkg) {
      // The installed version is read from the distribution metadata; else the probe's answer for
      // the top-level name, which counts only a regular package that has its metadata.
      if (input.engine) return (pkg === 'rasa' ? input.engine.rasaPro : input.engine.cayu) !== null;
      return input.env.known(pkg);
    },
    ...(input.engine ? { engine: input.engine } : {}),
    ...(input.reportShimmed ? { reportShimmed: true } : {}),
    ...(input.wiredPoints ? { wiredPoints: new Set(input.wiredPoints) } : {}),
    ...(input.wiredPoints && input.wiredBy ? { wiredBy: input.wiredBy } : {}),
  };
}

/** The absolute module names of an import list that the agent does not decide (for one python3 run). */
export function interpreterImports(
  modules: readonly string[],
  file: string,
  root: string | undefined,
  local: LocalResolver = resolveLocally,
): string[] {
  const asked = modules.filter((m) => !m.startsWith('.') && local(m, file, root) === undefined);
  // The engine package itself, too: whether it is installed decides how its modules are judged.
  const engines = asked.map((m) => m.split('.', 1)[0]!).filter((t) => t === 'rasa' || t === 'cayu');
  return [...new Set([...asked, ...engines])];
}
