// CPython's verdicts remembered across runs: compiling 1,000 hook modules costs python3 ~0.6 s of
// CPU, and a pre-commit or CI check mostly sees files it has judged before. A verdict is a pure
// function of the text and the interpreter (its version decides what is valid syntax), so the
// key is a hash of the text, in one file per interpreter binary and checker script. A verdict
// python3 could not give (crash, timeout) is never stored.
//
// Where: $HOOKSMITH_CACHE_DIR, else $XDG_CACHE_HOME/hooksmith, else ~/.cache/hooksmith
// (%LOCALAPPDATA%\hooksmith\cache on Windows). Any failure to read or write it only means the
// verdicts are asked for again.
import { mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { SyntaxIssue } from './model';
import { findOnPath } from './pyenv';

/** Verdicts kept per interpreter: beyond this, the least recently used go. */
export const MAX_ENTRIES = 20_000;
const FORMAT = 1;

type Stored = SyntaxIssue | null;

interface CacheFile {
  format: number;
  identity: string;
  verdicts: Record<string, Stored>;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.HOOKSMITH_CACHE_DIR) return env.HOOKSMITH_CACHE_DIR;
  if (process.platform === 'win32')
    return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'hooksmith', 'cache') : undefined;
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'hooksmith');
  const home = env.HOME || homedir();
  return home ? join(home, '.cache', 'hooksmith') : undefined;
}

/**
 * What the verdicts depend on besides the text: the interpreter binary (real path, size, mtime:
 * an upgrade in place changes them) and the checker script. Undefined when the interpreter
 * cannot be found on disk (then nothing is cached).
 */
export function interpreterIdentity(executable: string, checkerScript: string): string | undefined {
  const file = executable.includes('/') || executable.includes('\\') ? executable : findOnPath(executable);
  if (!file) return undefined;
  try {
    const real = realpathSync(file);
    const st = statSync(real);
    return `${real}|${st.size}|${Math.round(st.mtimeMs)}|${hash(checkerScript).slice(0, 12)}`;
  } catch {
    return undefined;
  }
}

/** The key of a text (SHA-1 of its UTF-8: a cache key, not a security boundary). */
export function textKey(text: string): string {
  return hash(text);
}

let crypto: typeof import('node:crypto') | undefined;
function hash(text: string): string {
  // Loaded on first use: node:crypto costs ~9 ms to load, and most runs of the bundle never hash.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  crypto ??= require('node:crypto') as typeof import('node:crypto');
  return crypto.createHash('sha1').update(text, 'utf8').digest('hex');
}

export class VerdictCache {
  /** In least recently used order (a hit or a new verdict moves to the end). */
  private readonly verdicts: Map<string, Stored>;
  private dirty = false;
  readonly stats = { hits: 0, misses: 0 };

  private constructor(
    private readonly file: string,
    private readonly identity: string,
    verdicts: Map<string, Stored>,
  ) {
    this.verdicts = verdicts;
  }

  /** The cache for an interpreter identity in `dir`; undefined when there is no directory to use. */
  static open(identity: string, dir = defaultCacheDir()): VerdictCache | undefined {
    if (!dir) return undefined;
    const file = join(dir, `cpython-verdicts-${hash(identity).slice(0, 16)}.json`);
    return new VerdictCache(file, identity, readVerdicts(file, identity));
  }

  /** Verdicts remembered. */
  get size(): number {
    return this.verdicts.size;
  }

  /** The stored verdict (null: compiles), or undefined when this text was never judged. */
  get(key: string): Stored | undefined {
    const v = this.verdicts.get(key);
    if (v === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.verdicts.delete(key);
    this.verdicts.set(key, v);
    this.dirty = true; // its recency changed
    return v;
  }

  /** Remembers python3's verdict; `undefined` (no verdict) is not stored. */
  set(key: string, verdict: SyntaxIssue | null | undefined): void {
    if (verdict === undefined) return;
    this.verdicts.delete(key);
    this.verdicts.set(key, verdict);
    this.dirty = true;
  }

  /** Writes the most recent MAX_ENTRIES verdicts if anything changed (atomically: checks may race). */
  save(): void {
    if (!this.dirty) return;
    const verdicts: Record<string, Stored> = {};
    let skip = this.verdicts.size - MAX_ENTRIES;
    for (const [k, v] of this.verdicts) if (skip-- <= 0) verdicts[k] = v;
    const body: CacheFile = { format: FORMAT, identity: this.identity, verdicts };
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(body));
      renameSync(tmp, this.file);
      this.dirty = false;
    } catch {
      // read-only home, full disk: the next run asks python3 again
    }
  }
}

/** A file larger than MAX_ENTRIES verdicts can be is not ours (or not sane): ignored. */
const MAX_FILE_BYTES = 16 << 20;

function readVerdicts(file: string, identity: string): Map<string, Stored> {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return new Map();
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheFile>;
    if (
      parsed.format !== FORMAT ||
      parsed.identity !== identity ||
      !parsed.verdicts ||
      typeof parsed.verdicts !== 'object'
    )
      return new Map();
    const m = new Map<string, Stored>();
    for (const [k, v] of Object.entries(parsed.verdicts)) if (v === null || isIssue(v)) m.set(k, v);
    return m;
  } catch {
    return new Map(); // none yet, or unreadable / corrupt: start afresh
  }
}

function isIssue(v: unknown): v is SyntaxIssue {
  if (!v || typeof v !== 'object') return false;
  const i = v as SyntaxIssue;
  const pos = (p: unknown) =>
    !!p &&
    typeof (p as { line: unknown }).line === 'number' &&
    typeof (p as { character: unknown }).character === 'number';
  return (
    typeof i.message === 'string' &&
    i.source === 'cpython' &&
    !!i.range &&
    pos(i.range.start) &&
    pos(i.range.end)
  );
}
