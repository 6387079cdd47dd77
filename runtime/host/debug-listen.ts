// Debug runs: the address a host listens at for a DAP client (debugpy), and whether the chosen
// interpreter has debugpy at all, asked before anything starts.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

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

/** undefined when `python` can import debugpy; else the message to show (nothing has started). */
export function missingDebugpy(
  python: string,
  env?: NodeJS.ProcessEnv,
  audience: DebugpyAudience = 'cli',
): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      python,
      ['-c', 'import debugpy'],
      { env: { ...process.env, ...env }, timeout: 30_000, windowsHide: true },
      (err, _out, stderr) => {
        if (!err) return resolve(undefined);
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return resolve(`${python} not found — choose another (${CHOOSE[audience]})`);
        const why = /No module named '?debugpy/.test(String(stderr))
          ? 'is not installed'
          : 'cannot be imported';
        resolve(
          `debugging needs debugpy, which ${why} for ${python}: ${debugpyInstallHint(python, audience)}`,
        );
      },
    );
  });
}
