// When the language server dies, restart it — unless it keeps dying: at most `maxRestarts`
// crashes within `windowMs`, then give up and let the user decide. No `vscode` import, so
// unit tests can drive it with their own clock.
export interface RestartPolicyOptions {
  maxRestarts: number;
  windowMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = { maxRestarts: 4, windowMs: 3 * 60_000 };

export type CrashVerdict = { action: 'restart'; attempt: number } | { action: 'give-up'; crashes: number };

export class RestartPolicy {
  private crashes: number[] = [];

  constructor(private readonly options: RestartPolicyOptions = DEFAULT_RESTART_POLICY) {}

  /** Records a crash at `now` (ms) and says whether to restart. */
  crashed(now: number): CrashVerdict {
    this.crashes = this.crashes.filter((t) => now - t < this.options.windowMs);
    this.crashes.push(now);
    if (this.crashes.length > this.options.maxRestarts)
      return { action: 'give-up', crashes: this.crashes.length };
    return { action: 'restart', attempt: this.crashes.length };
  }

  /** Forgets past crashes (after the user restarts the server by hand). */
  reset(): void {
    this.crashes = [];
  }
}
