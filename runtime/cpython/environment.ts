// What the user's interpreter has installed: which modules an import names can be found
// (import-error), and what the real rasa.mantle.hooks / cayu export with the installed versions
// (unknown-import, completions, not-wired). environment_probe.py answers without executing any
// user module; answers are remembered per interpreter (on disk beside the syntax verdicts), valid
// while the interpreter's sys.path folders keep their mtimes (an install or uninstall changes one).
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../workspace/atomic-file';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import {
  engineFacts,
  probeScript,
  type EngineFacts,
  type InstalledModule,
  type ProbeAnswer,
} from './probe-answer';
import { directInterpreter, findOnPath } from './pyenv';
import { Probe, type ProbeRequest } from './env-probe';
import { defaultCacheDir, interpreterIdentity } from './verdict-cache';
import { HANDSHAKE_MS } from './syntax-checker';

export type { EngineFacts, InstalledModule, ProbeAnswer } from './probe-answer';

const cacheFile = z.object({
  identity: z.string(),
  stamps: z.array(z.tuple([z.string(), z.string().nullable()])),
  engine: engineFacts.nullable(),
  modules: z.record(z.string(), z.boolean()),
});
type CacheFile = z.infer<typeof cacheFile>;

/** The installed module when it could be read (not absent, not broken). */
export function readable(m: EngineFacts['mantle']): InstalledModule | undefined {
  return m && 'names' in m ? m : undefined;
}

function stampOf(dir: string): string | null {
  try {
    return statSync(dir, { bigint: true }).mtimeNs.toString();
  } catch {
    return null;
  }
}

export interface EnvironmentOptions {
  python?: string;
  /** Where answers are remembered; undefined: not remembered. */
  cacheDir?: string;
  log?: (message: string) => void;
  /** Give up on python3 when it answers nothing this long (default 15 s, the documented bound for an interpreter). */
  timeoutMs?: number;
}

/** Interpreters given up on in this process (never ready, or hung answering): not waited for twice
 * (run asks once for the engine line and once for the wiring). */
const givenUp = new Map<string, string>();

/** Why `python` was given up on in this process (it never answered), if it was. */
export function gaveUpOn(python: string): string | undefined {
  return givenUp.get(python);
}

/** One interpreter's installed environment, asked for lazily and remembered. */
export class PythonEnvironment {
  readonly python: string;
  private readonly file: string | undefined;
  private readonly identity: string | undefined;
  private state: CacheFile | undefined;
  private engineAsked: Promise<EngineFacts | undefined> | undefined;
  private holding = false;
  private held: Probe | undefined;
  private current: Probe | undefined;
  private readonly queue: { req: ProbeRequest; done: (a: ProbeAnswer | undefined) => void }[] = [];
  private pumping = false;
  private disposed = false;
  private get gaveUp(): string | undefined {
    return givenUp.get(this.python);
  }
  private set gaveUp(why: string | undefined) {
    if (why) givenUp.set(this.python, why);
  }

  constructor(private readonly opts: EnvironmentOptions = {}) {
    this.python = opts.python || 'python3';
    // PYTHONPATH/PYTHONHOME change sys.path without touching the interpreter: part of the key.
    const direct = directInterpreter(this.python);
    const base = interpreterIdentity(direct, probeScript());
    // A venv's python is a link to its base interpreter: the path it is run by finds its own
    // site-packages (pyvenv.cfg beside it), so that path is part of the key too.
    const called = /[/\\]/.test(direct) ? resolve(direct) : (findOnPath(direct) ?? direct);
    this.identity =
      base && `${base}|${called}|${process.env.PYTHONPATH ?? ''}|${process.env.PYTHONHOME ?? ''}`;
    this.file =
      opts.cacheDir && this.identity
        ? join(opts.cacheDir, `environment-${hash(this.identity)}.json`)
        : undefined;
    this.state = this.load();
  }

  static withDefaultCache(opts: Omit<EnvironmentOptions, 'cacheDir'>, cache = true): PythonEnvironment {
    return new PythonEnvironment({ ...opts, ...(cache ? { cacheDir: defaultCacheDir() } : {}) });
  }

  /** A module's resolvability as last known, without asking. */
  known(name: string): boolean | undefined {
    return this.state?.modules[name];
  }

  /** Resolves the names not known yet (one python3 run for all of them). */
  async resolve(names: readonly string[]): Promise<void> {
    const ask = [...new Set(names)].filter((n) => this.known(n) === undefined);
    if (!ask.length) return;
    await this.ask({ modules: ask, engine: false });
  }

  /** What the real engine modules export, once per interpreter. Undefined: python3 did not answer. */
  engine(): Promise<EngineFacts | undefined> {
    if (this.state?.engine) return Promise.resolve(this.state.engine);
    this.engineAsked ??= this.ask({ modules: [], engine: true }).then((a) => a?.engine ?? undefined);
    return this.engineAsked;
  }

  private merge(a: ProbeAnswer): void {
    const same = this.state && JSON.stringify(this.state.stamps) === JSON.stringify(a.stamps);
    const base = same
      ? this.state!
      : { identity: this.identity ?? '', stamps: a.stamps, engine: null, modules: {} };
    this.state = {
      ...base,
      engine: a.engine ?? base.engine,
      modules: { ...base.modules, ...a.modules },
    };
    this.save();
  }

  private load(): CacheFile | undefined {
    if (!this.file) return undefined;
    try {
      const parsed = cacheFile.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      if (!parsed.success || parsed.data.identity !== this.identity) return undefined;
      // An install or uninstall changes a sys.path folder: then everything is asked again.
      if (parsed.data.stamps.some(([dir, stamp]) => stampOf(dir) !== stamp)) return undefined;
      return parsed.data;
    } catch {
      return undefined;
    }
  }

  private save(): void {
    if (!this.file || !this.state) return;
    try {
      mkdirSync(join(this.file, '..'), { recursive: true });
      writeFileAtomic(this.file, JSON.stringify(this.state), { mode: 0o600 });
    } catch {
      // Not remembered: asked again next time.
    }
  }

  /**
   * Until release(), every question goes to one python3: a check asks for the engine as it starts
   * and for its imports once parsed, and pays for one interpreter start, not two.
   */
  hold(): void {
    this.holding = true;
  }

  /** Lets the held python3 exit; resolves once it has (so it is waited for, not orphaned). */
  async release(): Promise<void> {
    this.holding = false;
    const probe = this.held;
    this.held = undefined;
    await probe?.end();
  }

  /** Set once the interpreter never answered its start-up handshake: nothing more is asked of it. */
  get unresponsive(): string | undefined {
    return this.gaveUp;
  }

  /** Ends every python3 this environment runs; later questions get no answer. */
  dispose(): void {
    this.disposed = true;
    this.current?.kill();
    this.held?.kill();
    for (const q of this.queue.splice(0)) q.done(undefined);
  }

  /** Asks python3 and remembers the answer (undefined: it did not answer). */
  private async ask(req: ProbeRequest): Promise<ProbeAnswer | undefined> {
    if (this.gaveUp || this.disposed) return undefined;
    if (this.holding) {
      this.held ??= this.probe();
      const answer = await this.held.ask(req);
      this.gaveUp ??= this.held?.unresponsive;
      if (answer) this.merge(answer);
      return answer;
    }
    return new Promise((done) => {
      this.queue.push({ req, done });
      void this.pump();
    });
  }

  private probe(): Probe {
    return new Probe(this.python, this.opts.timeoutMs ?? HANDSHAKE_MS, this.opts.log);
  }

  /**
   * One python3 at a time per interpreter (a language server asks for each document it opens):
   * the questions that arrive while one runs are asked together by the next.
   */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length && !this.gaveUp && !this.disposed) {
        const batch = this.queue.splice(0);
        const engine = batch.some((q) => q.req.engine);
        const modules = [...new Set(batch.flatMap((q) => q.req.modules))].filter(
          (n) => this.known(n) === undefined,
        );
        let answer: ProbeAnswer | undefined;
        if (engine || modules.length) {
          const probe = (this.current = this.probe());
          answer = await probe.ask({ modules, engine });
          this.current = undefined;
          this.gaveUp ??= probe.unresponsive;
          void probe.end();
          if (answer) this.merge(answer);
        }
        for (const q of batch) q.done(answer);
      }
    } finally {
      this.pumping = false;
      for (const q of this.queue.splice(0)) q.done(undefined);
    }
  }
}

function hash(text: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
