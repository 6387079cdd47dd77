// PythonHost owns the long-lived `python3 -u hooksmith_host.py` process: handshake,
// invoke with a HARD deadline (a hook that blocks the event loop gets the process group
// SIGKILLed, its caller `timed-out` with killed: true, other callers `crashed`), and a
// lazy restart so the next call works. No vscode import: shared by the CLI and extension.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pyenvTarget } from '../cpython/pyenv';
import { LineSplitter } from './line-splitter';
import type {
  CrashedResult,
  HelloInfo,
  HostRequest,
  InvokeRequest,
  InvokeResult,
  TimedOutResult,
} from './protocol';

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
  /** Longest protocol line accepted from the host (default 8 MiB). */
  maxLineBytes?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

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

interface Pending {
  id: number;
  req: InvokeRequest;
  resolve: (r: InvokeResult) => void;
  sentAt: number;
  timer?: NodeJS.Timeout;
  loading: boolean;
  /** Its deadline passed while another request was importing: re-armed when imports end. */
  deferred: boolean;
}

/** One spawned host process and the requests in flight on it. */
interface Proc {
  child: ChildProcessWithoutNullStreams;
  pending: Map<number, Pending>;
  loadingCount: number;
  stderrTail: string[];
  /** Set when we kill it on purpose, so the exit handler does not report again. */
  killedByUs: boolean;
  exited: boolean;
  hello?: (info: HelloInfo) => void;
}

const STDERR_TAIL_LINES = 40;
const MAX_STDERR_LINE = 4096;

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
    this.maxLineBytes = options.maxLineBytes ?? 8 * 1024 * 1024;
  }

  /** Starts the process if needed and returns its hello. Throws PythonHostError when Python cannot start. */
  async start(): Promise<HelloInfo> {
    await this.ensure();
    return this.info as HelloInfo;
  }

  /** Runs one hook. Never rejects for anything the hook does; rejects only when Python cannot start. */
  async invoke(req: InvokeRequest): Promise<InvokeResult> {
    if (!Number.isFinite(req.timeoutMs) || req.timeoutMs < 0) {
      return {
        status: 'invalid-request',
        message: `timeoutMs must be a finite number ≥ 0, got ${String(req.timeoutMs)}`,
        durationMs: 0,
        output: { text: '', droppedChars: 0 },
      };
    }
    let proc = await this.ensure();
    if (proc.exited) proc = await this.ensure(); // it died between start and now: one fresh start
    return new Promise<InvokeResult>((resolve) => {
      const id = this.nextId++;
      const p: Pending = { id, req, resolve, sentAt: performance.now(), loading: false, deferred: false };
      proc.pending.set(id, p);
      this.arm(proc, p, req.timeoutMs + this.graceMs);
      this.write(proc, { id, op: 'invoke', ...req });
    });
  }

  /** Asks the host to exit, then kills it if it does not. Pending calls are answered `crashed`. */
  async dispose(): Promise<void> {
    const proc = this.proc ?? (await this.starting?.catch(() => undefined));
    if (!proc || proc.exited) return;
    this.failAll(proc, null, null, 'the host was disposed while this hook ran');
    proc.killedByUs = true;
    if (this.proc === proc) this.proc = undefined;
    const exited = new Promise<void>((r) => proc.child.once('exit', () => r()));
    this.write(proc, { id: 0, op: 'shutdown' });
    const timer = setTimeout(() => this.kill(proc), 1000);
    await exited;
    clearTimeout(timer);
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
    const script = this.options.hostScript ?? locateHostScript();
    const t0 = performance.now();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.options.env,
      PYTHONUNBUFFERED: '1',
      PYTHONIOENCODING: 'utf-8',
      PYTHONDONTWRITEBYTECODE: '1',
    };
    // A pyenv shim's interpreter, started directly (no bash in between), with its bin directory first
    // on PATH as `pyenv exec` would put it.
    const shimTarget = this.resolvedPython
      ? undefined
      : pyenvTarget(this.python, { env, cwd: this.options.cwd });
    if (shimTarget) env.PATH = `${dirname(shimTarget)}${delimiter}${env.PATH ?? ''}`;
    const child = spawn(this.resolvedPython ?? shimTarget ?? this.python, ['-u', script], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // its own process group: a kill takes the hook's children too
      windowsHide: true,
      cwd: this.options.cwd,
      env,
    });
    const proc: Proc = {
      child,
      pending: new Map(),
      loadingCount: 0,
      stderrTail: [],
      killedByUs: false,
      exited: false,
    };
    this.starts++;
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr] as unknown as { unref?: () => void }[])
      s.unref?.();
    child.stdin.on('error', () => undefined); // EPIPE after a crash: the exit handler reports it

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
      this.write(proc, { id: 0, op: 'hello' });
    });
  }

  private write(proc: Proc, msg: HostRequest): void {
    if (proc.exited || !proc.child.stdin.writable) return;
    proc.child.stdin.write(JSON.stringify(msg) + '\n');
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
    const p = proc.pending.get(id);
    if (msg.event === 'loading' || msg.event === 'started') {
      if (p) this.onProgress(proc, p, msg.event);
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
        output: { text: '', droppedChars: 0 },
      });
      return;
    }
    delete msg.id;
    this.settle(proc, p, msg as unknown as InvokeResult);
  }

  private onProgress(proc: Proc, p: Pending, event: 'loading' | 'started'): void {
    if (event === 'loading' && !p.loading) {
      p.loading = true;
      proc.loadingCount++;
      this.arm(proc, p, this.loadBudgetMs);
    } else if (event === 'started') {
      this.endLoading(proc, p);
      this.arm(proc, p, p.req.timeoutMs + this.graceMs);
    }
  }

  private endLoading(proc: Proc, p: Pending): void {
    if (!p.loading) return;
    p.loading = false;
    proc.loadingCount--;
    if (proc.loadingCount > 0) return;
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
    if (!proc.pending.has(p.id)) return;
    if (!p.loading && proc.loadingCount > 0) {
      p.deferred = true; // another request's import holds the loop: not this hook's fault yet
      return;
    }
    const during = p.loading ? 'import' : 'hook';
    const what =
      during === 'import'
        ? `importing ${p.req.file} took more than ${this.loadBudgetMs} ms`
        : `${p.req.file}::${p.req.handler} blocked the event loop past its ${p.req.timeoutMs} ms deadline`;
    this.log(`[host] killing the Python host: ${what}`);
    const timedOut: TimedOutResult = {
      status: 'timed-out',
      killed: true,
      timeoutMs: p.req.timeoutMs,
      during,
      durationMs: this.elapsed(p),
      output: { text: '', droppedChars: 0 },
    };
    this.settle(proc, p, timedOut);
    this.failAll(proc, null, 'SIGKILL', `host restarted: ${what}`);
    this.kill(proc);
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
        output: { text: '', droppedChars: 0 },
      });
  }

  private onStderr(proc: Proc, line: string): void {
    proc.stderrTail.push(line);
    if (proc.stderrTail.length > STDERR_TAIL_LINES) proc.stderrTail.shift();
    this.log(`[python] ${line}`);
  }

  private onExit(proc: Proc, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.proc === proc) this.proc = undefined;
    if (!proc.killedByUs) {
      this.log(`[host] the Python host exited (${signal ?? `code ${code}`})`);
      this.failAll(
        proc,
        code,
        signal,
        `the Python host exited ${signal ? `on ${signal}` : `with code ${code}`} while this hook ran`,
      );
    }
  }

  private failAll(proc: Proc, exitCode: number | null, signal: string | null, reason: string): void {
    for (const p of [...proc.pending.values()]) {
      const crashed: CrashedResult = {
        status: 'crashed',
        exitCode,
        signal,
        reason,
        stderrTail: proc.stderrTail.join('\n'),
        durationMs: this.elapsed(p),
        output: { text: '', droppedChars: 0 },
      };
      this.settle(proc, p, crashed);
    }
  }

  private settle(proc: Proc, p: Pending, result: InvokeResult): void {
    if (!proc.pending.delete(p.id)) return;
    if (p.timer) clearTimeout(p.timer);
    if (p.loading) this.endLoading(proc, p);
    p.resolve(result);
  }

  private kill(proc: Proc): void {
    proc.killedByUs = true;
    if (this.proc === proc) this.proc = undefined;
    if (proc.exited) return;
    try {
      if (proc.child.pid !== undefined) process.kill(-proc.child.pid, 'SIGKILL');
    } catch {
      proc.child.kill('SIGKILL');
    }
  }

  private elapsed(p: Pending): number {
    return Math.round((performance.now() - p.sentAt) * 1000) / 1000;
  }

  private tail(proc: Proc): string {
    return proc.stderrTail.length ? `:\n${proc.stderrTail.slice(-10).join('\n')}` : '';
  }
}
