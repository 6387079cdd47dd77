// Every file Hooksmith rewrites goes through here, so a reader (another `hooksmith test`, the
// editor) never sees half a file and two writers never lose each other's change: a write goes to
// a temporary file in the same folder and is renamed over the target (atomic on one filesystem);
// a read-modify-write holds a lock file (created with O_EXCL) and re-reads the target under it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeText, encodeText } from './text-form';

/** A lock older than this is taken for one its holder left behind (a killed process). */
const STALE_LOCK_MS = 10_000;
/** How long a writer waits for a lock before giving up (LockTimeoutError). */
const LOCK_WAIT_MS = 30_000;

export class LockTimeoutError extends Error {
  constructor(readonly file: string) {
    super(`${file}: another process has held its lock for ${LOCK_WAIT_MS / 1000} s`);
  }
}

let counter = 0;
function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
}

function writeTemp(file: string, data: string | Buffer, mode?: number): string {
  const tmp = tempNameFor(file);
  const fd = fs.openSync(tmp, 'wx', mode ?? 0o666);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  return tmp;
}

/** Replaces `file` with `data` in one step: readers see the old text or the new, never a part. */
export function writeFileAtomic(file: string, data: string | Buffer, options: { mode?: number } = {}): void {
  let mode = options.mode;
  if (mode === undefined) {
    try {
      mode = fs.statSync(file).mode & 0o7777; // keep the file's permissions
    } catch {
      // a new file
    }
  }
  const tmp = writeTemp(file, data, mode);
  try {
    if (mode !== undefined) fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Creates `file` with `data` complete, or throws EEXIST and leaves an existing file as it was. */
export function createFileAtomic(file: string, data: string | Buffer): void {
  const tmp = writeTemp(file, data);
  try {
    fs.linkSync(tmp, file); // fails with EEXIST rather than replace
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock whose holder is gone (its pid no longer runs) or that is older than STALE_LOCK_MS. */
function isStale(lock: string): boolean {
  try {
    const st = fs.statSync(lock);
    if (Date.now() - st.mtimeMs > STALE_LOCK_MS) return true;
    const pid = Number(fs.readFileSync(lock, 'utf8').split(' ')[0]);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !pidAlive(pid);
  } catch {
    return false; // gone meanwhile (released): just try again
  }
}

function acquire(lock: string): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      const fd = fs.openSync(lock, 'wx');
      fs.writeSync(fd, `${process.pid} ${Date.now()}`);
      fs.closeSync(fd);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (isStale(lock)) {
      // Renamed away first, so that two processes judging it stale cannot remove a fresh lock.
      const aside = `${lock}.${process.pid}.stale`;
      try {
        fs.renameSync(lock, aside);
        fs.rmSync(aside, { force: true });
      } catch {
        // another process took it first
      }
      continue;
    }
    if (Date.now() > deadline) throw new LockTimeoutError(path.basename(lock, '.lock'));
    pause(wait + Math.random() * wait);
  }
}

/**
 * Runs `fn` holding `file`'s lock (`file.lock` beside it), so another process's read-modify-write
 * of the same file waits; `fn` reads the file afresh under the lock.
 */
export function withFileLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  acquire(lock);
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/**
 * A locked read-modify-write of a text file: `change` gets the text as it is now (undefined when
 * the file does not exist; without its BOM, LF endings for a CRLF file) and returns the new text
 * (or undefined to leave it), written atomically in the file's form (BOM, CRLF). A file that is
 * not UTF-8 throws NotUtf8Error and is left as it was.
 */
export function updateFileAtomic(
  file: string,
  change: (text: string | undefined) => string | undefined,
): boolean {
  return withFileLock(file, () => {
    let bytes: Buffer | undefined;
    try {
      bytes = fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const read = bytes && decodeText(file, bytes);
    const next = change(read?.text);
    if (next === undefined || next === read?.text) return false;
    writeFileAtomic(file, read ? encodeText(next, read.form) : next);
    return true;
  });
}
