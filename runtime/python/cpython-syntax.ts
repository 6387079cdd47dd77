// CPython's verdict on syntax: tree-sitter accepts some invalid code (`def f(a=1, b): ...`,
// a block with no indented body), so we ask the user's python3 to `compile()` the source.
//
// One python3 process answers many requests (one JSON line each way), so checking 1,000 files
// costs one interpreter start. The language server keeps one checker alive; the CLI makes one
// per run. Without python3 every answer is `undefined` and the reason is logged once.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { SyntaxIssue } from './model';
import { lowerPriority } from '../priority';
import { interpreterIdentity } from './cpython-cache';
import { directInterpreter } from './pyenv';

/**
 * Runs in python3: reads one JSON request per line — {id, path, source} (compile this text) or
 * {id, path, disk: [size, mtime_ns]} (read the file: it is the text we analyse, see
 * SyntaxRequest.disk) — and answers {id, issue} per request, or {id, resend: true} when the file
 * is not the text we have (changed since, unreadable, or not UTF-8). Answers are buffered and
 * flushed whenever the input read so far is answered (or every 50 ms), not one write per answer.
 * {confine: [tid, ...], pid} is answered by nothing: see CpythonSyntaxChecker.confineHelpers.
 */
const CHECKER_PY = String.raw`
import json, os, re, sys, time, warnings
warnings.simplefilter("ignore")
NL = re.compile(r"\r\n|\r|\n")
BOM = b"\xef\xbb\xbf"
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
def cpu_seconds(cpu):
    # CPU time a fixed loop takes on one CPU (~3 ms each, mean of two). On a virtual machine one
    # virtual CPU can run much slower than another for minutes (measured: 1.7 times).
    os.sched_setaffinity(0, {cpu})
    total = 0.0
    for _ in range(2):
        t = time.thread_time()
        n = 0
        for i in range(150000):
            n += i
        total += time.thread_time() - t
    return total
def confine(pid, tids):
    # A one-shot check's helpers (this process and the given threads of Node's) share the usable
    # CPUs but the fastest, which Node's main thread then has to itself: see confineHelpers().
    # Only threads of the process that started this one: behind a wrapper that forks, or in
    # another PID namespace, the ids could name someone else's threads.
    if pid != os.getppid():
        return
    tids = [t for t in tids if isinstance(t, int) and os.path.isdir("/proc/%d/task/%d" % (pid, t))]
    try:
        usable = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return
    if len(usable) < 2:
        return
    try:
        spent = {cpu: cpu_seconds(cpu) for cpu in usable}
    except OSError:
        # A CPU went away while timing: leave this process where it was, confine nothing.
        try:
            os.sched_setaffinity(0, usable)
        except OSError:
            pass
        return
    fastest = min(usable, key=lambda cpu: spent[cpu])
    helpers = set(usable) - {fastest}
    for tid in tids + [0]:
        try:
            os.sched_setaffinity(tid, helpers)
        except OSError:
            pass
RESEND = object()
def disk_source(path, size, mtime):
    # The text Hooksmith analyses, decoded as it decodes it (UTF-8, one BOM dropped, then a
    # second one as a WHATWG decoder drops it), provided the file is the one it read.
    # os-level calls: open() would add a buffered reader, an isatty ioctl and seeks per file.
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return RESEND
    try:
        st = os.fstat(fd)
        if st.st_size != size or st.st_mtime_ns != mtime:
            return RESEND
        data = os.read(fd, size + 1)
    except OSError:
        return RESEND
    finally:
        os.close(fd)
    if len(data) != size:
        return RESEND
    if data.startswith(BOM):
        data = data[3:]
    try:
        src = data.decode("utf-8")
    except UnicodeDecodeError:
        return RESEND
    return src[1:] if src.startswith("\ufeff") else src
def answer(req):
    path = req.get("path") or "<unknown>"
    disk = req.get("disk")
    if disk is not None:
        src = disk_source(path, int(disk[0]), int(disk[1]))
        if src is RESEND:
            return '{"id":%d,"resend":true}' % req["id"]
    else:
        src = req["source"]
    issue = check(path, src)
    if issue is None:
        return '{"id":%d,"issue":null}' % req["id"]
    return json.dumps({"id": req["id"], "issue": issue})
if sys.version_info < (3, 8):
    print(json.dumps({"ready": False, "reason": "python %d.%d is older than 3.8" % sys.version_info[:2]}), flush=True)
    sys.exit(0)
print(json.dumps({"ready": True, "version": "%d.%d.%d" % sys.version_info[:3], "executable": sys.executable}), flush=True)
out = sys.stdout
fd = sys.stdin.fileno()
partial = []
while True:
    chunk = os.read(fd, 1 << 20)
    if not chunk:
        break
    flushed = time.monotonic()
    start = 0
    while True:
        nl = chunk.find(b"\n", start)
        if nl < 0:
            partial.append(chunk[start:])
            break
        partial.append(chunk[start:nl])
        start = nl + 1
        line = b"".join(partial).decode("utf-8", "surrogatepass")
        partial = []
        if not line.strip():
            continue
        req = json.loads(line)
        if "confine" in req:
            confine(req.get("pid"), req["confine"])
            continue
        out.write(answer(req) + "\n")
        if time.monotonic() - flushed > 0.05:
            out.flush()
            flushed = time.monotonic()
    out.flush()
`;

export interface CpythonOptions {
  /** Interpreter to run; default `python3`. */
  python?: string;
  /** Give up when the process answers nothing for this long while requests wait (default 10 s). */
  timeoutMs?: number;
  /** Where the one-time "python3 unavailable" explanation goes (default: stderr). */
  log?: (message: string) => void;
  /**
   * Run python3 at a lower scheduling priority (nice 10). For a one-shot check on a machine with
   * few cores: the thread that parses and runs the rules is the critical path, and python3's
   * verdicts are needed only once an agent's rules run. Measured on 2 cores, 1,000 files: 0.1 s
   * off ~1.75 s.
   */
  lowPriority?: boolean;
}

/** A file for CPython to judge: the text we analyse, and where it came from. */
export interface SyntaxRequest {
  path: string;
  text: string;
  /**
   * Set only when `text` is the file at `path` decoded as Hooksmith decodes valid UTF-8 (BOM
   * dropped): python3 then reads the file itself instead of receiving the text through its stdin,
   * and falls back to the text when the file's size or mtime differ from these (it changed), it
   * cannot read it or it is not UTF-8. mtimeNs is a decimal string (nanoseconds overflow a double).
   */
  disk?: { size: number; mtimeNs: string };
}

interface Answer {
  message: string;
  start: [number, number];
  end: [number, number] | null;
}

type Verdict = SyntaxIssue | null | undefined;

/** A long-lived python3 answering syntax checks; restarts itself after a crash or timeout. */
export class CpythonSyntaxChecker {
  private proc: ChildProcessWithoutNullStreams | undefined;
  private ready: Promise<boolean> | undefined;
  private pending = new Map<number, (a: Answer | null | undefined) => void>();
  /** Disk requests not answered yet: their text, sent if python3 asks for it. */
  private diskRequests = new Map<number, SyntaxRequest>();
  private nextId = 1;
  private buffer = '';
  private watchdog: NodeJS.Timeout | undefined;
  private _unavailable: string | undefined;
  private _version: string | undefined;
  private direct: string | undefined;
  /** Disk requests python3 answered from the file, and those it sent back for their text. */
  readonly stats = { fromDisk: 0, resent: 0 };

  constructor(private readonly opts: CpythonOptions = {}) {}

  /** Why python3 cannot be used (after a failed start), else undefined. */
  get unavailableReason(): string | undefined {
    return this._unavailable;
  }

  /**
   * What CPython's verdicts depend on besides the text — the interpreter binary this checker runs
   * and the checker script (cpython-cache.ts) — or undefined when the interpreter is not found.
   */
  verdictIdentity(): string | undefined {
    return interpreterIdentity(this.executable(), CHECKER_PY);
  }

  /** What to spawn: the interpreter an earlier start reported, else the configured one past any pyenv shim (resolved once). */
  private executable(): string {
    const python = this.opts.python ?? 'python3';
    return resolvedExecutables.get(python) ?? (this.direct ??= directInterpreter(python));
  }

  /** The python3 process's id while it runs (for measuring its CPU use). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** CPython's version, once started. */
  get version(): string | undefined {
    return this._version;
  }

  /**
   * Starts python3 now, so that its start-up (a launcher such as a pyenv shim costs ~0.35 s)
   * overlaps the caller's own work; later checks reuse the process.
   */
  warm(): void {
    void this.start();
  }

  /**
   * For a one-shot check on Linux: this python3 and the given threads of this process (V8's
   * background threads: compiler, GC helpers) are made to share the usable CPUs but the fastest
   * (python3 times a loop on each, ~6 ms per CPU), so that the main thread, which parses and runs
   * the rules and is the critical path, has that core to itself instead of waiting its turn behind
   * them (0.13–0.25 s of a 1.5 s check on 2 cores). See analysis/helper-cores.ts.
   * Sent ahead of the files to judge, it is applied before python3 starts compiling them. Threads
   * started later (check or tree workers) keep the whole machine. Does nothing unless python3
   * was started (warm()): when a check's verdicts are remembered it may never need to be; nor
   * with one usable CPU, or where affinity cannot be set.
   */
  confineHelpers(threadIds: readonly number[]): boolean {
    if (!this.proc) return false;
    this.proc.stdin.write(JSON.stringify({ confine: threadIds, pid: process.pid }) + '\n');
    return true;
  }

  /** Null: compiles. Undefined: no verdict (python3 unavailable, crashed or timed out). */
  async check(text: string, path: string): Promise<Verdict> {
    const [r] = await this.checkMany([{ path, text }]);
    return r;
  }

  /** One verdict per file, in order, from one process. */
  checkMany(files: readonly SyntaxRequest[]): Promise<Verdict[]> {
    return Promise.all(this.checkEach(files));
  }

  /**
   * One verdict promise per file, settled as python3 answers (in order): callers can use the
   * first verdicts while it still compiles the rest. The promises never reject.
   */
  checkEach(files: readonly SyntaxRequest[]): Promise<Verdict>[] {
    if (files.length === 0) return [];
    const started = this.start();
    const proc = this.proc;
    if (!proc) return files.map(() => Promise.resolve(undefined));
    // Written at once, before python3 is ready: the pipe and the stream buffer hold them.
    const lines: string[] = [];
    const answers = files.map((f) => {
      const id = this.nextId++;
      const p = new Promise<Answer | null | undefined>((resolve) => this.pending.set(id, resolve));
      if (f.disk) {
        this.diskRequests.set(id, f);
        lines.push(JSON.stringify({ id, path: f.path, disk: [f.disk.size, f.disk.mtimeNs] }));
      } else {
        lines.push(JSON.stringify({ id, path: f.path, source: f.text }));
      }
      return p.then((a) => (a ? toIssue(a) : a));
    });
    proc.stdin.write(lines.join('\n') + '\n');
    void started.then((ok) => ok && this.armWatchdog());
    return answers;
  }

  /** Stops the process; pending checks get `undefined`. */
  close(): void {
    this.stop();
  }

  /**
   * Lets python3 finish: closes its stdin (it exits once it has answered what it was sent) and
   * resolves when it has exited, killing it after `graceMs`. Unlike close(), the process is
   * waited for, so it leaves no orphan and its CPU time is accounted to ours.
   */
  async end(graceMs = 1000): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return this.stop();
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.stdin.end();
    const timer = setTimeout(() => this.stop(), graceMs);
    await exited;
    clearTimeout(timer);
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
        // -I: ignore the user's environment and site dir; -S: no site import either (its .pth
        // processing cost ~50 ms here); the checker needs only the standard library.
        // Required here, not at the top: loading child_process (with net and stream) costs ~15 ms,
        // which a check whose verdicts are all remembered, or one without CPython, never needs.
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
        const { spawn } = require('node:child_process') as typeof import('node:child_process');
        proc = spawn(this.executable(), ['-I', '-S', '-c', CHECKER_PY], { stdio: 'pipe', windowsHide: true });
      } catch (err) {
        fail(`cannot start ${python}: ${(err as Error).message}`);
        return;
      }
      this.proc = proc;
      if (this.opts.lowPriority && proc.pid !== undefined) lowerPriority(proc.pid);
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
          let msg: {
            ready?: boolean;
            reason?: string;
            version?: string;
            executable?: string;
            id?: number;
            issue?: Answer | null;
            resend?: boolean;
          };
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
            const asked = this.diskRequests.get(msg.id);
            this.diskRequests.delete(msg.id);
            if (asked) this.stats[msg.resend ? 'resent' : 'fromDisk']++;
            if (msg.resend && asked) {
              // The file is not the text we have: send the text under the same id.
              proc.stdin.write(JSON.stringify({ id: msg.id, path: asked.path, source: asked.text }) + '\n');
            } else {
              const done = this.pending.get(msg.id);
              this.pending.delete(msg.id);
              done?.(msg.issue ?? null);
            }
            this.armWatchdog();
          }
        }
      });
      proc.on('exit', (code, signal) => {
        if (this.proc !== proc) {
          // Stopped by us (close() while it was still starting): not a reason to give up on python3.
          if (!settled) resolve(false);
          settled = true;
          return;
        }
        if (!settled)
          fail(
            `${python} exited before answering (${signal ?? `code ${code}`}): ${stderr.trim().slice(0, 300)}`,
          );
        this.stop();
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
    this.diskRequests.clear();
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
  (log ?? ((m: string) => process.stderr.write(m + '\n')))(
    `[hooksmith] syntax is checked by tree-sitter only: ${reason}`,
  );
}

/** CPython's verdict for many files with one short-lived process; undefined entries: no verdict. */
export async function checkSyntaxMany(
  files: readonly SyntaxRequest[],
  opts: CpythonOptions = {},
): Promise<(SyntaxIssue | null | undefined)[]> {
  const checker = new CpythonSyntaxChecker(opts);
  try {
    return await checker.checkMany(files);
  } finally {
    checker.close();
  }
}

/** CPython's verdict for one source: null when it compiles, undefined when there is no verdict. */
export async function checkSyntax(
  text: string,
  path: string,
  opts: CpythonOptions = {},
): Promise<SyntaxIssue | null | undefined> {
  const [r] = await checkSyntaxMany([{ path, text }], opts);
  return r;
}

/**
 * The syntax issues to report: CPython's when it gave a verdict (it is the authority, and
 * tree-sitter may reject syntax newer than its grammar), else tree-sitter's first error.
 */
export function mergeSyntaxIssues(
  treeSitter: readonly SyntaxIssue[],
  cpython: SyntaxIssue | null | undefined,
): SyntaxIssue[] {
  if (cpython === undefined) return [...treeSitter];
  return cpython ? [cpython] : [];
}
