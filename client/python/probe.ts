// Checks that an interpreter starts and is recent enough for the host (Python >= 3.9).
// No `vscode` import: unit-tested with the real python3.
import { execFile } from 'node:child_process';

export const MIN_PYTHON: readonly [number, number] = [3, 9];

export type ProbeResult = { ok: true; executable: string; version: string } | { ok: false; reason: string };

const SCRIPT = 'import sys; print(sys.executable); print("%d.%d.%d" % sys.version_info[:3])';

export function probePython(python: string, timeoutMs = 8000): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(python, ['-c', SCRIPT], { timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why =
          code === 'ENOENT'
            ? 'not found'
            : err.killed
              ? `did not answer within ${timeoutMs} ms`
              : (stderr.trim().split('\n').pop() ?? err.message);
        resolve({ ok: false, reason: `${python}: ${why}` });
        return;
      }
      const [executable = python, version = ''] = stdout.trim().split(/\r?\n/);
      const [major = 0, minor = 0] = version.split('.').map(Number);
      if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
        resolve({
          ok: false,
          reason: `${python} is Python ${version || '?'}; Hooksmith needs ${MIN_PYTHON.join('.')} or newer`,
        });
        return;
      }
      resolve({ ok: true, executable: executable.trim() || python, version });
    });
  });
}

export interface Candidate {
  python: string;
  /** Why this one is tried ("Python extension's active environment", "hooksmith.pythonPath", "default"). */
  source: string;
}

export type Choice =
  | { ok: true; python: string; source: string; version: string; rejected: string[] }
  | { ok: false; rejected: string[] };

/** The first candidate that works, with why the earlier ones were rejected. */
export async function chooseInterpreter(
  candidates: readonly Candidate[],
  probe = probePython,
): Promise<Choice> {
  const rejected: string[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (!c.python || seen.has(c.python)) continue;
    seen.add(c.python);
    const r = await probe(c.python);
    if (r.ok) return { ok: true, python: r.executable, source: c.source, version: r.version, rejected };
    rejected.push(`${c.source}: ${r.reason}`);
  }
  return { ok: false, rejected };
}
