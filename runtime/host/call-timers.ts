// The deadline timer of each call on a host, armed anew at each phase of the call (sent, its module
// loading, its body started, its answer on the way), moved while a hook blocks the loop (cayu-real),
// and re-armed for the calls deferred behind what held the loop. Kept apart from python-host.ts,
// which judges what a deadline that fires means (its onDeadline).
import { performance } from 'node:perf_hooks';
import type { Pending, Proc, PythonHostOptions } from './host-state';

// Transfer and parsing, outside the hook's deadline: generous for a loaded machine.
const ANSWER_BUDGET_MS = 15_000;
/** cayu-real: how long past a hook's safety stop a hook that blocks the loop may hold it before the kill. */
const HOOK_GRACE_MS = 2_000;

export class CallTimers {
  constructor(
    private readonly options: Pick<PythonHostOptions, 'debug'>,
    private readonly graceMs: number,
    private readonly loadBudgetMs: number,
    private readonly onDeadline: (proc: Proc, p: Pending) => void,
  ) {}

  onProgress(proc: Proc, p: Pending, event: string): void {
    if (event === 'loading' && !p.loading) {
      p.loading = true;
      proc.loadingCount++;
      this.arm(proc, p, this.loadBudgetMs);
    } else if (event === 'started') {
      this.endLoading(proc, p);
      this.arm(proc, p, p.req.timeoutMs + this.graceMs);
      if (p.req.hookTimeoutMs !== undefined)
        p.hooks = { blocked: false, deadlineAt: performance.now() + p.req.timeoutMs + this.graceMs };
    } else if (event === 'ended') {
      p.hooks = undefined;
      this.arm(proc, p, ANSWER_BUDGET_MS); // serialising the value and carrying it back
    }
  }

  /**
   * cayu-real: a hook of `p` holds the stalled loop (the watchdog names the request whose hook
   * frame the main thread is in): its safety stop is the deadline now, as a hook that blocks cannot
   * be stopped from inside; once the loop runs again, the scenario's own deadline is back.
   */
  onHookBlocking(proc: Proc, id: number | null): void {
    for (const p of proc.pending.values()) {
      const h = p.hooks;
      if (!h || p.req.hookTimeoutMs === undefined) continue;
      if (p.id === id && !h.blocked) {
        h.blocked = true;
        this.arm(proc, p, p.req.hookTimeoutMs + HOOK_GRACE_MS);
      } else if (p.id !== id && h.blocked) {
        h.blocked = false;
        this.arm(proc, p, h.deadlineAt - performance.now());
      }
    }
  }

  endLoading(proc: Proc, p: Pending): void {
    if (!p.loading) return;
    p.loading = false;
    proc.loadingCount--;
    if (proc.loadingCount === 0) this.rearmDeferred(proc);
  }

  /** What held the loop has let go: the calls that waited get a grace period of their own. */
  rearmDeferred(proc: Proc): void {
    for (const other of proc.pending.values()) {
      if (other.deferred) {
        other.deferred = false;
        this.arm(proc, other, this.graceMs);
      }
    }
  }

  arm(proc: Proc, p: Pending, ms: number): void {
    if (p.timer) clearTimeout(p.timer);
    if (this.options.debug) return; // a debug run enforces no deadline: a paused hook is not a blocked one
    p.timer = setTimeout(() => this.onDeadline(proc, p), Math.min(Math.max(0, ms), 2_147_483_647));
  }
}
