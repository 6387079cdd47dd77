// Debug runs: the address a host listens at for a DAP client (debugpy), and whether the chosen
// interpreter has debugpy at all, asked before anything starts.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gaveUpOn } from '../cpython/environment';
import { killInterpreter, OWN_GROUP } from '../cpython/pyenv';
import { HANDSHAKE_MS } from '../cpython/syntax-checker';

/** Where the message is read: the CLI names its --python flag; the editor its setting only. */
export type DebugpyAudience = 'cli' | 'editor';

const CHOOSE: Record<DebugpyAudience, string> = {
  cli: '--python, hooksmith.pythonPath',
  editor: 'the Python extension’s interpreter, or hooksmith.pythonPath',
};

/** `python` as run: a bare name is the first match on PATH (a venv's path is its own, not followed). */
function onPath(python: string): string {
  if (path.isAbsolute(python) || python.includes('/')) return python;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, python);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return python;
}

/**
 * The command that installs debugpy for `python`: Debian's own interpreter (/usr/bin/python3, an
 * externally managed Python pip refuses) takes the distro package; a venv, pyenv or any other
 * interpreter takes pip, run by that interpreter (#31 item 10).
 */
export function debugpyInstallCommand(python: string): string {
  if (/^\/usr\/bin\/python3(\.\d+)?$/.test(onPath(python))) return 'sudo apt-get install python3-debugpy';
  return `${/\s/.test(python) ? JSON.stringify(python) : python} -m pip install debugpy`;
}

/** How to get debugpy, for the message when it is missing. */
export function debugpyInstallHint(python: string, audience: DebugpyAudience = 'cli'): string {
  return `install it for this interpreter (${debugpyInstallCommand(python)}), or choose an interpreter that has it (${CHOOSE[audience]})`;
}

/** `[HOST:]PORT` → `host:port` (host default 127.0.0.1; port 0: any free port), or the error. */
export function parseDebugAddress(value: string): { address: string } | { error: string } {
  const m = /^(?:(.*):)?(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535)
    return { error: `--debug needs [HOST:]PORT (e.g. 5678 or 127.0.0.1:5678), got '${value}'` };
  const host = m[1] === undefined || m[1] === '' ? '127.0.0.1' : m[1].replace(/^\[(.*)\]$/, '$1');
  return { address: `${host}:${port}` };
}

/**
 * undefined when `python` can import debugpy; else the message to show (nothing has started).
 * Bounded as every question to an interpreter is (HANDSHAKE_MS): one that never answers (a
 * wrapper that hangs, an import that blocks) is named as hanging, not as missing debugpy, and
 * its whole process group is killed; one this process already gave up on is not waited for again.
 */
export function missingDebugpy(
  python: string,
  env?: NodeJS.ProcessEnv,
  audience: DebugpyAudience = 'cli',
  timeoutMs = HANDSHAKE_MS,
): Promise<string | undefined> {
  const hung = gaveUpOn(python);
  if (hung)
    return Promise.resolve(
      `${hung}, so debugpy could not be checked — choose another interpreter (${CHOOSE[audience]})`,
    );
  return new Promise((resolve) => {
    const child = spawn(python, ['-c', 'import debugpy'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      windowsHide: true,
      ...OWN_GROUP,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += d.toString();
    });
    const timer = setTimeout(() => {
      killInterpreter(child);
      finish(
        `${python} did not answer within ${timeoutMs / 1000} s of starting (it hangs on start-up or on an import), so debugpy could not be checked — choose another interpreter (${CHOOSE[audience]})`,
      );
    }, timeoutMs);
    let done = false;
    const finish = (message: string | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(message);
    };
    child.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        err.code === 'ENOENT'
          ? `${python} not found — choose another (${CHOOSE[audience]})`
          : `${python} could not be started (${err.message}) — choose another (${CHOOSE[audience]})`,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return finish(undefined);
      const why = /No module named '?debugpy/.test(stderr) ? 'is not installed' : 'cannot be imported';
      finish(`debugging needs debugpy, which ${why} for ${python}: ${debugpyInstallHint(python, audience)}`);
    });
  });
}
