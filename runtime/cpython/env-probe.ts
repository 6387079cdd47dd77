// One python3 running environment_probe.py for runtime/cpython/environment.ts. It must say it is
// ready within HANDSHAKE_MS of starting (an interpreter that never answers is given up on, not
// waited for), then answers one JSON line per question. Every probe still running when this
// process exits is killed, so none outlives a language server or a CLI run.
import { spawn, type ChildProcess } from 'node:child_process';
import { probeAnswer, probeScript, type ProbeAnswer } from './probe-answer';
import { directInterpreter, killInterpreter, OWN_GROUP } from './pyenv';
import { killTree } from './process-tree';
import { HANDSHAKE_MS } from './syntax-checker';

export type ProbeRequest = { modules: string[]; engine: boolean };

/** How long python3 may take to exit once its stdin is closed and everything is answered. */
const LINGER_MS = 2000;

/**
 * Ends the probe and everything its imports started. Its group kill alone does not reach a setsid
 * daemon an installed engine's import forked; the probe is a child subreaper, so that daemon is
 * its descendant while it lives, and is found and killed with it — even when the probe is killed
 * mid-import (timed out, never ready), before it could end them itself (#44 item 17).
 */
function killProbe(child: ChildProcess): void {
  if (process.platform === 'linux' && child.pid !== undefined && child.exitCode === null) killTree(child.pid);
  else killInterpreter(child);
}

const live = new Set<ChildProcess>();
let exitHookSet = false;
function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHookSet) return;
  exitHookSet = true;
  process.once('exit', () => {
    for (const c of live) killProbe(c);
  });
}

/** One python3 running environment_probe.py: one JSON line each way, answered in order until stdin closes. */
export class Probe {
  private readonly child: ChildProcess | undefined;
  private readonly waiting: ((a: ProbeAnswer | undefined) => void)[] = [];
  private readonly exited: Promise<void>;
  private buffer = '';
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private ending = false;
  private linger: NodeJS.Timeout | undefined;
  private handshake: NodeJS.Timeout | undefined;
  /** Set when python3 never said it was ready, or hung answering: why, in words. */
  unresponsive: string | undefined;

  constructor(
    private readonly python: string,
    private readonly timeoutMs: number,
    private readonly log?: (message: string) => void,
  ) {
    let exited = () => undefined as void;
    this.exited = new Promise((resolve) => (exited = resolve));
    const exit = () => {
      this.closed = true;
      clearTimeout(this.handshake);
      clearTimeout(this.linger);
      exited();
    };
    try {
      this.child = spawn(directInterpreter(python), [probeScript()], {
        stdio: ['pipe', 'pipe', 'ignore'],
        ...OWN_GROUP,
      });
    } catch (err) {
      log?.(`[hooksmith] cannot start ${python}: ${String(err)}`);
      exit();
      return;
    }
    const child = this.child;
    track(child);
    this.handshake = setTimeout(() => {
      this.unresponsive = `${python} did not answer within ${HANDSHAKE_MS / 1000} s of starting`;
      this.kill(this.unresponsive);
    }, HANDSHAKE_MS);
    child.on('error', (err) => {
      this.fail(err.message);
      exit();
    });
    child.on('close', () => {
      this.fail('no answer');
      exit();
    });
    child.stdin!.on('error', () => undefined);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      this.buffer += chunk;
      clearTimeout(this.handshake); // it runs: its first line is the ready line
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.answered(line);
      }
    });
  }

  /** Ends python3 now (dispose, an unresponsive interpreter); questions waiting get no answer. */
  kill(why = 'stopped'): void {
    clearTimeout(this.handshake);
    if (this.child) killProbe(this.child);
    this.fail(why);
  }

  ask(req: ProbeRequest): Promise<ProbeAnswer | undefined> {
    const stdin = this.child?.stdin;
    if (this.closed || !stdin?.writable) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      stdin.write(JSON.stringify(req) + '\n');
      this.arm();
    });
  }

  /**
   * Closes python3's stdin: it exits once it has answered. Resolves when it has exited; one that
   * lingers once everything is answered (a thread an imported package started) is killed.
   */
  end(): Promise<void> {
    this.ending = true;
    this.child?.stdin?.end();
    this.lingerUnlessWaiting();
    return this.exited;
  }

  private lingerUnlessWaiting(): void {
    if (!this.ending || this.waiting.length || this.closed || this.linger) return;
    this.linger = setTimeout(() => this.child && killProbe(this.child), LINGER_MS);
  }

  private answered(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return; // not an answer: something an imported package wrote to the real stdout
    }
    if (typeof json !== 'object' || json === null || !('stamps' in json)) return;
    const parsed = probeAnswer.safeParse(json);
    if (!parsed.success)
      this.log?.(`[hooksmith] ${this.python} could not read the environment: unexpected answer`);
    this.waiting.shift()?.(parsed.success ? parsed.data : undefined);
    this.arm();
    this.lingerUnlessWaiting();
  }

  /** A python3 that answers nothing for timeoutMs while questions wait is killed (importing rasa-pro is slow). */
  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.waiting.length) return;
    this.timer = setTimeout(() => {
      // Named, and given up on: an installed package whose import hangs would hang every question.
      this.unresponsive = `${this.python} did not answer within ${this.timeoutMs / 1000} s while reading the installed environment (an installed engine whose import hangs?)`;
      if (this.child) killProbe(this.child);
      this.fail(this.unresponsive);
    }, this.timeoutMs);
  }

  private fail(why: string): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.waiting.length) return;
    this.log?.(`[hooksmith] ${this.python} could not read the environment: ${why}`);
    for (const done of this.waiting.splice(0)) done(undefined);
  }
}
