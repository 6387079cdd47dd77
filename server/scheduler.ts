// Drops stale work: one pending validation per module, restarted by every edit. The delay
// adapts to the module: a module that validates in a few milliseconds goes on the next
// turn of the event loop (coalescing a burst of edits read in one chunk), a slow one waits
// about as long as its last validation took, so typing is not queued behind stale runs.
export class Scheduler {
  private timers = new Map<string, NodeJS.Timeout>();
  private lastMs = new Map<string, number>();

  constructor(
    private readonly run: (key: string) => Promise<void>,
    private readonly log: (msg: string) => void,
  ) {}

  schedule(key: string): void {
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    const last = this.lastMs.get(key) ?? 0;
    const delay = last < 8 ? 0 : Math.min(last, 40);
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

  async runNow(key: string): Promise<void> {
    const t0 = performance.now();
    try {
      await this.run(key);
    } catch (err) {
      this.log(`[hooksmith] validation of ${key} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    }
    this.lastMs.set(key, performance.now() - t0);
  }
}
