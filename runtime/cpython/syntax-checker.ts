// CPython's verdict on syntax: tree-sitter accepts some invalid code (`def f(a=1, b): ...`,
// a block with no indented body), so we ask the user's python3 to `compile()` the source.
//
// One python3 process (syntax_checker.py, one JSON line each way) answers many requests, so a
// check of many files costs one interpreter start. The language server keeps one checker alive;
// the CLI makes one per run. Without python3 every answer is `undefined` and the reason is
// logged once.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookModule, SyntaxIssue } from '../python/model';
import { directInterpreter, killInterpreter, OWN_GROUP } from './pyenv';
import { interpreterIdentity } from './verdict-cache';

/** CPython's word on a text: the issue, null (it compiles), undefined (no verdict: no python3). */
export type Verdict = SyntaxIssue | null | undefined;

/**
 * The model with CPython's verdict applied: CPython is the authority (it is what the engine
 * runs, and tree-sitter may reject syntax newer than its grammar); without a verdict
 * tree-sitter's errors stand.
 */
export function withVerdict(module: HookModule, verdict: Verdict): HookModule {
  return verdict === undefined ? module : { ...module, syntaxErrors: verdict ? [verdict] : [] };
}

/** syntax_checker.py: beside this file, or beside the bundle (dist/, where scripts/build.mjs copies it). */
export function checkerScript(): string {
  const beside = join(__dirname, 'syntax_checker.py');
  return existsSync(beside) ? beside : join(__dirname, '..', 'syntax_checker.py');
}

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

interface Message {
  ready?: boolean;
  reason?: string;
  version?: string;
  executable?: string;
  id?: number;
  issue?: Answer | null;
}

/** One start of python3: its start-up handshake settles exactly once. */
interface StartAttempt {
  readonly python: string;
  settled: boolean;
  readonly resolve: (ok: boolean) => void;
  handshake?: NodeJS.Timeout;
  /** The last 2000 characters python3 wrote to stderr, for the reason it exited. */
  stderr: string;
}

/** How long an interpreter may take to start and say it is ready (a loaded machine is slow). */
export const HANDSHAKE_MS = 15_000;

/** A long-lived python3 answering syntax checks; restarts itself after a crash or timeout. */
export class CpythonSyntaxChecker {
  private proc: ChildProcessWithoutNullStreams | undefined;
  private ready: Promise<boolean> | undefined;
  private pending = new Map<number, (a: Answer | null | undefined) => void>();
  private nextId = 1;
  private buffer = '';
  private watchdog: NodeJS.Timeout | undefined;
  private _unavailable: string | undefined;
  private _unresponsive: string | undefined;
  private _version: string | undefined;
  private direct: string | undefined;

  constructor(private readonly opts: CpythonOptions = {}) {}

  /** Why python3 cannot be used (after a failed start), else undefined. */
  get unavailableReason(): string | undefined {
    return this._unavailable;
  }

  /** Set when the interpreter started but never answered its start-up handshake: why, in words. */
  get unresponsiveReason(): string | undefined {
    return this._unresponsive;
  }

  /** The python3 process's id while it runs. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** CPython's version, once started. */
  get version(): string | undefined {
    return this._version;
  }

  /**
   * What CPython's verdicts depend on besides the text (verdict-cache.ts): the interpreter binary
   * and the checker script; undefined when the interpreter is not found.
   */
  verdictIdentity(): string | undefined {
    let script: string;
    try {
      script = readFileSync(checkerScript(), 'utf8');
    } catch {
      return undefined;
    }
    return interpreterIdentity(this.executable(), script);
  }

  /** What to spawn: the interpreter an earlier start reported, else the configured one past a pyenv shim. */
  private executable(): string {
    const python = this.opts.python ?? 'python3';
    return resolvedExecutables.get(python) ?? (this.direct ??= directInterpreter(python));
  }

  /** Starts python3 now, so that its start-up overlaps the caller's own work. */
  warm(): void {
    void this.start();
  }

  /** Null: compiles. Undefined: no verdict (python3 unavailable, crashed or timed out). */
  async check(text: string, path: string): Promise<Verdict> {
    const [r] = this.checkEach([{ path, text }]);
    return r;
  }

  /**
   * One verdict promise per file, settled as python3 answers (in order): callers can use the
   * first verdicts while it still compiles the rest. The promises never reject.
   */
  checkEach(files: readonly { path: string; text: string }[]): Promise<Verdict>[] {
    if (files.length === 0) return [];
    const started = this.start();
    const proc = this.proc;
    if (!proc) return files.map(() => Promise.resolve(undefined));
    // Written at once, before python3 is ready: the pipe and the stream buffer hold them.
    const lines: string[] = [];
    const answers = files.map((f) => {
      const id = this.nextId++;
      lines.push(JSON.stringify({ id, path: f.path, source: f.text }));
      return new Promise<Answer | null | undefined>((resolve) => this.pending.set(id, resolve)).then((a) =>
        a ? toIssue(a) : a,
      );
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
    this.ready = new Promise<boolean>((resolve) =>
      this.launch({ python: this.opts.python ?? 'python3', settled: false, resolve, stderr: '' }),
    );
    return this.ready;
  }

  /** Spawns the checker and wires its streams to one start attempt. */
  private launch(attempt: StartAttempt): void {
    const proc = this.spawnChecker(attempt);
    if (!proc) return;
    this.proc = proc;
    const { python } = attempt;
    // An interpreter that never says it is ready (a wrapper that hangs) is given up on.
    attempt.handshake = setTimeout(() => {
      if (attempt.settled) return;
      this._unresponsive = `${python} did not answer within ${HANDSHAKE_MS / 1000} s of starting`;
      this.fail(attempt, this._unresponsive);
    }, HANDSHAKE_MS);
    attempt.handshake.unref();
    proc.on('error', (err) => this.fail(attempt, `cannot start ${python}: ${err.message}`));
    proc.stdin.on('error', () => undefined); // EPIPE after a crash: reported through 'exit'
    proc.stderr.on('data', (d: Buffer) => (attempt.stderr = (attempt.stderr + d.toString()).slice(-2000)));
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => this.onOutput(chunk, attempt));
    proc.on('exit', (code, signal) => this.onExit(proc, attempt, code, signal));
  }

  private spawnChecker(attempt: StartAttempt): ChildProcessWithoutNullStreams | undefined {
    try {
      // -I: ignore the user's environment and site dir; -S: no site import either; the checker
      // needs only the standard library. child_process is loaded on first use: a check whose
      // verdicts are all remembered never needs it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
      const { spawn } = require('node:child_process') as typeof import('node:child_process');
      return spawn(this.executable(), ['-I', '-S', checkerScript()], {
        stdio: 'pipe',
        windowsHide: true,
        ...OWN_GROUP,
      });
    } catch (err) {
      this.fail(attempt, `cannot start ${attempt.python}: ${(err as Error).message}`);
      return undefined;
    }
  }

  private fail(attempt: StartAttempt, reason: string): void {
    this._unavailable = reason;
    warnOnce(reason, this.opts.log);
    if (!attempt.settled) attempt.resolve(false);
    attempt.settled = true;
    this.stop();
  }

  /** Splits python3's output into JSON lines; a line that is not JSON is skipped. */
  private onOutput(chunk: string, attempt: StartAttempt): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      let msg: Message;
      try {
        msg = JSON.parse(line) as Message;
      } catch {
        continue;
      }
      this.onMessage(msg, attempt);
    }
  }

  private onMessage(msg: Message, attempt: StartAttempt): void {
    if (msg.ready !== undefined && !attempt.settled) {
      attempt.settled = true;
      clearTimeout(attempt.handshake);
      if (msg.ready) {
        this._version = msg.version;
        // Later starts skip launchers such as pyenv shims.
        if (msg.executable) resolvedExecutables.set(attempt.python, msg.executable);
        attempt.resolve(true);
      } else this.fail(attempt, `${attempt.python}: ${msg.reason ?? 'unusable'}`);
    } else if (msg.id !== undefined) {
      const done = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      done?.(msg.issue ?? null);
      this.armWatchdog();
    }
  }

  private onExit(
    proc: ChildProcessWithoutNullStreams,
    attempt: StartAttempt,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    if (this.proc !== proc) {
      // Stopped by us (close() while it was still starting): not a reason to give up on python3.
      if (!attempt.settled) attempt.resolve(false);
      attempt.settled = true;
      return;
    }
    if (!attempt.settled) {
      const why = signal ?? `code ${code}`;
      this.fail(
        attempt,
        `${attempt.python} exited before answering (${why}): ${attempt.stderr.trim().slice(0, 300)}`,
      );
    }
    this.stop();
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
    if (proc && proc.exitCode === null && proc.signalCode === null) killInterpreter(proc);
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
  (log ?? ((m: string) => process.stderr.write(m + '\n')))(
    `[hooksmith] syntax is checked by tree-sitter only: ${reason}`,
  );
}

/** CPython's verdict for many files with one short-lived process; undefined entries: no verdict. */
export async function checkSyntaxMany(
  files: readonly { path: string; text: string }[],
  opts: CpythonOptions = {},
): Promise<Verdict[]> {
  const checker = new CpythonSyntaxChecker(opts);
  try {
    return await Promise.all(checker.checkEach(files));
  } finally {
    checker.close();
  }
}
