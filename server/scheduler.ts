// Drops stale work: one pending validation per module, restarted by every edit. The delay
// adapts to the module: one that validates in under 30 ms goes on the next turn of the event
// loop (edits read in one chunk still coalesce), a slower one waits a quarter of its last
// validation time (at most 25 ms), so a burst of typing is not queued behind stale runs.
/** Validations slower than this are logged with their timing. */
const SLOW_MS = 250;

export class Scheduler {
  private timers = new Map<string, NodeJS.Timeout>();
  private lastMs = new Map<string, number>();
  /** The run in progress per key (a pull waits for it rather than starting a second). */
  private running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly run: (key: string) => Promise<void>,
    private readonly log: (msg: string) => void,
  ) {}

  schedule(key: string): void {
    if (this.stopped) return;
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    const last = this.lastMs.get(key) ?? 0;
    const delay = last < 30 ? 0 : Math.min(Math.round(last / 4), 25);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.runNow(key);
      }, delay),
    );
  }

  cancel(key: string): void {
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.delete(key);
  }

  /** After `shutdown`: pending work is dropped and no new work starts (the client only sends `exit` now). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * Resolves when `key`'s queued or running work is done (a pull request waits for the analysis of
   * the version it asks about): a pending run starts now, a running one is awaited, not repeated.
   */
  async settle(key: string): Promise<void> {
    const running = this.running.get(key);
    if (this.timers.has(key)) {
      this.cancel(key);
      await running;
      return this.runNow(key);
    }
    await running;
  }

  runNow(key: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const run = this.timed(key).finally(() => {
      if (this.running.get(key) === run) this.running.delete(key);
    });
    this.running.set(key, run);
    return run;
  }

  private async timed(key: string): Promise<void> {
    const t0 = performance.now();
    try {
      await this.run(key);
    } catch (err) {
      this.log(
        `[hooksmith] validation of ${key} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
    }
    const dt = performance.now() - t0;
    this.lastMs.set(key, dt);
    if (dt > SLOW_MS) this.log(`[hooksmith] validated ${key} in ${Math.round(dt)} ms`);
  }
}
