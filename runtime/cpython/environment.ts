// What the user's interpreter has installed: which modules an import names can be found
// (import-error), and what the real rasa.mantle.hooks / cayu export with the installed versions
// (unknown-import, completions, not-wired). environment_probe.py answers without executing any
// user module; answers are remembered per interpreter (on disk beside the syntax verdicts), valid
// while the interpreter's sys.path folders keep their mtimes (an install or uninstall changes one).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../workspace/atomic-file';
import { join } from 'node:path';
import { z } from 'zod';
import { directInterpreter } from './pyenv';
import { defaultCacheDir, interpreterIdentity } from './verdict-cache';

const installedModule = z.object({
  names: z.array(z.string()),
  decorators: z.array(z.string()),
  payloads: z.record(z.string(), z.array(z.string())),
  signals: z.array(z.string()),
});
const brokenModule = z.object({ error: z.string() });

const engineFacts = z.object({
  rasaPro: z.string().nullable(),
  cayu: z.string().nullable(),
  mantle: z.union([installedModule, brokenModule]).nullable(),
  cayuHooks: z.union([installedModule, brokenModule]).nullable(),
});

const probeAnswer = z.object({
  modules: z.record(z.string(), z.boolean()),
  engine: engineFacts.nullable(),
  stamps: z.array(z.tuple([z.string(), z.string().nullable()])),
});

export type InstalledModule = z.infer<typeof installedModule>;
export type EngineFacts = z.infer<typeof engineFacts>;
type ProbeAnswer = z.infer<typeof probeAnswer>;

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

export function probeScript(): string {
  const beside = join(__dirname, 'environment_probe.py');
  return existsSync(beside) ? beside : join(__dirname, '..', 'environment_probe.py');
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
  /** Give up on python3 when it answers nothing this long (default 60 s: importing rasa-pro is slow). */
  timeoutMs?: number;
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

  constructor(private readonly opts: EnvironmentOptions = {}) {
    this.python = opts.python || 'python3';
    // PYTHONPATH/PYTHONHOME change sys.path without touching the interpreter: part of the key.
    const base = interpreterIdentity(directInterpreter(this.python), probeScript());
    this.identity = base && `${base}|${process.env.PYTHONPATH ?? ''}|${process.env.PYTHONHOME ?? ''}`;
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
    const answer = await this.ask({ modules: ask, engine: false });
    if (answer) this.merge(answer);
  }

  /** What the real engine modules export, once per interpreter. Undefined: python3 did not answer. */
  engine(): Promise<EngineFacts | undefined> {
    if (this.state?.engine) return Promise.resolve(this.state.engine);
    this.engineAsked ??= this.ask({ modules: [], engine: true }).then((a) => {
      if (!a?.engine) return undefined;
      this.merge(a);
      return a.engine;
    });
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

  private ask(req: ProbeRequest): Promise<ProbeAnswer | undefined> {
    if (this.holding) {
      this.held ??= new Probe(this.python, this.opts.timeoutMs ?? 60_000, this.opts.log);
      return this.held.ask(req);
    }
    const probe = new Probe(this.python, this.opts.timeoutMs ?? 60_000, this.opts.log);
    const answer = probe.ask(req);
    void probe.end();
    return answer;
  }
}

type ProbeRequest = { modules: string[]; engine: boolean };

/** How long python3 may take to exit once its stdin is closed and everything is answered. */
const LINGER_MS = 2000;

/** One python3 running environment_probe.py: one JSON line each way, answered in order until stdin closes. */
class Probe {
  private readonly child: ChildProcess | undefined;
  private readonly waiting: ((a: ProbeAnswer | undefined) => void)[] = [];
  private readonly exited: Promise<void>;
  private buffer = '';
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private ending = false;
  private linger: NodeJS.Timeout | undefined;

  constructor(
    private readonly python: string,
    private readonly timeoutMs: number,
    private readonly log?: (message: string) => void,
  ) {
    let exited = () => undefined as void;
    this.exited = new Promise((resolve) => (exited = resolve));
    const exit = () => {
      this.closed = true;
      clearTimeout(this.linger);
      exited();
    };
    try {
      this.child = spawn(directInterpreter(python), [probeScript()], { stdio: ['pipe', 'pipe', 'ignore'] });
    } catch (err) {
      log?.(`[hooksmith] cannot start ${python}: ${String(err)}`);
      exit();
      return;
    }
    const child = this.child;
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
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.answered(line);
      }
    });
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
    this.linger = setTimeout(() => this.child?.kill('SIGKILL'), LINGER_MS);
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
      this.child?.kill('SIGKILL');
      this.fail('timed out');
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

function hash(text: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
