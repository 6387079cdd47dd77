// CPython's verdict on syntax: tree-sitter accepts some invalid code (`def f(a=1, b): ...`,
// a block with no indented body), so we ask the user's python3 to `compile()` the source.
//
// One python3 process answers many requests (one JSON line each way), so checking 1,000 files
// costs one interpreter start. The language server keeps one checker alive; the CLI makes one
// per run. Without python3 every answer is `undefined` and the reason is logged once.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { SyntaxIssue } from './model';

/** Runs in python3: reads {id, path, source} lines, answers {id, issue} lines. */
const CHECKER_PY = String.raw`
import json, re, sys, warnings
warnings.simplefilter("ignore")
NL = re.compile(r"\r\n|\r|\n")
def u16(s):
    return len(s.encode("utf-16-le", "surrogatepass")) // 2
def at(lines, lineno, offset, shift):
    if not lineno or lineno < 1:
        return [0, 0]
    i = min(lineno, len(lines)) - 1
    line = lines[i] if lines else ""
    col = u16(line[: max((offset or 1) - 1, 0)])
    return [i, col + (shift if i == 0 else 0)]
def nul_issue(src, e):
    # NUL bytes: ValueError before 3.12, SyntaxError without a position on 3.11.4+.
    nul = src.find("\0")
    lines = NL.split(src[:nul]) if nul >= 0 else [""]
    return {"message": str(e.msg if isinstance(e, SyntaxError) else e), "start": [len(lines) - 1, u16(lines[-1])], "end": None}
def check(path, src):
    shift = 0
    if src.startswith("\ufeff"):
        src, shift = src[1:], 1
    try:
        compile(src, path, "exec", dont_inherit=True)
        return None
    except SyntaxError as e:
        if not e.lineno and "\0" in src:
            return nul_issue(src, e)
        lines = NL.split(src)
        start = at(lines, e.lineno, e.offset, shift)
        end = None
        if getattr(e, "end_lineno", None) and getattr(e, "end_offset", None) and e.end_offset > 0:
            end = at(lines, e.end_lineno, e.end_offset, shift)
            if end < start:
                end = None
        return {"message": e.msg, "start": start, "end": end}
    except ValueError as e:
        return nul_issue(src, e)
    except (RecursionError, MemoryError) as e:
        return {"message": "too complex for CPython to compile: " + (str(e) or type(e).__name__), "start": [0, 0], "end": None}
    except Exception as e:
        return {"message": type(e).__name__ + ": " + str(e), "start": [0, 0], "end": None}
if sys.version_info < (3, 8):
    print(json.dumps({"ready": False, "reason": "python %d.%d is older than 3.8" % sys.version_info[:2]}), flush=True)
    sys.exit(0)
print(json.dumps({"ready": True, "version": "%d.%d.%d" % sys.version_info[:3], "executable": sys.executable}), flush=True)
stdin = open(sys.stdin.fileno(), "r", encoding="utf-8", errors="surrogatepass", newline="\n")
for line in stdin:
    if not line.strip():
        continue
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "issue": check(req.get("path") or "<unknown>", req["source"])}), flush=True)
`;

export interface CpythonOptions {
  /** Interpreter to run; default `python3`. */
  python?: string;
  /** Give up when the process answers nothing for this long while requests wait (default 10 s). */
  timeoutMs?: number;
  /** Where the one-time "python3 unavailable" explanation goes (default: stderr). */
  log?: (message: string) => void;
}

interface Answer {
  message: string;
  start: [number, number];
  end: [number, number] | null;
}

/** A long-lived python3 answering syntax checks; restarts itself after a crash or timeout. */
export class CpythonSyntaxChecker {
  private proc: ChildProcessWithoutNullStreams | undefined;
  private ready: Promise<boolean> | undefined;
  private pending = new Map<number, (a: Answer | null | undefined) => void>();
  private nextId = 1;
  private buffer = '';
  private watchdog: NodeJS.Timeout | undefined;
  private _unavailable: string | undefined;
  private _version: string | undefined;

  constructor(private readonly opts: CpythonOptions = {}) {}

  /** Why python3 cannot be used (after a failed start), else undefined. */
  get unavailableReason(): string | undefined {
    return this._unavailable;
  }

  /** CPython's version, once started. */
  get version(): string | undefined {
    return this._version;
  }

  /** Null: compiles. Undefined: no verdict (python3 unavailable, crashed or timed out). */
  async check(text: string, path: string): Promise<SyntaxIssue | null | undefined> {
    const [r] = await this.checkMany([{ path, text }]);
    return r;
  }

  /** One verdict per file, in order, from one process. */
  async checkMany(files: readonly { path: string; text: string }[]): Promise<(SyntaxIssue | null | undefined)[]> {
    if (files.length === 0) return [];
    if (!(await this.start())) return files.map(() => undefined);
    const proc = this.proc;
    if (!proc) return files.map(() => undefined);
    const answers = files.map((f) => {
      const id = this.nextId++;
      const p = new Promise<Answer | null | undefined>((resolve) => this.pending.set(id, resolve));
      proc.stdin.write(JSON.stringify({ id, path: f.path, source: f.text }) + '\n');
      return p;
    });
    this.armWatchdog();
    const results = await Promise.all(answers);
    return results.map((a) => (a ? toIssue(a) : a));
  }

  /** Stops the process; pending checks get `undefined`. */
  close(): void {
    this.stop();
  }

  private start(): Promise<boolean> {
    if (this._unavailable) return Promise.resolve(false);
    if (this.ready && this.proc) return this.ready;
    const python = this.opts.python ?? 'python3';
    this.ready = new Promise<boolean>((resolve) => {
      let settled = false;
      const fail = (reason: string) => {
        this._unavailable = reason;
        warnOnce(reason, this.opts.log);
        if (!settled) resolve(false);
        settled = true;
        this.stop();
      };
      let proc: ChildProcessWithoutNullStreams;
      try {
        proc = spawn(resolvedExecutables.get(python) ?? python, ['-I', '-c', CHECKER_PY], { stdio: 'pipe', windowsHide: true });
      } catch (err) {
        fail(`cannot start ${python}: ${(err as Error).message}`);
        return;
      }
      this.proc = proc;
      let stderr = '';
      proc.on('error', (err) => fail(`cannot start ${python}: ${err.message}`));
      proc.stdin.on('error', () => undefined); // EPIPE after a crash: reported through 'exit'
      proc.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
      proc.stdout.setEncoding('utf8');
      proc.stdout.on('data', (chunk: string) => {
        this.buffer += chunk;
        let nl: number;
        while ((nl = this.buffer.indexOf('\n')) >= 0) {
          const line = this.buffer.slice(0, nl);
          this.buffer = this.buffer.slice(nl + 1);
          let msg: { ready?: boolean; reason?: string; version?: string; executable?: string; id?: number; issue?: Answer | null };
          try {
            msg = JSON.parse(line) as typeof msg;
          } catch {
            continue;
          }
          if (msg.ready !== undefined && !settled) {
            settled = true;
            if (msg.ready) {
              this._version = msg.version;
              // Later starts skip launchers such as pyenv shims, which can cost seconds.
              if (msg.executable) resolvedExecutables.set(python, msg.executable);
              resolve(true);
            } else fail(`${python}: ${msg.reason ?? 'unusable'}`);
          } else if (msg.id !== undefined) {
            const done = this.pending.get(msg.id);
            this.pending.delete(msg.id);
            done?.(msg.issue ?? null);
            this.armWatchdog();
          }
        }
      });
      proc.on('exit', (code, signal) => {
        if (!settled) fail(`${python} exited before answering (${signal ?? `code ${code}`}): ${stderr.trim().slice(0, 300)}`);
        if (this.proc === proc) this.stop();
      });
    });
    return this.ready;
  }

  private armWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = undefined;
    if (this.pending.size === 0) return;
    // Kill a process that stops answering (a pathological source); the next call restarts it.
    this.watchdog = setTimeout(() => this.stop(), this.opts.timeoutMs ?? 10_000);
    this.watchdog.unref();
  }

  private stop(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = undefined;
    const proc = this.proc;
    this.proc = undefined;
    this.ready = undefined;
    this.buffer = '';
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const done of waiting) done(undefined);
  }
}

function toIssue(a: Answer): SyntaxIssue {
  const start = { line: a.start[0], character: a.start[1] };
  const end = a.end ? { line: a.end[0], character: a.end[1] } : start;
  return { message: a.message, range: { start, end: { ...end } }, source: 'cpython' };
}

/** Interpreter name as configured → the real executable it ran (sys.executable). */
const resolvedExecutables = new Map<string, string>();

const warned = new Set<string>();
function warnOnce(reason: string, log?: (m: string) => void): void {
  if (warned.has(reason)) return;
  warned.add(reason);
  (log ?? ((m: string) => process.stderr.write(m + '\n')))(`[hooksmith] syntax is checked by tree-sitter only: ${reason}`);
}

/** CPython's verdict for many files with one short-lived process; undefined entries: no verdict. */
export async function checkSyntaxMany(files: readonly { path: string; text: string }[], opts: CpythonOptions = {}): Promise<(SyntaxIssue | null | undefined)[]> {
  const checker = new CpythonSyntaxChecker(opts);
  try {
    return await checker.checkMany(files);
  } finally {
    checker.close();
  }
}

/** CPython's verdict for one source: null when it compiles, undefined when there is no verdict. */
export async function checkSyntax(text: string, path: string, opts: CpythonOptions = {}): Promise<SyntaxIssue | null | undefined> {
  const [r] = await checkSyntaxMany([{ path, text }], opts);
  return r;
}

/**
 * The syntax issues to report: CPython's when it gave a verdict (it is the authority, and
 * tree-sitter may reject syntax newer than its grammar), else tree-sitter's first error.
 */
export function mergeSyntaxIssues(treeSitter: readonly SyntaxIssue[], cpython: SyntaxIssue | null | undefined): SyntaxIssue[] {
  if (cpython === undefined) return [...treeSitter];
  return cpython ? [cpython] : [];
}
