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
import * as path from 'node:path';

export interface DiscoveryFs {
  /** 'file', 'dir', or undefined when the path does not exist (symlinks followed). */
  kind(p: string): 'file' | 'dir' | undefined;
  /** Entry names of a directory (empty when unreadable). */
  list(dir: string): string[];
  /** The first bytes of a file as latin1 text, for the cheap Cayu pre-filter ('' when unreadable). */
  head(file: string): string;
  /**
   * Optional: the Cayu pre-filter answered directly (isCayuCandidate of head(file)), for a file
   * system that holds the bytes and can search them without making a string of each file.
   */
  cayuCandidate?(file: string): boolean;
  /** A symlinked directory (not followed when searching, to avoid loops). */
  isSymlink(p: string): boolean;
  /**
   * Optional: a directory's entries with their kinds in one call (readdir with file types),
   * sparing a stat per entry. `kind` follows symlinks; `symlink` says whether it is one.
   */
  entries?(dir: string): DirEntry[];
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

export interface Discovery {
  agents: Agent[];
  /** Paths that do not exist, as given. */
  missing: string[];
}

/** Folders never searched: VCS, dependencies, virtual environments, caches. */
const SKIP_DIRS = new Set(['node_modules', '__pycache__', 'site-packages', 'venv', 'env', 'dist', 'build']);
const MAX_DEPTH = 25;
/** `RuntimeHook` as a word in a file's first HEAD_BYTES marks a Cayu candidate. */
const CAYU_WORD = 'RuntimeHook';
const CAYU_MARK = new RegExp(`\\b${CAYU_WORD}\\b`);
export const HEAD_BYTES = 256 * 1024;

/** Whether a file's first bytes (as latin1 text) mark it as a Cayu candidate. */
export function isCayuCandidate(head: string): boolean {
  return CAYU_MARK.test(head);
}

/** A byte that `\w` matches in latin1 text: [A-Za-z0-9_]. */
function isWordByte(b: number | undefined): boolean {
  return (
    b !== undefined &&
    ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f)
  );
}

/** isCayuCandidate of the latin1 text of `bytes`' first HEAD_BYTES, searched in the bytes. */
export function bytesAreCayuCandidate(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEAD_BYTES));
  for (let at = buf.indexOf(CAYU_WORD, 0, 'latin1'); at >= 0; at = buf.indexOf(CAYU_WORD, at + 1, 'latin1')) {
    if (!isWordByte(buf[at - 1]) && !isWordByte(buf[at + CAYU_WORD.length])) return true;
  }
  return false;
}

/** `name` inside the folder `dir` (an absolute, normalised path), as path.join would give it. */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

export function isSkippedDir(name: string): boolean {
  return name.startsWith('.') || SKIP_DIRS.has(name);
}

export function isAgentRoot(dir: string, f: DiscoveryFs): boolean {
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
export function findAgentRoot(file: string, f: DiscoveryFs): string | undefined {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (isAgentRoot(dir, f)) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

const byName = (a: DirEntry, b: DirEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A directory's entries sorted by name, through `entries` when the file system has it. */
function entriesOf(dir: string, f: DiscoveryFs): DirEntry[] {
  if (f.entries) return f.entries(dir).sort(byName);
  return f
    .list(dir)
    .sort()
    .map((name) => {
      const p = childPath(dir, name);
      const kind = f.kind(p);
      return { name, kind, symlink: kind === 'dir' && f.isSymlink(p) };
    });
}

/** Python files below `dir` (search skips dependencies, venvs, dot-folders and symlinked folders). */
function pythonFiles(dir: string, f: DiscoveryFs, depth = 0, stopAtRoots = false): string[] {
  if (depth > MAX_DEPTH) return [];
  const out: string[] = [];
  for (const { name, kind, symlink } of entriesOf(dir, f)) {
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

function mantleModules(root: string, f: DiscoveryFs): string[] {
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

/** The Cayu pre-filter through the file system (see DiscoveryFs.cayuCandidate). */
function cayuCandidate(file: string, f: DiscoveryFs): boolean {
  return f.cayuCandidate ? f.cayuCandidate(file) : isCayuCandidate(f.head(file));
}

/** An agent at `root`: its Mantle modules and Cayu candidates (nested agent roots excluded). */
export function agentAt(root: string, f: DiscoveryFs): Agent {
  const mantle = mantleModules(root, f);
  const cayu = pythonFiles(root, f, 0, true).filter((p) => cayuCandidate(p, f));
  return { root, mantleModules: mantle, cayuModules: cayu };
}

/**
 * Agent roots at or below `dir`. An agent folder may hold other agents (a repository whose
 * root is an agent with more agents in subfolders): the search goes on below a root, except
 * into its `hooks/` folder, whose files all belong to that root by the loader's rule.
 */
export function findAgentRoots(dir: string, f: DiscoveryFs, depth = 0): string[] {
  const isRoot = isAgentRoot(dir, f);
  const out: string[] = isRoot ? [dir] : [];
  if (depth > MAX_DEPTH) return out;
  for (const { name, kind, symlink } of entriesOf(dir, f)) {
    if (isRoot && name === 'hooks') continue;
    if (isSkippedDir(name) || kind !== 'dir' || symlink) continue;
    const p = childPath(dir, name);
    if (f.kind(childPath(p, 'pyvenv.cfg')) === 'file') continue;
    out.push(...findAgentRoots(p, f, depth + 1));
  }
  return out;
}

/** Agents for one PATH: an agent root, a folder holding agent roots, or a single file. */
export function discoverPath(given: string, f: DiscoveryFs): Agent[] | undefined {
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
 * The same file system, answering each question once: one discovery asks for the same kinds and
 * listings several times (agent roots, then each agent's Mantle and Cayu walks).
 */
function memoized(f: DiscoveryFs): DiscoveryFs {
  const kinds = new Map<string, 'file' | 'dir' | undefined>();
  const listed = new Map<string, DirEntry[]>();
  return {
    kind(p) {
      if (!kinds.has(p)) kinds.set(p, f.kind(p));
      return kinds.get(p);
    },
    list: (dir) => f.list(dir),
    head: (file) => f.head(file),
    ...(f.cayuCandidate ? { cayuCandidate: (file: string) => f.cayuCandidate!(file) } : {}),
    isSymlink: (p) => f.isSymlink(p),
    entries(dir) {
      let e = listed.get(dir);
      if (!e) {
        e = entriesOf(dir, f);
        listed.set(dir, e);
        for (const x of e) if (!x.symlink) kinds.set(childPath(dir, x.name), x.kind);
      }
      return [...e];
    },
  };
}

/** Discovers every PATH; the same agent found twice is merged (report lists united). */
export function discover(paths: readonly string[], system: DiscoveryFs = nodeFs): Discovery {
  const f = memoized(system);
  const byRoot = new Map<string, Agent>();
  const missing: string[] = [];
  for (const given of paths) {
    const agents = discoverPath(given, f);
    if (!agents) {
      missing.push(given);
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
  return { agents: [...byRoot.values()], missing };
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
  list(dir) {
    try {
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  },
  head(file) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(file, 'r');
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
  isSymlink(p) {
    try {
      return fs.lstatSync(p).isSymbolicLink();
    } catch {
      return false;
    }
  },
  entries(dir) {
    let found: fs.Dirent[];
    try {
      found = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    return found.map((d) => {
      if (d.isDirectory()) return { name: d.name, kind: 'dir', symlink: false };
      if (d.isFile()) return { name: d.name, kind: 'file', symlink: false };
      // A symlink (followed for its kind) or an unusual entry: ask stat.
      return { name: d.name, kind: nodeFs.kind(childPath(dir, d.name)), symlink: d.isSymbolicLink() };
    });
  },
};
