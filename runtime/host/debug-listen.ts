// Debug runs: the address a host listens at for a DAP client (debugpy), and whether the chosen
// interpreter has debugpy at all, asked before anything starts.
import { execFile } from 'node:child_process';

/** How to get debugpy, for the message when it is missing. */
export function debugpyInstallHint(python: string): string {
  return (
    `install it for this interpreter (Debian/Ubuntu: apt-get install python3-debugpy; elsewhere: ` +
    `${python} -m pip install debugpy), or choose an interpreter that has it (--python, hooksmith.pythonPath)`
  );
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
export function missingDebugpy(python: string, env?: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      python,
      ['-c', 'import debugpy'],
      { env: { ...process.env, ...env }, timeout: 30_000, windowsHide: true },
      (err, _out, stderr) => {
        if (!err) return resolve(undefined);
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return resolve(`${python} not found — set --python or hooksmith.pythonPath`);
        const why = /No module named '?debugpy/.test(String(stderr))
          ? 'is not installed'
          : 'cannot be imported';
        resolve(`debugging needs debugpy, which ${why} for ${python}: ${debugpyInstallHint(python)}`);
      },
    );
  });
}
