// A pyenv shim runs bash (pyenv exec → version-name → which) before Python even starts, on
// every start (see bench/README.md). When `python3` on PATH is a pyenv shim, this finds the
// interpreter the shim would exec, by pyenv's own rules, so we can start it directly:
//   1. PYENV_VERSION, else the first `.python-version` from $PYENV_DIR (or the current directory)
//      up to /, else $PYENV_ROOT/version;
//   2. its versions (one per word, ':'-separated in PYENV_VERSION) in order, the first with an
//      executable $PYENV_ROOT/versions/<version>/bin/<command>.
// Anything this does not follow exactly — "system", a version prefix pyenv would expand ("3.12"),
// a version that is not installed, a shim of another shape — gives undefined, and the caller runs
// the shim as before: slower, never different. (pyenv's `which` hooks, such as pyenv-virtualenv's,
// act only when that executable is missing, which is exactly when we step aside.)
import { accessSync, closeSync, constants, readSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { isDirectory, isFile, openRegularFile } from '../workspace/regular-file';

export interface PyenvContext {
  env?: NodeJS.ProcessEnv;
  /** Where pyenv would look for `.python-version` (the child's working directory). */
  cwd?: string;
}

/** The interpreter a pyenv shim for `command` would run, or undefined (not a shim, or unsure). */
export function pyenvTarget(command: string, ctx: PyenvContext = {}): string | undefined {
  if (process.platform === 'win32') return undefined;
  const env = ctx.env ?? process.env;
  const cwd = ctx.cwd ?? process.cwd();
  const found = command.includes('/') ? resolve(cwd, command) : findOnPath(command, env.PATH ?? '');
  if (!found) return undefined;
  const root = shimRoot(found);
  if (!root) return undefined;
  const name = found.slice(found.lastIndexOf('/') + 1);
  const versions = selectedVersions(root, env, cwd);
  if (!versions) return undefined;
  for (const version of versions) {
    if (!safeVersion(version)) return undefined;
    const candidate = join(root, 'versions', version, 'bin', name);
    if (isExecutable(candidate)) return candidate;
    // Not installed under that exact name: pyenv may expand a prefix or fail; let it.
    if (!isDirectory(join(root, 'versions', version))) return undefined;
  }
  return undefined;
}

/** The executable file `command` names on PATH (absolute directories only; `.exe` first on Windows). */
export function findOnPath(command: string, path = process.env.PATH ?? ''): string | undefined {
  const names = process.platform === 'win32' ? [`${command}.exe`, command] : [command];
  for (const dir of path.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const name of names) {
      const p = join(dir, name);
      if (isExecutable(p)) return p;
    }
  }
  return undefined;
}

/** PYENV_ROOT baked into a pyenv shim script (`export PYENV_ROOT="…"` then `… exec "$program"`). */
function shimRoot(file: string): string | undefined {
  if (!dirname(file).endsWith(`${sep}shims`)) return undefined;
  const head = readHead(file, 1024);
  if (!head?.startsWith('#!') || !/exec "[^"\n]*\/pyenv" exec "\$program"/.test(head)) return undefined;
  const m = /^export PYENV_ROOT="([^"\n$`\\]+)"$/m.exec(head);
  return m && isAbsolute(m[1] as string) ? (m[1] as string) : undefined;
}

function selectedVersions(root: string, env: NodeJS.ProcessEnv, cwd: string): string[] | undefined {
  if (env.PYENV_VERSION) return env.PYENV_VERSION.split(':').filter(Boolean);
  const file =
    localVersionFile(env.PYENV_DIR || cwd) ??
    (env.PYENV_DIR && env.PYENV_DIR !== cwd ? localVersionFile(cwd) : undefined);
  const versions = readVersionFile(file ?? join(root, 'version'));
  // No file or an empty one means "system": the shim's business.
  return versions?.length ? versions : undefined;
}

function localVersionFile(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const f = join(dir, '.python-version');
    if (isFile(f)) return f;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** pyenv version-file-read: the first word of each line, skipping blank lines and # comments. */
function readVersionFile(file: string): string[] | undefined {
  const text = readHead(file, 64 * 1024);
  if (text === undefined) return undefined;
  const versions: string[] = [];
  for (const line of text.split(/\r?\n|\r/)) {
    const word = line.trim().split(/\s+/)[0];
    if (word && !word.startsWith('#')) versions.push(word);
  }
  return versions;
}

/** "system" and anything that could leave $PYENV_ROOT/versions are not ours to resolve. */
function safeVersion(v: string): boolean {
  return v !== 'system' && v !== '..' && v !== '.' && !v.includes('/') && !v.includes('\0');
}

function readHead(file: string, bytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openRegularFile(file); // a FIFO named .python-version must not block
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.toString('utf8', 0, n);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The interpreter to spawn for `command`: what its pyenv shim would run, else the command. */
export function directInterpreter(command: string, ctx: PyenvContext = {}): string {
  return pyenvTarget(command, ctx) ?? command;
}

/**
 * Spawn options that put an interpreter in a process group of its own (POSIX), so that
 * killInterpreter ends what it started too: a wrapper script's `sleep` would otherwise keep the
 * pipes open and this process waiting.
 */
export const OWN_GROUP = process.platform === 'win32' ? {} : { detached: true };

/** Kills an interpreter started with OWN_GROUP and everything in its process group. */
export function killInterpreter(child: { pid?: number; kill(signal?: NodeJS.Signals): boolean }): void {
  if (process.platform !== 'win32' && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
      return;
    } catch {
      // the group is gone: the process alone
    }
  }
  child.kill('SIGKILL');
}
