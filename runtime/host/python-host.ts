// PythonHost owns the long-lived `python3 -u hooksmith_host.py` process: a HARD deadline on the
// hook body, a blocked loop blamed on the call holding it (the host's watchdog names it), and
// restarts: a host a hook blocked, broke or changed is killed with every process under it, and
// the calls only waiting are sent again to a fresh host. No vscode import (CLI and extension).
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { JSON_LIMITS } from '../json/json-faithful';
import { stringifyJson } from '../json/lossless-json';
import {
  judgeDeadline,
  newPending,
  newProc,
  empty,
  label,
  safeSink,
  crashedResult,
  elapsedMs,
  stderrTailText,
  keepStderrLine,
  type Pending,
  type Proc,
  type PythonHostOptions,
} from './host-state';

export type { PythonHostOptions } from './host-state';
import { keepAlive, launch, type PythonHostError } from './host-spawn';
import { oversizedRequest, refusal, refusedRequest } from './wire-checks';
import { readHostLine } from './host-line';
import { CallTimers } from './call-timers';
import { descendantsOf, hasChildren, killGroup, killTree } from '../cpython/process-tree';
import type { HelloInfo, HostRequest, InvokeRequest, InvokeResult } from './protocol';
import { APP_START_LINE } from './protocol';

export { locateHostScript, PythonHostError } from './host-spawn';

// Transfer and parsing, outside the hook's deadline: generous for a loaded machine.
const TRANSFER_MS_PER_MIB = 200;

const MAX_RESENDS = 2;

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
  /** The process of `starting` (a debug run's host waits there for its client until disposed). */
  private launching?: Proc;
  private nextId = 1;
  /** The last hello answer (python version, real or shimmed APIs). */
  info?: HelloInfo;
  /** Milliseconds from spawn to hello, for the last start. */
  lastStartMs?: number;
  /** Number of processes started (1 + restarts). */
  starts = 0;
  /** A debug run's host exited on its own (a hook's os._exit): its debugger went with it, so the
   * replacement runs without one (no client would attach to it and the run would never end). */
  private debuggerGone = false;
  /** Each call's deadline timer; a deadline that fires is judged by onDeadline. */
  private readonly timers: CallTimers;

  constructor(private readonly options: PythonHostOptions = {}) {
    this.python = options.python ?? 'python3';
    this.log = safeSink(options.log);
    this.graceMs = options.graceMs ?? 250;
    this.loadBudgetMs = options.loadBudgetMs ?? 30_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 15_000;
    this.maxLineBytes = options.maxLineBytes ?? 2 * JSON_LIMITS.bytes + 1024 * 1024;
    this.timers = new CallTimers(options, this.graceMs, this.loadBudgetMs, (proc, p) =>
      this.onDeadline(proc, p),
    );
  }

  /** Starts the process if needed and returns its hello. Throws PythonHostError when Python cannot start. */
  async start(): Promise<HelloInfo> {
    await this.ensure();
    return this.info as HelloInfo;
  }

  /** Runs one hook. Never rejects for anything the hook does; rejects only when Python cannot start. */
  async invoke(req: InvokeRequest): Promise<InvokeResult> {
    const refused = refusedRequest(req);
    if (refused) return refusal(refused);
    const id = this.nextId++;
    const line = stringifyJson({ id, op: 'invoke', ...req } satisfies HostRequest)!;
    const oversized = oversizedRequest(line);
    if (oversized) return refusal(oversized);
    return new Promise<InvokeResult>((resolve, reject) => {
      void this.dispatch(newPending(id, req, line, resolve, reject));
    });
  }

  /** Kills the host and everything it started. Pending calls are answered `crashed`. */
  async dispose(): Promise<void> {
    if (this.launching?.child) this.kill(this.launching);
    const proc = this.proc ?? (await this.starting?.catch(() => undefined));
    if (!proc || proc.exited) return;
    const why = 'the host was disposed while this hook ran';
    for (const p of [...proc.pending.values()]) this.settle(proc, p, crashedResult(proc, why, elapsedMs(p)));
    // Keep Node alive until the exit is seen: a CLI awaiting this must get to set its exit code.
    proc.child.ref();
    const exited = new Promise<void>((r) => proc.child.once('exit', () => r()));
    this.kill(proc);
    await exited;
  }

  /** A run ended: processes its hooks left (Linux) end with the host; the next call starts afresh.
   * Not in a debug run: its host (and debugpy's adapter) lives until the session is disposed. */
  endRun(): void {
    const proc = this.proc;
    if (this.options.debug || !proc || proc.exited || proc.pending.size || proc.child.pid === undefined)
      return;
    if (hasChildren(proc.child.pid) === false) return;
    const left = descendantsOf(proc.child.pid).length;
    if (!left) return;
    this.log(`[host] the hooks left ${left} process(es) running: ending the host and its whole tree`);
    this.kill(proc);
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
    this.timers.arm(
      proc,
      p,
      p.req.timeoutMs + this.graceMs + (p.line.length / 1024 / 1024) * TRANSFER_MS_PER_MIB,
    );
    // When it was written, so that a body starting right after needs no `started` message.
    const sent = `${p.line.slice(0, -1)},"sentAt":${Date.now()}}\n`;
    const stdin = proc.child.stdin;
    if (proc.exited || !stdin.writable) return;
    // Calls dispatched together (a point's observers and its modify hook) go in one write.
    if (!stdin.writableCorked) {
      stdin.cork();
      process.nextTick(() => stdin.uncork());
    }
    stdin.write(sent);
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

  private async spawn(): Promise<Proc> {
    const proc = newProc();
    this.starts++;
    this.launching = proc;
    try {
      const debug = this.debuggerGone ? undefined : this.options.debug;
      const { info, ms } = await launch(
        {
          ...this.options,
          debug,
          python: this.python,
          resolvedPython: this.resolvedPython,
          startTimeoutMs: this.startTimeoutMs,
          maxLineBytes: this.maxLineBytes,
        },
        {
          onSpawn: (child) => {
            proc.child = child;
            // Still a debug run (no deadline timers): the calls it answers must keep Node alive.
            if (this.options.debug && !debug) keepAlive(child);
          },
          onLine: (line) => this.onLine(proc, line),
          onOversized: (head, bytes) => this.onOversized(proc, head, bytes),
          onStderr: (line) => {
            if (line === APP_START_LINE) return void (proc.stderrTail.length = 0);
            keepStderrLine(proc, line);
            this.log(`[python] ${line}`);
          },
          onExit: (code, signal) => this.onExit(proc, code, signal),
          tail: () => stderrTailText(proc),
        },
      );
      this.info = info;
      if (info.executable && existsSync(info.executable)) this.resolvedPython = info.executable;
      this.lastStartMs = ms;
      this.proc = proc;
      this.log(
        `[host] started ${info.executable} (Python ${info.python}, pid ${info.pid}) in ${ms.toFixed(0)} ms; rasa.mantle.hooks: ${info.realMantle ? 'real' : 'shim'}, cayu: ${info.realCayu ? 'real' : 'shim'}`,
      );
      return proc;
    } catch (err) {
      proc.killedByUs = true;
      // the resolved interpreter went away: ask for the configured one again
      if ((err as PythonHostError).code === 'not-found') this.resolvedPython = undefined;
      throw err;
    } finally {
      this.launching = undefined;
    }
  }

  private onLine(proc: Proc, line: string): void {
    const msg = readHostLine(line);
    if (msg.kind === 'unparsable') return this.log(`[host] unparsable protocol line: ${line.slice(0, 200)}`);
    if (msg.kind === 'blocking') {
      proc.blocker = msg.id;
      return this.timers.onHookBlocking(proc, msg.id);
    }
    if (msg.kind === 'resumed') {
      proc.blocker = undefined;
      this.timers.onHookBlocking(proc, null);
      return this.timers.rearmDeferred(proc);
    }
    const p = proc.pending.get(msg.id);
    if (msg.kind === 'progress') return p && this.timers.onProgress(proc, p, msg.event);
    if (!p) {
      if (msg.kind === 'protocol-error') this.log(`[host] protocol error: ${msg.message}`);
      return;
    }
    if (msg.kind === 'protocol-error') {
      const result = {
        status: 'invalid-request',
        message: msg.message,
        durationMs: elapsedMs(p),
        output: empty,
      };
      return this.settle(proc, p, result as InvokeResult);
    }
    if (msg.kind === 'replace') {
      // not the hook's outcome: a fresh host runs the call again
      return this.restart(
        proc,
        `${msg.stale ? '' : `the host failed while running ${label(p.req)}: `}${msg.message}`,
      );
    }
    if (msg.kind === 'malformed') {
      // Not the host's writing: code in the host wrote to the protocol descriptor. The call it names
      // crashed; the channel cannot be trusted, so the host restarts and the other calls go again.
      const why = `a malformed answer reached Hooksmith (${msg.why}): code in the host wrote to its protocol channel`;
      this.settle(proc, p, crashedResult(proc, why, elapsedMs(p)));
      return this.restart(proc, why);
    }
    const result = msg.result;
    if (result.status === 'timed-out' && !result.killed) proc.cancelled.set(p.id, label(p.req));
    if (p.starvedBy) result.starvedBy = p.starvedBy;
    if (p.resentWhy) result.resentAfter = p.resentWhy;
    this.settle(proc, p, result);
    if (result.hostChanged?.length)
      this.restart(proc, `${label(p.req)} changed what the host runs on (${result.hostChanged.join(', ')})`);
  }

  private onDeadline(proc: Proc, p: Pending): void {
    p.timer = undefined;
    if (!proc.pending.has(p.id)) return;
    const v = judgeDeadline(proc, p, this.loadBudgetMs);
    if (v.kind === 'defer') {
      p.deferred = true;
      p.starvedBy = v.starvedBy;
      return;
    }
    if (p.hooks && !p.loading) {
      // cayu-real: a hook that blocked the loop past its safety stop, or the runtime's own time ran
      // out, which no hook is to blame for. Never sent again: a whole scenario played once more on
      // a fresh host would only take as long again.
      const during = p.hooks.blocked ? 'hook' : 'runtime';
      this.settle(proc, p, {
        status: 'timed-out',
        killed: true,
        timeoutMs: during === 'hook' ? p.req.hookTimeoutMs! : p.req.timeoutMs,
        during,
        durationMs: elapsedMs(p),
        output: empty,
      });
      return this.restart(
        proc,
        during === 'hook'
          ? `a hook the installed runtime called blocked the event loop past its safety stop (${p.req.hookTimeoutMs} ms)`
          : `the installed runtime's own work ran past ${p.req.timeoutMs} ms`,
      );
    }
    if (v.kind === 'kill') {
      const during = v.guilty.loading ? 'import' : 'hook';
      this.settle(proc, v.guilty, {
        status: 'timed-out',
        killed: true,
        timeoutMs: v.guilty.req.timeoutMs,
        during,
        ...(during === 'import' ? { loadBudgetMs: this.loadBudgetMs } : {}),
        durationMs: elapsedMs(v.guilty),
        output: empty,
      });
    }
    this.restart(proc, v.why);
  }

  /** Kills the host (and its tree); calls it still owed are sent again to a fresh host. */
  private restart(proc: Proc, why: string): void {
    this.log(`[host] restarting the Python host: ${why}`);
    const waiting = [...proc.pending.values()];
    for (const p of waiting) {
      if (p.timer) clearTimeout(p.timer);
      if (p.loading) this.timers.endLoading(proc, p);
      proc.pending.delete(p.id);
    }
    this.kill(proc);
    for (const p of waiting) {
      if (p.resent >= MAX_RESENDS) {
        p.resolve(
          crashedResult(
            proc,
            `the host was restarted ${p.resent + 1} times while this hook waited: ${why}`,
            elapsedMs(p),
          ),
        );
        continue;
      }
      p.resent++;
      p.resentWhy = why;
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
        durationMs: elapsedMs(p),
        output: empty,
      });
  }

  private onExit(proc: Proc, code: number | null, signal: NodeJS.Signals | null): void {
    proc.exited = true;
    // A debug run's pipes are ref'd, and debugpy's adapter (outside the host's group) holds the
    // host's stdout open: they must not keep the CLI alive once the host is gone.
    proc.child.stdin.destroy();
    for (const s of [proc.child.stdout, proc.child.stderr] as unknown as { unref?: () => void }[])
      s.unref?.();
    if (this.proc === proc) this.proc = undefined;
    if (proc.killedByUs) return;
    if (proc.child.pid !== undefined) killGroup(proc.child.pid); // what the hook left behind
    if (this.options.debug && !this.debuggerGone) {
      this.debuggerGone = true;
      this.log('[host] the debugged host exited: the rest of the run goes on without the debugger');
    }
    this.log(`[host] the Python host exited (${signal ?? `code ${code}`})`);
    const exited = `the Python host exited ${signal ? `on ${signal}` : `with code ${code}`}`;
    for (const p of [...proc.pending.values()]) {
      // Exiting while the module imported (os._exit in an installed package): the module does not load.
      const during = p.loading ? 'import' : 'hook';
      const why = `${exited} while ${during === 'import' ? 'its module was imported' : 'this hook ran'}`;
      this.settle(proc, p, { ...crashedResult(proc, why, elapsedMs(p), { code, signal }), during });
    }
  }

  private settle(proc: Proc, p: Pending, result: InvokeResult): void {
    if (!proc.pending.delete(p.id)) return;
    if (p.timer) clearTimeout(p.timer);
    if (p.loading) this.timers.endLoading(proc, p);
    p.resolve(result);
    if (proc.blocker === p.id) {
      proc.blocker = undefined; // the holder is done: the calls it held get their own grace period
      this.timers.rearmDeferred(proc);
    }
  }

  private kill(proc: Proc): void {
    proc.killedByUs = true;
    if (this.proc === proc) this.proc = undefined;
    if (proc.exited) return;
    if (proc.child.pid !== undefined) killTree(proc.child.pid);
    else proc.child.kill('SIGKILL');
  }
}
