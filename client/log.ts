// The "Hooksmith" output channel, a LogOutputChannel: VS Code stamps every line with its time
// and level (and lets the user filter by level); the prefix says which part wrote it.
// `time()` measures an operation and logs its duration.
import * as vscode from 'vscode';

export type LogLevel = 'info' | 'warn' | 'error';

/** Lines kept in memory for `HooksmithApi.logLines()` (tests read them; the channel has no read API). */
const KEEP_LINES = 500;

export class Logger implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly recent: string[] = [];

  constructor(name = 'Hooksmith') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  write(level: LogLevel, prefix: string, message: string): void {
    const text = `[${prefix}] ${message}`;
    this.channel[level](text);
    const line = `${new Date().toISOString().slice(11, 23)} [${level}] ${text}`;
    this.recent.push(line);
    if (this.recent.length > KEEP_LINES) this.recent.splice(0, this.recent.length - KEEP_LINES);
  }

  /** The last lines written (newest last). */
  lines(): readonly string[] {
    return this.recent;
  }

  info(prefix: string, message: string): void {
    this.write('info', prefix, message);
  }

  warn(prefix: string, message: string): void {
    this.write('warn', prefix, message);
  }

  error(prefix: string, message: string, err?: unknown): void {
    const why =
      err === undefined ? '' : `: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    this.write('error', prefix, message + why);
  }

  /** Runs `work`, logging how long it took (and its failure, rethrown). */
  async time<T>(prefix: string, what: string, work: () => Promise<T>): Promise<T> {
    const t0 = Date.now();
    try {
      const value = await work();
      this.info(prefix, `${what} in ${Date.now() - t0} ms`);
      return value;
    } catch (err) {
      this.error(prefix, `${what} failed after ${Date.now() - t0} ms`, err);
      throw err;
    }
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
