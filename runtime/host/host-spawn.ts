// Starting the host process: where hooksmith_host.py lives, the environment it gets, and the
// errors that mean Python itself cannot run (the only ones PythonHost.invoke rejects with).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { pyenvTarget } from '../cpython/pyenv';

export class PythonHostError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'start-failed' | 'too-old',
  ) {
    super(message);
    this.name = 'PythonHostError';
  }
}

const HOST_FILE = 'hooksmith_host.py';

/** dist/python/ beside the bundle (build.mjs copies it there), or runtime/host/python/ from source. */
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

export interface SpawnOptions {
  python: string;
  /** The interpreter a previous hello named: started directly. */
  resolvedPython?: string;
  hostScript?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Spawns `python -u hooksmith_host.py` in its own process group, not keeping Node alive by itself. */
export function spawnHost(o: SpawnOptions): ChildProcessWithoutNullStreams {
  const script = o.hostScript ?? locateHostScript();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...o.env,
    PYTHONUNBUFFERED: '1',
    PYTHONIOENCODING: 'utf-8',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  // A pyenv shim's interpreter, started directly (~0.3 s sooner), with its bin directory first
  // on PATH as `pyenv exec` would put it.
  const shimTarget = o.resolvedPython ? undefined : pyenvTarget(o.python, { env, cwd: o.cwd });
  if (shimTarget) env.PATH = `${dirname(shimTarget)}${delimiter}${env.PATH ?? ''}`;
  const child = spawn(o.resolvedPython ?? shimTarget ?? o.python, ['-u', script], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true, // its own process group: a kill takes the hook's children too
    windowsHide: true,
    cwd: o.cwd,
    env,
  });
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr] as unknown as { unref?: () => void }[])
    s.unref?.();
  child.stdin.on('error', () => undefined); // EPIPE after a crash: the exit handler reports it
  return child;
}
