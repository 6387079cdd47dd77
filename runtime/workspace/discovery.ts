// Which files are hook modules, and which agent each belongs to.
//
// Mantle (the loader's rule): an agent root is a folder holding `hooks.py` or `hooks/`;
// its hook modules are `hooks.py` and `hooks/**/*.py`, `__init__.py` and `__pycache__`
// excluded. Cayu: any Python file defining a `RuntimeHook` subclass — discovery only
// pre-filters by text (`RuntimeHook` appears); the analysis confirms by parsing.
//
// The file system is reached through `DiscoveryFs` so the language server can answer
// from its own document cache; `nodeFs` is the disk.
import * as fs from 'node:fs';
import { openRegularFile } from './regular-file';
import * as path from 'node:path';
import { textMayDefineRuntimeHook } from '../python/hooks';

export interface DiscoveryFs {
  /** 'file', 'dir', or undefined when the path does not exist (symlinks followed). */
  kind(p: string): 'file' | 'dir' | undefined;
  /**
   * A directory's entries with their kinds (`kind` follows symlinks; `symlink` says whether it is
   * one). Throws when the directory cannot be read: discovery reports it.
   */
  entries(dir: string): DirEntry[];
  /** The first bytes of a file as latin1 text, for the cheap Cayu pre-filter ('' when unreadable). */
  head(file: string): string;
}

export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | undefined;
  symlink: boolean;
}

export interface Agent {
  /** Absolute path of the agent root (or of the searched folder for loose Cayu files). */
  root: string;
  /** Absolute paths of the Mantle hook modules, sorted. */
  mantleModules: string[];
  /** Absolute paths of Python files that may define a RuntimeHook subclass (to be confirmed by parsing). */
  cayuModules: string[];
  /** When set, report diagnostics only for these files (a single file was asked for). */
  report?: string[];
}

/** A path discovery could not look into, and why. */
export interface Unreadable {
  path: string;
  reason: string;
}

export interface Discovery {
  agents: Agent[];
  /** Paths that do not exist, as given. */
  missing: string[];
  /** PATHs that are neither a file nor a folder (a FIFO, a symlink loop), as given, and why. */
  unusable: Unreadable[];
  /** Folders that could not be read: hook modules there are not checked. */
  unreadable: Unreadable[];
  /** Set when discovery stopped after looking at this many files and folders (MAX_ENTRIES). */
  capped?: number;
}

/** Folders never searched: VCS, dependencies, virtual environments, caches. */
const SKIP_DIRS = new Set(['node_modules', '__pycache__', 'site-packages', 'venv', 'env', 'dist', 'build']);
/** The kernel's and the system's folders, never searched (`/` given as a root must not walk them). */
const SYSTEM_DIRS = new Set(['/proc', '/sys', '/dev', '/run']);
const MAX_DEPTH = 25;
/** Files and folders one discovery looks at before it stops (and says so). */
export const MAX_ENTRIES = 100_000;
/** The Cayu pre-filter (the hook query's textMayDefineRuntimeHook) reads a file's first HEAD_BYTES. */
export const HEAD_BYTES = 256 * 1024;

/** Whether a file's first bytes (as latin1 text) mark it as a Cayu candidate. */
export function isCayuCandidate(head: string): boolean {
  return textMayDefineRuntimeHook(head);
}

/** `name` inside the folder `dir` (an absolute, normalised path), as path.join would give it. */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

export function isSkippedDir(name: string): boolean {
  return name.startsWith('.') || SKIP_DIRS.has(name);
}

/**
 * One discovery's view of the file system: each question asked once (a discovery asks for the
 * same kinds and listings several times), folders it could not read and its bound recorded.
 */
class Walk {
  readonly unreadable: Unreadable[] = [];
  capped = false;
  private seen = 0;
  private readonly kinds = new Map<string, 'file' | 'dir' | undefined>();
  private readonly listed = new Map<string, DirEntry[]>();

  constructor(
    readonly fs: DiscoveryFs,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  kind(p: string): 'file' | 'dir' | undefined {
    if (!this.kinds.has(p)) this.kinds.set(p, this.fs.kind(p));
    return this.kinds.get(p);
  }

  head(file: string): string {
    return this.fs.head(file);
  }

  /** A folder's entries sorted by name; none for a system folder, an unreadable one or past the bound. */
  entries(dir: string): DirEntry[] {
    let found = this.listed.get(dir);
    if (found) return found;
    found = [];
    if (!SYSTEM_DIRS.has(dir) && !this.capped) {
      try {
        found = this.fs.entries(dir).sort(byName);
      } catch (err) {
        // A folder removed while we walk is simply gone; any other failure hides its files.
        if (!gone(err)) this.unreadable.push({ path: dir, reason: reasonOf(err) });
      }
      this.seen += found.length;
      if (this.seen > this.maxEntries) {
        this.capped = true;
        found = [];
      }
    }
    this.listed.set(dir, found);
    for (const e of found) if (!e.symlink) this.kinds.set(childPath(dir, e.name), e.kind);
    return found;
  }
}

const asWalk = (f: DiscoveryFs | Walk): Walk => (f instanceof Walk ? f : new Walk(f));

const gone = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

/** Why a file system call failed, in words (the errno's meaning, else the message). */
function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const known: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ELOOP: 'a loop of symbolic links',
    EIO: 'input/output error',
  };
  return (code && known[code]) ?? (err instanceof Error ? err.message : String(err));
}

export function isAgentRoot(dir: string, f: DiscoveryFs | Walk): boolean {
  return f.kind(childPath(dir, 'hooks.py')) === 'file' || f.kind(childPath(dir, 'hooks')) === 'dir';
}

/** Whether `file` is a Mantle hook module of the agent at `root` (the loader's rule; pure). */
export function isMantleModulePath(root: string, file: string): boolean {
  return isMantleModuleRel(path.relative(root, file).split(path.sep));
}

/** The loader's rule on a path's segments relative to the agent root. */
function isMantleModuleRel(rel: readonly string[]): boolean {
  if (rel.length === 1) return rel[0] === 'hooks.py';
  if (rel[0] !== 'hooks') return false;
  const name = rel[rel.length - 1]!;
  if (!name.endsWith('.py') || name === '__init__.py') return false;
  return !rel.slice(1, -1).some((seg) => seg === '__pycache__' || seg.startsWith('.'));
}

/** The agent root a file belongs to: the nearest folder above it holding hooks.py or hooks/. */
export function findAgentRoot(file: string, f: DiscoveryFs | Walk): string | undefined {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (isAgentRoot(dir, f)) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

const byName = (a: DirEntry, b: DirEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Python files below `dir` (search skips dependencies, venvs, dot-folders and symlinked folders). */
function pythonFiles(dir: string, f: Walk, depth = 0, stopAtRoots = false): string[] {
  if (depth > MAX_DEPTH) return [];
  const out: string[] = [];
  for (const { name, kind, symlink } of f.entries(dir)) {
    const p = childPath(dir, name);
    if (kind === 'dir') {
      if (isSkippedDir(name) || symlink || f.kind(childPath(p, 'pyvenv.cfg')) === 'file') continue;
      if (stopAtRoots && isAgentRoot(p, f)) continue;
      out.push(...pythonFiles(p, f, depth + 1, stopAtRoots));
    } else if (kind === 'file' && name.endsWith('.py')) {
      out.push(p);
    }
  }
  return out;
}

function mantleModules(root: string, f: Walk): string[] {
  const out: string[] = [];
  const hooksPy = childPath(root, 'hooks.py');
  if (f.kind(hooksPy) === 'file') out.push(hooksPy);
  const hooksDir = childPath(root, 'hooks');
  if (f.kind(hooksDir) === 'dir') {
    // The walk's paths all start with hooksDir: their segments below the root, without path.relative.
    const below = root.length + (root.endsWith(path.sep) ? 0 : 1);
    out.push(...pythonFiles(hooksDir, f).filter((p) => isMantleModuleRel(p.slice(below).split(path.sep))));
  }
  return out.sort();
}

/** The Cayu pre-filter: `RuntimeHook` in the file's first bytes. */
function cayuCandidate(file: string, f: Walk): boolean {
  return isCayuCandidate(f.head(file));
}

/** An agent at `root`: its Mantle modules and Cayu candidates (nested agent roots excluded). */
export function agentAt(root: string, fs: DiscoveryFs | Walk): Agent {
  const f = asWalk(fs);
  const mantle = mantleModules(root, f);
  const cayu = pythonFiles(root, f, 0, true).filter((p) => cayuCandidate(p, f));
  return { root, mantleModules: mantle, cayuModules: cayu };
}

/**
 * Agent roots at or below `dir`. An agent folder may hold other agents (a repository whose
 * root is an agent with more agents in subfolders): the search goes on below a root, except
 * into its `hooks/` folder, whose files all belong to that root by the loader's rule.
 */
function findAgentRoots(dir: string, f: Walk, depth = 0): string[] {
  const isRoot = isAgentRoot(dir, f);
  const out: string[] = isRoot ? [dir] : [];
  if (depth > MAX_DEPTH) return out;
  for (const { name, kind, symlink } of f.entries(dir)) {
    if (isRoot && name === 'hooks') continue;
    if (isSkippedDir(name) || kind !== 'dir' || symlink) continue;
    const p = childPath(dir, name);
    if (f.kind(childPath(p, 'pyvenv.cfg')) === 'file') continue;
    out.push(...findAgentRoots(p, f, depth + 1));
  }
  return out;
}

/** Agents for one PATH: an agent root, a folder holding agent roots, or a single file. */
export function discoverPath(given: string, fs: DiscoveryFs | Walk): Agent[] | undefined {
  const f = asWalk(fs);
  const abs = path.resolve(given);
  const kind = f.kind(abs);
  if (kind === undefined) return undefined;
  if (kind === 'file') {
    const root = findAgentRoot(abs, f);
    if (root) return [{ ...agentAt(root, f), report: [abs] }];
    return [{ root: path.dirname(abs), mantleModules: [], cayuModules: [abs], report: [abs] }];
  }
  const roots = findAgentRoots(abs, f);
  const agents = roots.map((r) => agentAt(r, f));
  if (!isAgentRoot(abs, f)) {
    // Cayu files outside every agent root still get checked, grouped under the searched folder.
    const loose = pythonFiles(abs, f, 0, true).filter((p) => cayuCandidate(p, f));
    if (loose.length) agents.push({ root: abs, mantleModules: [], cayuModules: loose });
  }
  return agents;
}

/**
 * Discovers every PATH; the same agent found twice is merged (report lists united). Stops after
 * looking at `maxEntries` files and folders (Discovery.capped).
 */
export function discover(
  paths: readonly string[],
  system: DiscoveryFs = nodeFs,
  maxEntries = MAX_ENTRIES,
): Discovery {
  const f = new Walk(system, maxEntries);
  const byRoot = new Map<string, Agent>();
  const missing: string[] = [];
  const unusable: Unreadable[] = [];
  for (const given of paths) {
    const agents = discoverPath(given, f);
    if (!agents) {
      const why = system === nodeFs ? pathProblem(given) : undefined;
      if (why) unusable.push({ path: given, reason: why });
      else missing.push(given);
      continue;
    }
    for (const a of agents) {
      const prev = byRoot.get(a.root);
      if (!prev) {
        byRoot.set(a.root, a);
        continue;
      }
      const cayu = [...new Set([...prev.cayuModules, ...a.cayuModules])].sort();
      const report = prev.report && a.report ? [...new Set([...prev.report, ...a.report])] : undefined;
      byRoot.set(a.root, { root: a.root, mantleModules: prev.mantleModules, cayuModules: cayu, report });
    }
  }
  return {
    agents: [...byRoot.values()],
    missing,
    unusable,
    unreadable: f.unreadable,
    ...(f.capped ? { capped: maxEntries } : {}),
  };
}

/** Why a PATH on disk that is neither a file nor a folder cannot be checked; undefined when it does not exist. */
function pathProblem(given: string): string | undefined {
  try {
    const st = fs.statSync(given);
    return st.isFile() || st.isDirectory()
      ? undefined
      : 'not a regular file or folder (a FIFO, socket or device)';
  } catch (err) {
    return gone(err) ? undefined : reasonOf(err);
  }
}

let headBuffer: Buffer | undefined;

export const nodeFs: DiscoveryFs = {
  kind(p) {
    try {
      const s = fs.statSync(p);
      return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  },
  head(file) {
    let fd: number | undefined;
    try {
      fd = openRegularFile(file); // never a FIFO or device: opening one may block for good
      // One buffer for every file: a fresh zero-filled 256 KiB per file dominated discovery.
      headBuffer ??= Buffer.allocUnsafe(HEAD_BYTES);
      const buf = headBuffer;
      const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
      return buf.toString('latin1', 0, n);
    } catch {
      return '';
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  },
  entries(dir) {
    return fs.readdirSync(dir, { withFileTypes: true }).map((d) => {
      if (d.isDirectory()) return { name: d.name, kind: 'dir', symlink: false };
      if (d.isFile()) return { name: d.name, kind: 'file', symlink: false };
      // A symlink (followed for its kind) or an unusual entry: ask stat.
      return { name: d.name, kind: nodeFs.kind(childPath(dir, d.name)), symlink: d.isSymbolicLink() };
    });
  },
};
