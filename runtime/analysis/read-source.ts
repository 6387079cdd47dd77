// Reading a source file for the check: its bytes plus the size and mtime they were read at, so
// that CPython may read the same file itself (runtime/python/cpython-syntax.ts, SyntaxRequest.disk)
// instead of receiving 4.5 MB of JSON-encoded text through a pipe.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bytesAreCayuCandidate, HEAD_BYTES, isCayuCandidate, nodeFs, type DiscoveryFs } from '../discovery';

export interface SourceBytes {
  bytes: Uint8Array;
  /** The file's size and mtime when read; absent when it changed while being read. */
  disk?: { size: number; mtimeNs: string };
}

/**
 * Reads a whole file as fs.readFileSync does (open, fstat, read up to the size, close), keeping
 * the fstat. Not a regular file (a FIFO, /dev/stdin): read to its end, without `disk`.
 */
export function readSourceFile(file: string): SourceBytes;
/** As above, or undefined (nothing read) when the file is larger than `limit` bytes. */
export function readSourceFile(file: string, limit: number): SourceBytes | undefined;
export function readSourceFile(file: string, limit = Infinity): SourceBytes | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile()) return { bytes: fs.readFileSync(fd) };
    const size = Number(st.size);
    if (size > limit) return undefined;
    const buf = Buffer.allocUnsafe(size);
    let n = 0;
    while (n < size) {
      const got = fs.readSync(fd, buf, n, size - n, n);
      if (got === 0) break;
      n += got;
    }
    // Shrunk while we read: CPython gets the text.
    return n === size
      ? { bytes: buf, disk: { size, mtimeNs: st.mtimeNs.toString() } }
      : { bytes: buf.subarray(0, n) };
  } finally {
    fs.closeSync(fd);
  }
}

/** Files up to this size are read whole when discovery looks at their first bytes. */
const KEEP_BYTES = 1 << 20;
/** `${sep}hooks${sep}`: a file inside some folder named hooks. */
const IN_HOOKS_FOLDER = `${path.sep}hooks${path.sep}`;

/**
 * The disk for one check: discovery's look at a file's first bytes (the Cayu pre-filter) reads
 * the whole file and keeps it, so that the check then takes it from here instead of opening the
 * file a second time. take() hands a kept file over once.
 */
export class KeptReadsFs implements DiscoveryFs {
  private readonly kept = new Map<string, SourceBytes>();
  kind = nodeFs.kind;
  list = nodeFs.list;
  isSymlink = nodeFs.isSymlink;
  entries = nodeFs.entries;

  head(file: string): string {
    const read = this.readWhole(file);
    if (read === 'unreadable') return '';
    if (read === 'large') return nodeFs.head(file);
    const b = read.bytes;
    const head = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString(
      'latin1',
      0,
      Math.min(b.byteLength, HEAD_BYTES),
    );
    this.keepIfChecked(file, read, isCayuCandidate(head));
    return head;
  }

  /** As isCayuCandidate(head(file)), searching the bytes read rather than a string made of them. */
  cayuCandidate(file: string): boolean {
    const read = this.readWhole(file);
    if (read === 'unreadable') return false;
    if (read === 'large') return isCayuCandidate(nodeFs.head(file));
    const cayu = bytesAreCayuCandidate(read.bytes);
    this.keepIfChecked(file, read, cayu);
    return cayu;
  }

  /** The file as head() read it, once; undefined when it was not read whole. */
  take(file: string): SourceBytes | undefined {
    const r = this.kept.get(file);
    this.kept.delete(file);
    return r;
  }

  /** The whole file, unless it is larger than KEEP_BYTES or cannot be read. */
  private readWhole(file: string): SourceBytes | 'large' | 'unreadable' {
    try {
      return readSourceFile(file, KEEP_BYTES) ?? 'large';
    } catch {
      return 'unreadable';
    }
  }

  /**
   * Keeps a file read whole only if the check will read it: a Cayu candidate or a file in a Mantle
   * hooks folder (an agent root may hold much other Python, read here once and dropped).
   */
  private keepIfChecked(file: string, read: SourceBytes, cayu: boolean): void {
    if (cayu || path.basename(file) === 'hooks.py' || file.includes(IN_HOOKS_FOLDER))
      this.kept.set(file, read);
  }
}
