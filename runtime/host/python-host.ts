// PythonHost owns the long-lived `python3 -u hooksmith_host.py` process: handshake, invoke
// with a HARD deadline on the hook body, attribution of a blocked loop to the hook that holds
// it (the host's watchdog names it), and restarts: a host that a hook blocked, broke or changed
// is killed with every process under it, and the calls that were only waiting are sent again
// to a fresh host instead of being blamed. No vscode import: shared by the CLI and extension.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { JSON_LIMITS, unfaithfulJson } from '../engine/json-faithful';
import { PythonHostError, spawnHost } from './host-spawn';
import { LineSplitter } from './line-splitter';
import { killGroup, killTree } from './process-tree';
import type { HelloInfo, HostRequest, InvokeRequest, InvokeResult, TimedOutResult } from './protocol';

export { locateHostScript, PythonHostError } from './host-spawn';

export interface PythonHostOptions {
  /** Interpreter to run; default `python3`. */
  python?: string;
  /** Sink for the host's stderr (hook-module stderr, tracebacks of stray tasks) and lifecycle lines. */
  log?: (line: string) => void;
  /** Added to each request's timeoutMs before the process is killed (default 250 ms). */
  graceMs?: number;
  /** Time allowed for importing a hook module (default 30 s). */
  loadBudgetMs?: number;
  /** Time allowed from spawn to the hello answer (default 30 s). */
  startTimeoutMs?: number;
  /** Path of hooksmith_host.py; default: found beside the bundle or the source. */
  hostScript?: string;
  /** Longest protocol line accepted from the host (default: room for a value and a payload at the size limit). */
  maxLineBytes?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

// Transfer and parsing, outside the hook's deadline: generous for a loaded machine.
const TRANSFER_MS_PER_MIB = 200;
const ANSWER_BUDGET_MS = 15_000;

interface Pending {
  id: number;
  req: InvokeRequest;
  line: string;
  resolve: (r: InvokeResult) => void;
  reject: (e: unknown) => void;
  sentAt: number;
  timer?: NodeJS.Timeout;
  loading: boolean;
  /** Its deadline passed while an import or another hook held the loop: re-armed when that ends. */
  deferred: boolean;
  /** What held the loop while it waited, for the note on its result. */
  starvedBy?: string;
  /** Sent again to a fresh host after a restart it did not cause. */
  resent: number;
}

/** One spawned host process and the requests in flight on it. */
interface Proc {
  child: ChildProcessWithoutNullStreams;
  pending: Map<number, Pending>;
  loadingCount: number;
  stderrTail: string[];
  /** Request id the host's watchdog says holds the stalled loop (null: no request's code); undefined: not stalled. */
  blocker?: number | null;
  /** Requests answered `timed-out` cooperatively whose cancelled task may still run: id → hook. */
  cancelled: Map<number, string>;
  /** Set when we kill it on purpose, so the exit handler does not report again. */
  killedByUs: boolean;
  exited: boolean;
  hello?: (info: HelloInfo) => void;
}

const STDERR_TAIL_LINES = 40;
const MAX_STDERR_LINE = 4096;
const MAX_RESENDS = 2;

const empty = { text: '', droppedChars: 0 };
const label = (req: InvokeRequest) => `${req.file}::${req.handler}`;

export class PythonHost {
  private readonly python: string;
  private readonly log: (line: string) => void;
  private readonly graceMs: number;
  private readonly loadBudgetMs: number;
  private readonly startTimeoutMs: number;
  private readonly maxLineBytes: number;
  /** After the first hello: the interpreter's real path (skips launcher shims such as pyenv's on restarts). */
  private resolvedPython?: string;
  private proc?: Proc;
  private starting?: Promise<Proc>;
  private nextId = 1;
  /** The last hello answer (python version, real or shimmed APIs). */
  info?: HelloInfo;
  /** Milliseconds from spawn to hello, for the last start. */
  lastStartMs?: number;
  /** Number of processes started (1 + restarts). */
  starts = 0;

  constructor(private readonly options: PythonHostOptions = {}) {
    this.python = options.python ?? 'python3';
    const sink = options.log;
    this.log = (line) => {
      try {
        sink?.(line);
      } catch {
        // a failing log sink must not break the protocol handlers
      }
    };
    this.graceMs = options.graceMs ?? 250;
    this.loadBudgetMs = options.loadBudgetMs ?? 30_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.maxLineBytes = options.maxLineBytes ?? 2 * JSON_LIMITS.bytes + 1024 * 1024;
  }

  /** Starts the process if needed and returns its hello. Throws PythonHostError when Python cannot start. */
  async start(): Promise<HelloInfo> {
    await this.ensure();
    return this.info as HelloInfo;
  }

  /** Runs one hook. Never rejects for anything the hook does; rejects only when Python cannot start. */
  async invoke(req: InvokeRequest): Promise<InvokeResult> {
    const refused = (message: string): InvokeResult => ({
      status: 'invalid-request',
      message,
      durationMs: 0,
      output: empty,
    });
    if (!Number.isFinite(req.timeoutMs) || req.timeoutMs < 0)
      return refused(`timeoutMs must be a finite number ≥ 0, got ${String(req.timeoutMs)}`);
    const unfaithful = unfaithfulJson(req.payload);
    if (unfaithful) return refused(`the payload holds a value JSON cannot carry faithfully: ${unfaithful}`);
    const id = this.nextId++;
    const line = JSON.stringify({ id, op: 'invoke', ...req } satisfies HostRequest) + '\n';
    if (line.length > JSON_LIMITS.bytes + 64 * 1024)
      return refused(
        `the payload is ${(line.length / 1024 / 1024).toFixed(1)} MiB as JSON, over the ${JSON_LIMITS.bytes / 1024 / 1024} MiB limit for payloads`,
      );
    return new Promise<InvokeResult>((resolve, reject) => {
      const p: Pending = {
        id,
        req,
        line,
        resolve,
        reject,
        sentAt: 0,
        loading: false,
        deferred: false,
        resent: 0,
      };
      void this.dispatch(p);
    });
  }

  /** Kills the host and everything it started. Pending calls are answered `crashed`. */
  async dispose(): Promise<void> {
    const proc = this.proc ?? (await this.starting?.catch(() => undefined));
    if (!proc || proc.exited) return;
    this.failAll(proc, 'the host was disposed while this hook ran');
    // Keep Node alive until the exit is seen: a CLI awaiting this must get to set its exit code.
    proc.child.ref();
    const exited = new Promise<void>((r) => proc.child.once('exit', () => r()));
    this.kill(proc);
    await exited;
  }

  private async dispatch(p: Pending): Promise<void> {
    let proc: Proc;
    try {
      proc = await this.ensure();
      if (proc.exited) proc = await this.ensure(); // it died between start and now: one fresh start
    } catch (err) {
      p.reject(err);
      return;
    }
    p.sentAt = performance.now();
    p.loading = false;
    p.deferred = false;
    proc.pending.set(p.id, p);
    // Until the body starts: the hook's own budget plus the time to carry and parse its payload.
    this.arm(proc, p, p.req.timeoutMs + this.graceMs + (p.line.length / 1024 / 1024) * TRANSFER_MS_PER_MIB);
    if (!proc.exited && proc.child.stdin.writable) proc.child.stdin.write(p.line);
  }

  private ensure(): Promise<Proc> {
    if (this.proc && !this.proc.exited) return Promise.resolve(this.proc);
    if (!this.starting) {
      this.starting = this.spawn().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  private spawn(): Promise<Proc> {
    const t0 = performance.now();
    const child = spawnHost({
      python: this.python,
      resolvedPython: this.resolvedPython,
      hostScript: this.options.hostScript,
      env: this.options.env,
      cwd: this.options.cwd,
    });
    const proc: Proc = {
      child,
      pending: new Map(),
      loadingCount: 0,
      stderrTail: [],
      cancelled: new Map(),
      killedByUs: false,
      exited: false,
    };
    this.starts++;
    const out = new LineSplitter(
      this.maxLineBytes,
      (line) => this.onLine(proc, line),
      (head, bytes) => this.onOversized(proc, head, bytes),
    );
    child.stdout.on('data', (d: Buffer) => out.push(d));
    const err = new LineSplitter(
      MAX_STDERR_LINE,
      (line) => this.onStderr(proc, line),
      (head, bytes) => this.onStderr(proc, `${head}… (${bytes} bytes)`),
    );
    child.stderr.on('data', (d: Buffer) => err.push(d));

    return new Promise<Proc>((resolve, reject) => {
      const fail = (e: PythonHostError): void => {
        clearTimeout(timer);
        this.kill(proc);
        reject(e);
      };
      const timer = setTimeout(
        () =>
          fail(
            new PythonHostError(
              `the Python host did not answer within ${this.startTimeoutMs} ms${this.tail(proc)}`,
              'start-failed',
            ),
          ),
        this.startTimeoutMs,
      );
      child.once('error', (e: NodeJS.ErrnoException) => {
        proc.exited = true;
        this.resolvedPython = undefined; // the resolved interpreter went away: ask for the configured one again
        fail(
          e.code === 'ENOENT'
            ? new PythonHostError(
                `${this.python} not found — set --python or hooksmith.pythonPath`,
                'not-found',
              )
            : new PythonHostError(`cannot start ${this.python}: ${e.message}`, 'start-failed'),
        );
      });
      child.once('exit', (code, signal) => {
        proc.exited = true;
        if (proc.hello)
          fail(
            new PythonHostError(
              `${this.python} exited (${signal ?? code}) before the host answered${this.tail(proc)}`,
              'start-failed',
            ),
          );
        this.onExit(proc, code, signal);
      });
      proc.hello = (info) => {
        proc.hello = undefined;
        clearTimeout(timer);
        const [major, minor] = info.python.split('.').map(Number);
        if (major < 3 || (major === 3 && minor < 9)) {
          fail(
            new PythonHostError(
              `Python ${info.python} is too old: Hooksmith needs Python ≥ 3.9 (set --python or hooksmith.pythonPath)`,
              'too-old',
            ),
          );
          return;
        }
        this.info = info;
        if (info.executable && existsSync(info.executable)) this.resolvedPython = info.executable;
        this.lastStartMs = performance.now() - t0;
        this.proc = proc;
        this.log(
          `[host] started ${info.executable} (Python ${info.python}, pid ${info.pid}) in ${this.lastStartMs.toFixed(0)} ms; rasa.mantle.hooks: ${info.realMantle ? 'real' : 'shim'}, cayu: ${info.realCayu ? 'real' : 'shim'}`,
        );
        resolve(proc);
      };
      if (child.stdin.writable) child.stdin.write(JSON.stringify({ id: 0, op: 'hello' }) + '\n');
    });
  }

  private onLine(proc: Proc, line: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.log(`[host] unparsable protocol line: ${line.slice(0, 200)}`);
      return;
    }
    const id = typeof msg.id === 'number' ? msg.id : -1;
    if (msg.status === 'hello') {
      proc.hello?.(msg as unknown as HelloInfo);
      return;
    }
    if (msg.event === 'blocking') {
      proc.blocker = typeof msg.id === 'number' ? msg.id : null;
      return;
    }
    if (msg.event === 'resumed') {
      proc.blocker = undefined;
      this.rearmDeferred(proc);
      return;
    }
    const p = proc.pending.get(id);
    if (msg.event !== undefined) {
      if (p) this.onProgress(proc, p, String(msg.event));
      return;
    }
    if (!p) {
      if (msg.status === 'protocol-error') this.log(`[host] protocol error: ${String(msg.message)}`);
      return;
    }
    if (msg.status === 'protocol-error') {
      this.settle(proc, p, {
        status: 'invalid-request',
        message: String(msg.message),
        durationMs: this.elapsed(p),
        output: empty,
      });
      return;
    }
    if (msg.status === 'host-error') {
      // The host's own code failed (a bug, or a stdlib a hook broke): not the hook's outcome.
      this.restart(proc, `the host failed while running ${label(p.req)}: ${String(msg.message)}`);
      return;
    }
    delete msg.id;
    const result = msg as unknown as InvokeResult;
    if (result.status === 'timed-out' && !result.killed) proc.cancelled.set(p.id, label(p.req));
    if (p.starvedBy) result.starvedBy = p.starvedBy;
    this.settle(proc, p, result);
    if (result.hostChanged?.length)
      this.restart(proc, `${label(p.req)} changed what the host runs on (${result.hostChanged.join(', ')})`);
  }

  private onProgress(proc: Proc, p: Pending, event: string): void {
    if (event === 'loading' && !p.loading) {
      p.loading = true;
      proc.loadingCount++;
      this.arm(proc, p, this.loadBudgetMs);
    } else if (event === 'started') {
      this.endLoading(proc, p);
      this.arm(proc, p, p.req.timeoutMs + this.graceMs);
    } else if (event === 'ended') {
      this.arm(proc, p, ANSWER_BUDGET_MS); // serialising the value and carrying it back
    }
  }

  private endLoading(proc: Proc, p: Pending): void {
    if (!p.loading) return;
    p.loading = false;
    proc.loadingCount--;
    if (proc.loadingCount === 0) this.rearmDeferred(proc);
  }

  /** What held the loop has let go: the calls that waited get a grace period of their own. */
  private rearmDeferred(proc: Proc): void {
    for (const other of proc.pending.values()) {
      if (other.deferred) {
        other.deferred = false;
        this.arm(proc, other, this.graceMs);
      }
    }
  }

  private arm(proc: Proc, p: Pending, ms: number): void {
    if (p.timer) clearTimeout(p.timer);
    p.timer = setTimeout(() => this.onDeadline(proc, p), Math.min(Math.max(0, ms), 2_147_483_647));
  }

  private onDeadline(proc: Proc, p: Pending): void {
    p.timer = undefined;
    if (!proc.pending.has(p.id)) return;
    const blocker = proc.blocker;
    const holder = typeof blocker === 'number' ? proc.pending.get(blocker) : undefined;
    if (!p.loading && proc.loadingCount > 0) {
      p.deferred = true; // another request's import holds the loop: not this hook's fault yet
      p.starvedBy = 'another hook module’s import';
      return;
    }
    if (holder && holder !== p && holder.timer) {
      // Another call holds the loop within its own budget: wait for its verdict.
      p.deferred = true;
      p.starvedBy = label(holder.req);
      return;
    }
    if (blocker !== undefined && !holder) {
      // A cancelled hook that kept running, or code outside any call: restart, blame no waiting call.
      const culprit =
        blocker !== null && proc.cancelled.has(blocker)
          ? `${proc.cancelled.get(blocker)} ignored its cancellation after timing out and held the event loop`
          : 'code outside any hook call (a task a hook left behind) held the event loop';
      this.restart(proc, culprit);
      return;
    }
    const guilty = holder ?? p;
    const during = guilty.loading ? 'import' : 'hook';
    const what =
      during === 'import'
        ? `importing ${guilty.req.file} took more than ${this.loadBudgetMs} ms`
        : `${label(guilty.req)} blocked the event loop past its ${guilty.req.timeoutMs} ms deadline`;
    const timedOut: TimedOutResult = {
      status: 'timed-out',
      killed: true,
      timeoutMs: guilty.req.timeoutMs,
      during,
      ...(during === 'import' ? { loadBudgetMs: this.loadBudgetMs } : {}),
      durationMs: this.elapsed(guilty),
      output: empty,
    };
    this.settle(proc, guilty, timedOut);
    this.restart(proc, what);
  }

  /** Kills the host (and its tree); calls it still owed are sent again to a fresh host. */
  private restart(proc: Proc, why: string): void {
    this.log(`[host] restarting the Python host: ${why}`);
    const waiting = [...proc.pending.values()];
    for (const p of waiting) {
      if (p.timer) clearTimeout(p.timer);
      if (p.loading) this.endLoading(proc, p);
      proc.pending.delete(p.id);
    }
    this.kill(proc);
    for (const p of waiting) {
      if (p.resent >= MAX_RESENDS) {
        p.resolve(
          this.crashed(
            proc,
            p,
            `the host was restarted ${p.resent + 1} times while this hook waited: ${why}`,
          ),
        );
        continue;
      }
      p.resent++;
      void this.dispatch(p);
    }
  }

  private onOversized(proc: Proc, head: string, bytes: number): void {
    const m = /^\{"id":\s*(\d+)/.exec(head);
    const p = m ? proc.pending.get(Number(m[1])) : undefined;
    this.log(`[host] dropped a ${bytes}-byte protocol line`);
    if (p)
      this.settle(proc, p, {
        status: 'invalid-request',
        message: `the host's answer was ${bytes} bytes, over the ${this.maxLineBytes}-byte bound`,
        durationMs: this.elapsed(p),
        output: empty,
      });
  }

  private onStderr(proc: Proc, line: string): void {
    proc.stderrTail.push(line);
    if (proc.stderrTail.length > STDERR_TAIL_LINES) proc.stderrTail.shift();
    this.log(`[python] ${line}`);
  }

  private onExit(proc: Proc, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.proc === proc) this.proc = undefined;
    if (proc.killedByUs) return;
    if (proc.child.pid !== undefined) killGroup(proc.child.pid); // what the hook left behind
    this.log(`[host] the Python host exited (${signal ?? `code ${code}`})`);
    this.failAll(
      proc,
      `the Python host exited ${signal ? `on ${signal}` : `with code ${code}`} while this hook ran`,
      code,
      signal,
    );
  }

  private crashed(
    proc: Proc,
    p: Pending,
    reason: string,
    code: number | null = null,
    signal: string | null = null,
  ): InvokeResult {
    return {
      status: 'crashed',
      exitCode: code,
      signal,
      reason,
      stderrTail: proc.stderrTail.join('\n'),
      durationMs: this.elapsed(p),
      output: empty,
    };
  }

  private failAll(
    proc: Proc,
    reason: string,
    code: number | null = null,
    signal: string | null = null,
  ): void {
    for (const p of [...proc.pending.values()])
      this.settle(proc, p, this.crashed(proc, p, reason, code, signal));
  }

  private settle(proc: Proc, p: Pending, result: InvokeResult): void {
    if (!proc.pending.delete(p.id)) return;
    if (p.timer) clearTimeout(p.timer);
    if (p.loading) this.endLoading(proc, p);
    p.resolve(result);
    if (proc.blocker === p.id) {
      proc.blocker = undefined; // the holder is done: the calls it held get their own grace period
      this.rearmDeferred(proc);
    }
  }

  private kill(proc: Proc): void {
    proc.killedByUs = true;
    if (this.proc === proc) this.proc = undefined;
    if (proc.exited) return;
    if (proc.child.pid !== undefined) killTree(proc.child.pid);
    else proc.child.kill('SIGKILL');
  }

  private elapsed(p: Pending): number {
    return Math.round((performance.now() - p.sentAt) * 1000) / 1000;
  }

  private tail(proc: Proc): string {
    return proc.stderrTail.length ? `:\n${proc.stderrTail.slice(-10).join('\n')}` : '';
  }
}
