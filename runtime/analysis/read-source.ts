// Reading a source file for the check: its bytes plus the size and mtime they were read at, so
// that CPython may read the same file itself (runtime/python/cpython-syntax.ts, SyntaxRequest.disk)
// instead of receiving 4.5 MB of JSON-encoded text through a pipe.
import * as fs from 'node:fs';

export interface SourceBytes {
  bytes: Uint8Array;
  /** The file's size and mtime when read; absent when it changed while being read. */
  disk?: { size: number; mtimeNs: string };
}

/** Reads a whole file (what fs.readFileSync does: open, fstat, read, close), keeping the fstat. */
export function readSourceFile(file: string): SourceBytes {
  const fd = fs.openSync(file, 'r');
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    const size = Number(st.size);
    let buf = Buffer.allocUnsafe(size > 0 ? size : 8192);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const got = fs.readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    const bytes = buf.subarray(0, n);
    // Not a regular file, or it grew or shrank while we read: CPython gets the text.
    return st.isFile() && n === size ? { bytes, disk: { size, mtimeNs: st.mtimeNs.toString() } } : { bytes };
  } finally {
    fs.closeSync(fd);
  }
}
