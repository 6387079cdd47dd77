// Runs validations one module at a time, most urgent first, and drops stale work. A burst (ten
// large files opened at once, a workspace scan) used to start every validation together: their
// steps interleaved, so the first file's diagnostics waited for every file's parse. Now:
// - `edit`: a changed buffer (debounced), then `open`: opened buffers in the order they were
//   opened, one at a time, each to its publication;
// - `background`: the scan's modules, revalidations after an environment answer, disk changes:
//   one at a time, started only while no edit or open waits or runs. One already running goes on
//   (a large module's validation yields between its steps), so the foreground never waits for it.
// The event loop turns between two validations: the client's messages (an edit, `shutdown`) are
// read there, not after a queue of them.
// The debounce adapts to the module: one that validates in under 30 ms goes on the next turn of
// the event loop (edits read in one chunk still coalesce), a slower one waits a quarter of its
// last validation time (at most 25 ms), so a burst of typing is not queued behind stale runs.
/** Validations slower than this are logged with their timing. */
const SLOW_MS = 250;

/** How urgent a validation is: a changed buffer, an opened one, or anything else. */
export type Priority = 'edit' | 'open' | 'background';

const RANK: Record<Priority, number> = { edit: 0, open: 1, background: 2 };

interface Job {
  key: string;
  priority: Priority;
  done: Promise<void>;
  resolve: () => void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Scheduler {
  private timers = new Map<string, NodeJS.Timeout>();
  private lastMs = new Map<string, number>();
  /** Jobs waiting to run, by key (one per key), in the order they were asked for. */
  private queued = new Map<string, Job>();
  /** The run in progress per key (a pull waits for it rather than starting a second). */
  private running = new Map<string, Promise<void>>();
  /** Whether a foreground (edit, open) and a background job are running. */
  private busy = { foreground: false, background: false };
  private stopped = false;

  constructor(
    private readonly run: (key: string) => Promise<void>,
    private readonly log: (msg: string) => void,
  ) {}

  /** An edit: validated after the debounce, before any open or background work. */
  schedule(key: string, priority: Priority = 'edit'): void {
    if (this.stopped) return;
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    const last = this.lastMs.get(key) ?? 0;
    const delay = last < 30 ? 0 : Math.min(Math.round(last / 4), 25);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.runNow(key, priority);
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
    for (const job of this.queued.values()) job.resolve();
    this.queued.clear();
  }

  /**
   * Resolves when `key`'s queued or running work is done (a pull request waits for the analysis of
   * the version it asks about): a pending run is queued now, a running one is awaited, not repeated.
   */
  async settle(key: string): Promise<void> {
    const running = this.running.get(key);
    if (this.timers.has(key)) {
      this.cancel(key);
      await running;
      return this.runNow(key);
    }
    await running;
    // Queued (behind the background, say): asked for now, it goes before what is not.
    if (this.queued.has(key)) await this.runNow(key, 'edit');
  }

  /**
   * Queues a validation of `key` (one already queued keeps its place, raised to `priority` when
   * that is more urgent); resolves once it ran.
   */
  runNow(key: string, priority: Priority = 'edit'): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const queued = this.queued.get(key);
    if (queued) {
      if (RANK[priority] < RANK[queued.priority]) queued.priority = priority;
      this.drain();
      return queued.done;
    }
    let resolve = () => undefined as void;
    const done = new Promise<void>((r) => (resolve = r));
    this.queued.set(key, { key, priority, done, resolve });
    this.drain();
    return done;
  }

  /** What is queued, most urgent first (for tests and logs). */
  pending(): string[] {
    return [...this.queued.values()].sort((a, b) => RANK[a.priority] - RANK[b.priority]).map((j) => j.key);
  }

  /** Starts each idle lane that has a job it may take now. */
  private drain(): void {
    for (const lane of ['foreground', 'background'] as const)
      if (!this.busy[lane] && !this.stopped && this.take(lane)) void this.loop(lane);
  }

  /** The most urgent queued job of a lane; background only while the foreground has nothing. */
  private take(lane: 'foreground' | 'background'): Job | undefined {
    let best: Job | undefined;
    for (const job of this.queued.values()) {
      // A key being validated is not validated twice at once: its next run waits for this one.
      if (this.running.has(job.key)) continue;
      if ((job.priority === 'background') !== (lane === 'background')) continue;
      if (!best || RANK[job.priority] < RANK[best.priority]) best = job;
    }
    if (lane === 'background' && (this.busy.foreground || this.hasForeground())) return undefined;
    return best;
  }

  private hasForeground(): boolean {
    for (const job of this.queued.values()) if (job.priority !== 'background') return true;
    return false;
  }

  private async loop(lane: 'foreground' | 'background'): Promise<void> {
    this.busy[lane] = true;
    try {
      for (let job = this.take(lane); job && !this.stopped; job = this.take(lane)) {
        this.queued.delete(job.key);
        const run = this.timed(job.key);
        this.running.set(job.key, run);
        await run;
        this.running.delete(job.key);
        job.resolve();
        this.drain(); // a job queued behind this key, in the other lane, may run now
        // The client's messages (an edit, another open, `shutdown`) are read between two modules.
        await nextTurn();
      }
    } finally {
      this.busy[lane] = false;
    }
    this.drain(); // the foreground emptied: the background may start
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
