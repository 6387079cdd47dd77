// Starting the host process: where hooksmith_host.py lives, the environment it gets, and the
// errors that mean Python itself cannot run (the only ones PythonHost.invoke rejects with).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pyenvTarget } from '../cpython/pyenv';
import { defaultCacheDir } from '../cpython/verdict-cache';
import { LineSplitter } from './line-splitter';
import { killTree } from '../cpython/process-tree';
import type { DebugListen } from './host-state';
import type { HelloInfo } from './protocol';

export class PythonHostError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'start-failed' | 'too-old' | 'no-debugger',
  ) {
    super(message);
    this.name = 'PythonHostError';
  }
}

const HOST_FILE = 'hooksmith_host.py';

/** dist/python/ beside the bundle (build.mjs copies it there), or runtime/host/python/ from source. */
/** A hook that allocates more fails with MemoryError (its crash) instead of swapping the machine. */
export const DEFAULT_MEMORY_LIMIT_MB = 4096;

/** HOOKSMITH_MEMORY_LIMIT_MB (the CLI's --memory-limit sets it) when it is a whole number, else the default. */
function memoryLimitFromEnv(): number {
  const v = process.env.HOOKSMITH_MEMORY_LIMIT_MB;
  return v && /^\d{1,7}$/.test(v) ? Number(v) : DEFAULT_MEMORY_LIMIT_MB;
}

export function locateHostScript(): string {
  const candidates = [
    join(__dirname, 'python', HOST_FILE),
    join(__dirname, '..', 'python', HOST_FILE),
    join(__dirname, '..', 'runtime', 'host', 'python', HOST_FILE),
    join(__dirname, '..', '..', 'runtime', 'host', 'python', HOST_FILE),
  ];
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new PythonHostError(
      `Hooksmith's Python host (${HOST_FILE}) was not found near ${__dirname}`,
      'start-failed',
    );
  return found;
}

/**
 * Where the host's interpreter keeps bytecode: under Hooksmith's cache (PYTHONPYCACHEPREFIX,
 * Python ≥ 3.8), never in a `__pycache__` beside the user's sources, and kept between starts, so an
 * engine package without shipped `.pyc` files (cayu 0.15: ~4 s of its import) is compiled once,
 * not at every host start (an inherited PYTHONDONTWRITEBYTECODE is dropped then: nothing lands
 * in a source tree either way). No cache dir (or HOOKSMITH_NO_CACHE): no bytecode is written at all.
 */
export function bytecodeEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const dir = env.HOOKSMITH_NO_CACHE ? undefined : defaultCacheDir(env);
  return dir ? { PYTHONPYCACHEPREFIX: join(dir, 'pycache') } : { PYTHONDONTWRITEBYTECODE: '1' };
}

export interface SpawnOptions {
  python: string;
  /** The interpreter a previous hello named: started directly. */
  resolvedPython?: string;
  hostScript?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  debug?: DebugListen;
  memoryLimitMb?: number;
}

/** Spawns `python -u hooksmith_host.py` in its own process group, not keeping Node alive by itself. */
function spawnHost(o: SpawnOptions): ChildProcessWithoutNullStreams {
  const script = o.hostScript ?? locateHostScript();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...o.env,
    PYTHONUNBUFFERED: '1',
    PYTHONIOENCODING: 'utf-8',
    ...bytecodeEnv({ ...process.env, ...o.env }),
    HOOKSMITH_MEMORY_LIMIT_MB: String(o.memoryLimitMb ?? memoryLimitFromEnv()),
    ...(o.debug ? { HOOKSMITH_DEBUG_LISTEN: o.debug.address, PYDEVD_DISABLE_FILE_VALIDATION: '1' } : {}),
  };
  // The prefix keeps bytecode out of every source tree already; a PYTHONDONTWRITEBYTECODE
  // inherited from the shell would only make each start compile the engine again.
  if (env.PYTHONPYCACHEPREFIX) delete env.PYTHONDONTWRITEBYTECODE;
  // A pyenv shim's interpreter, started directly (no bash in between), with its bin directory first
  // on PATH as `pyenv exec` would put it.
  const shimTarget = o.resolvedPython ? undefined : pyenvTarget(o.python, { env, cwd: o.cwd });
  if (shimTarget) env.PATH = `${dirname(shimTarget)}${delimiter}${env.PATH ?? ''}`;
  // Frozen stdlib modules can make debugpy miss breakpoints (Python ≥ 3.11; older ones ignore -X).
  const args = o.debug ? ['-X', 'frozen_modules=off', '-u', script] : ['-u', script];
  const child = spawn(o.resolvedPython ?? shimTarget ?? o.python, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true, // its own process group: a kill takes the hook's children too
    windowsHide: true,
    cwd: o.cwd,
    env,
  });
  // A debug run has no deadline timer to keep Node alive while the host waits for the debugger.
  if (!o.debug) {
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr] as unknown as { unref?: () => void }[])
      s.unref?.();
  }
  child.stdin.on('error', () => undefined); // EPIPE after a crash: the exit handler reports it
  return child;
}

/** Let the host (and its pipes) keep Node alive, as a debug run's host does. */
export function keepAlive(child: ChildProcessWithoutNullStreams): void {
  child.ref();
  for (const s of [child.stdin, child.stdout, child.stderr] as unknown as { ref?: () => void }[]) s.ref?.();
}

export interface LaunchOptions extends SpawnOptions {
  startTimeoutMs: number;
  /** Longest protocol line accepted from the host. */
  maxLineBytes: number;
}

/** Where a launched host's output and exit go (the hello answer is consumed by launch). */
export interface LaunchHandlers {
  onSpawn(child: ChildProcessWithoutNullStreams): void;
  onLine(line: string): void;
  onOversized(head: string, bytes: number): void;
  onStderr(line: string): void;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
  /** The last stderr lines, for start errors. */
  tail(): string;
}

const MAX_STDERR_LINE = 4096;

/** The host's start-up handshake: settles once, with the hello or the PythonHostError saying why not. */
class StartHandshake {
  private waiting = true;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly o: LaunchOptions,
    private readonly h: LaunchHandlers,
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly resolve: (info: HelloInfo) => void,
    private readonly reject: (e: PythonHostError) => void,
  ) {
    this.timer = setTimeout(
      () =>
        this.fail(
          new PythonHostError(
            `${o.python} did not answer within ${o.startTimeoutMs / 1000} s of starting (the host's start-up handshake)${h.tail()}`,
            'start-failed',
          ),
        ),
      o.startTimeoutMs,
    );
  }

  fail(e: PythonHostError): void {
    clearTimeout(this.timer);
    if (!this.waiting) return;
    this.waiting = false;
    if (this.child.pid !== undefined && this.child.exitCode === null) killTree(this.child.pid);
    this.reject(e);
  }

  /** A line of the host's stdout: the debugger's address and the hello are taken here, the rest passed on. */
  onLine(line: string): void {
    const debug = this.o.debug;
    if (this.waiting && debug && line.includes('"debug-listening"')) {
      clearTimeout(this.timer); // from now on the host waits for the user's debugger, for as long as it takes
      const msg = JSON.parse(line) as { address?: string };
      return debug.onListening?.(String(msg.address));
    }
    if (this.waiting && line.includes('"hello"')) {
      try {
        const msg = JSON.parse(line) as HelloInfo & { status?: string };
        if (msg.status === 'hello') return this.onHello(msg);
      } catch {
        // not the hello: the handler logs it
      }
    }
    this.h.onLine(line);
  }

  private onHello(info: HelloInfo): void {
    const problem = helloProblem(info);
    if (problem) return this.fail(problem);
    clearTimeout(this.timer);
    this.waiting = false;
    this.resolve(info);
  }
}

/** Why a host that said hello cannot serve: no debugger when one was asked for, or a Python before 3.9. */
function helloProblem(info: HelloInfo): PythonHostError | undefined {
  if (info.debugError) return new PythonHostError(info.debugError, 'no-debugger');
  const [major, minor] = info.python.split('.').map(Number);
  if (major < 3 || (major === 3 && minor < 9))
    return new PythonHostError(
      `Python ${info.python} is too old: Hooksmith needs Python ≥ 3.9 (set --python or hooksmith.pythonPath)`,
      'too-old',
    );
  return undefined;
}

function spawnError(python: string, e: NodeJS.ErrnoException): PythonHostError {
  return e.code === 'ENOENT'
    ? new PythonHostError(`${python} not found — set --python or hooksmith.pythonPath`, 'not-found')
    : new PythonHostError(`cannot start ${python}: ${e.message}`, 'start-failed');
}

/** Spawns the host and waits for its hello; rejects with PythonHostError when Python cannot serve. */
export function launch(o: LaunchOptions, h: LaunchHandlers): Promise<{ info: HelloInfo; ms: number }> {
  const t0 = performance.now();
  const child = spawnHost(o);
  h.onSpawn(child);
  return new Promise((resolve, reject) => {
    const start = new StartHandshake(
      o,
      h,
      child,
      (info) => resolve({ info, ms: performance.now() - t0 }),
      reject,
    );
    const out = new LineSplitter(o.maxLineBytes, (line) => start.onLine(line), h.onOversized);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    const err = new LineSplitter(MAX_STDERR_LINE, h.onStderr, (head, bytes) =>
      h.onStderr(`${head}… (${bytes} bytes)`),
    );
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.once('error', (e: NodeJS.ErrnoException) => start.fail(spawnError(o.python, e)));
    child.once('exit', (code, signal) => {
      start.fail(
        new PythonHostError(
          `${o.python} exited (${signal ?? code}) before the host answered${h.tail()}`,
          'start-failed',
        ),
      );
      h.onExit(code, signal);
    });
    child.stdin.write(JSON.stringify({ id: 0, op: 'hello' }) + '\n');
  });
}
