// CPython's verdicts remembered across runs: a pre-commit or CI check mostly sees files it has
// judged before. A verdict is a pure function of the text and the interpreter (its version
// decides what is valid syntax), so there is one file per interpreter binary and checker script.
// A verdict python3 could not give (crash, timeout) is never stored.
//
// The file is not trusted: every entry is keyed and signed with a secret kept beside it (`key`,
// readable by its owner only), so a forged or copied entry — a `null` hiding a syntax error, a
// message with terminal escapes — is simply a miss and python3 is asked again.
//
// Where: $HOOKSMITH_CACHE_DIR, else $XDG_CACHE_HOME/hooksmith, else ~/.cache/hooksmith
// (%LOCALAPPDATA%\hooksmith\cache on Windows). Any failure to read or write it only means the
// verdicts are asked for again.
import { mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { SyntaxIssue } from '../python/model';
import { withFileLock, writeFileAtomic } from '../workspace/atomic-file';
import { findOnPath } from './pyenv';

/** Verdicts kept per interpreter: beyond this, the least recently used go. */
export const MAX_ENTRIES = 20_000;
const FORMAT = 2;
/** A file larger than MAX_ENTRIES verdicts can be is not ours (or not sane): ignored. */
const MAX_FILE_BYTES = 16 << 20;
const MAX_MESSAGE = 2000;

type Stored = SyntaxIssue | null;
/** An entry as written: the verdict and its signature. */
type Entry = [Stored, string];

interface CacheFile {
  format: number;
  identity: string;
  verdicts: Record<string, Entry>;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.HOOKSMITH_CACHE_DIR) return env.HOOKSMITH_CACHE_DIR;
  if (process.platform === 'win32')
    return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'hooksmith', 'cache') : undefined;
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'hooksmith');
  const home = env.HOME || homedir();
  return home ? join(home, '.cache', 'hooksmith') : undefined;
}

let crypto: typeof import('node:crypto') | undefined;
/** node:crypto, loaded on first use: most runs of the bundle never hash. */
function nodeCrypto(): typeof import('node:crypto') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  return (crypto ??= require('node:crypto') as typeof import('node:crypto'));
}

function sha256(text: string): string {
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex');
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
    return `${real}|${st.size}|${Math.round(st.mtimeMs)}|${sha256(checkerScript).slice(0, 12)}`;
  } catch {
    return undefined;
  }
}

/**
 * The secret in `dir`/key, made on first use. Undefined (nothing is remembered) when it cannot be
 * made, or when others could read or replace it: a key from a checkout or a shared folder proves
 * nothing.
 */
function secretIn(dir: string): Buffer | undefined {
  const file = join(dir, 'key');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, nodeCrypto().randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    const st = statSync(file);
    if (!st.isFile() || (process.platform !== 'win32' && (st.mode & 0o077) !== 0)) return undefined;
    if (process.getuid && st.uid !== process.getuid()) return undefined;
    const hex = readFileSync(file, 'utf8');
    return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  } catch {
    return undefined;
  }
}

export class VerdictCache {
  /** In least recently used order (a hit or a new verdict moves to the end). */
  private readonly verdicts: Map<string, Entry>;
  private dirty = false;
  readonly stats = { hits: 0, misses: 0 };

  private constructor(
    private readonly file: string,
    private readonly identity: string,
    private readonly secret: Buffer,
  ) {
    this.verdicts = readEntries(file, identity);
  }

  /** The cache for an interpreter identity in `dir`; undefined when there is no directory to use. */
  static open(identity: string, dir = defaultCacheDir()): VerdictCache | undefined {
    const secret = dir === undefined ? undefined : secretIn(dir);
    if (!dir || !secret) return undefined;
    return new VerdictCache(
      join(dir, `cpython-verdicts-${sha256(identity).slice(0, 16)}.json`),
      identity,
      secret,
    );
  }

  /** Verdicts remembered. */
  get size(): number {
    return this.verdicts.size;
  }

  /** The key of a text: a keyed hash of the interpreter identity and the text. */
  keyOf(text: string): string {
    return this.mac(`${this.identity}\0${text}`);
  }

  /** The stored verdict (null: compiles), or undefined when this text was never judged (or the entry is not ours). */
  get(key: string): Stored | undefined {
    const entry = this.verdicts.get(key);
    const verdict = entry && entry[1] === this.signature(key, entry[0]) ? entry[0] : undefined;
    if (verdict === undefined) {
      this.stats.misses++;
      if (entry) this.verdicts.delete(key);
      return undefined;
    }
    this.stats.hits++;
    this.verdicts.delete(key);
    this.verdicts.set(key, entry!);
    this.dirty = true; // its recency changed
    return verdict;
  }

  /** Remembers python3's verdict; `undefined` (no verdict) is not stored. */
  set(key: string, verdict: SyntaxIssue | null | undefined): void {
    if (verdict === undefined) return;
    const stored = verdict && asIssue(verdict);
    if (stored === undefined) return;
    this.verdicts.delete(key);
    this.verdicts.set(key, [stored, this.signature(key, stored)]);
    this.dirty = true;
  }

  /**
   * Writes the most recent MAX_ENTRIES verdicts if anything changed. Checks may race: under the
   * file's lock, what others wrote since this cache was read is kept beside this one's verdicts.
   */
  save(): void {
    if (!this.dirty) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      withFileLock(this.file, () => {
        const merged = readEntries(this.file, this.identity);
        for (const [k, v] of this.verdicts) {
          merged.delete(k);
          merged.set(k, v);
        }
        const verdicts: Record<string, Entry> = {};
        let skip = merged.size - MAX_ENTRIES;
        for (const [k, v] of merged) if (skip-- <= 0) verdicts[k] = v;
        const body: CacheFile = { format: FORMAT, identity: this.identity, verdicts };
        writeFileAtomic(this.file, JSON.stringify(body), { mode: 0o600 });
      });
      this.dirty = false;
    } catch {
      // read-only home, full disk: the next run asks python3 again
    }
  }

  private mac(text: string): string {
    return nodeCrypto().createHmac('sha256', this.secret).update(text, 'utf8').digest('hex').slice(0, 32);
  }

  private signature(key: string, verdict: Stored): string {
    return this.mac(`${key}\0${JSON.stringify(verdict)}`);
  }
}

function readEntries(file: string, identity: string): Map<string, Entry> {
  const m = new Map<string, Entry>();
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return m;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheFile>;
    if (parsed.format !== FORMAT || parsed.identity !== identity) return m;
    if (!parsed.verdicts || typeof parsed.verdicts !== 'object') return m;
    for (const [k, v] of Object.entries(parsed.verdicts)) {
      if (!Array.isArray(v) || v.length !== 2 || typeof v[1] !== 'string') continue;
      const verdict = v[0] === null ? null : asIssue(v[0]);
      if (verdict !== undefined) m.set(k, [verdict, v[1]]);
    }
  } catch {
    // none yet, or unreadable / corrupt: start afresh
  }
  return m;
}

/** A stored issue rebuilt field by field (nothing else is kept), or undefined when it is not one. */
function asIssue(v: unknown): SyntaxIssue | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const i = v as Partial<SyntaxIssue>;
  const pos = (p: unknown) => {
    const { line, character } = (p ?? {}) as { line?: unknown; character?: unknown };
    const ok = Number.isSafeInteger(line) && Number.isSafeInteger(character);
    return ok && (line as number) >= 0 && (character as number) >= 0
      ? { line: line as number, character: character as number }
      : undefined;
  };
  const start = pos(i.range?.start);
  const end = pos(i.range?.end);
  if (typeof i.message !== 'string' || i.message.length > MAX_MESSAGE || i.source !== 'cpython')
    return undefined;
  return start && end ? { message: i.message, range: { start, end }, source: 'cpython' } : undefined;
}
