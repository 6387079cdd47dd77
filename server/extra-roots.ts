// hooksmith.extraAgentRoots, scanned off the request path: the folder walk runs on a worker
// thread (discover-worker.ts), its modules are read one at a time between other messages, and
// each is validated (so published) as it is read. A newer scan (settings changed, a file
// created) supersedes one still under way, whose results are dropped.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { discover, type Discovery } from '../runtime/workspace/discovery';

/** At most this many extra agent roots are scanned (each is a folder walk). */
export const MAX_EXTRA_ROOTS = 64;

/** hooksmith.extraAgentRoots as absolute paths, each once (normalised), at most MAX_EXTRA_ROOTS. */
export function extraRoots(listed: readonly string[], base: string, log: (m: string) => void): string[] {
  const unique = [...new Set(listed.map((r) => path.resolve(base, r)))];
  if (unique.length < listed.length)
    log(`[hooksmith] hooksmith.extraAgentRoots: ${listed.length - unique.length} repeated entr(ies) ignored`);
  if (unique.length > MAX_EXTRA_ROOTS)
    log(
      `[hooksmith] hooksmith.extraAgentRoots: only the first ${MAX_EXTRA_ROOTS} of ${unique.length} roots are read`,
    );
  return unique.slice(0, MAX_EXTRA_ROOTS);
}

export interface ExtraRootsHost {
  log(message: string): void;
  /** Takes the discovered modules as the extra roots' own (the analyser drops ones no longer found). */
  adopt(roots: string[], modules: Set<string>): void;
  /** Reads one module from disk; its key when it is a hook module. */
  load(file: string): string | undefined;
  /** Validates (and publishes) a module. */
  validate(key: string): Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ExtraRootsScanner {
  private generation = 0;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly host: ExtraRootsHost) {}

  /** Starts a scan of `roots` in the background; the returned promise is for tests and shutdown. */
  start(roots: string[]): Promise<void> {
    const gen = ++this.generation;
    if (roots.length)
      this.host.log(`[hooksmith] extra agent roots: scanning ${roots.length} root(s) in the background`);
    this.running = this.scan(gen, roots).catch((err: unknown) =>
      this.host.log(
        `[hooksmith] extra agent roots: scan failed: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
    return this.running;
  }

  /** Ends the scan under way (its results are dropped). */
  dispose(): void {
    this.generation++;
  }

  private async scan(gen: number, roots: string[]): Promise<void> {
    const t0 = performance.now();
    const existing = roots.filter((p) => fs.existsSync(p));
    const found = existing.length ? await discoverOffThread(existing) : { agents: [], unreadable: [] };
    if (gen !== this.generation) return;
    for (const u of found.unreadable) this.host.log(`[hooksmith] cannot read folder ${u.path}: ${u.reason}`);
    if (found.capped)
      this.host.log(`[hooksmith] stopped looking for hook modules after ${found.capped} files and folders`);
    const modules = new Set(found.agents.flatMap((a) => [...a.mantleModules, ...a.cayuModules]));
    this.host.adopt(roots, modules);
    const keys: string[] = [];
    for (const file of modules) {
      await nextTurn(); // requests that arrived meanwhile are answered first
      if (gen !== this.generation) return;
      try {
        const key = this.host.load(file);
        if (key) keys.push(key);
      } catch (err) {
        this.host.log(`[hooksmith] skipped ${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const ms = Math.round(performance.now() - t0);
    if (roots.length)
      this.host.log(
        `[hooksmith] extra agent roots: ${roots.length} root(s), ${keys.length} hook module(s) read in ${ms} ms`,
      );
    for (const key of keys) {
      if (gen !== this.generation) return;
      await this.host.validate(key);
    }
  }
}

/** One discovery on a worker thread; on the server's thread (after a turn) when no worker starts. */
function discoverOffThread(roots: string[]): Promise<Pick<Discovery, 'agents' | 'unreadable' | 'capped'>> {
  const script = path.join(__dirname, 'discover-worker.js');
  if (!fs.existsSync(script)) return nextTurn().then(() => discover(roots));
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { roots } });
    worker.once('message', (d: Discovery) => {
      resolve(d);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the discovery worker exited with code ${code}`));
    });
  });
}
