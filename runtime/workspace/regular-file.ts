// Reads regular files only. Opening a FIFO for reading waits for a writer (forever, for a FIFO
// planted as hooks/x.py) and a device may never end, so a file is opened without blocking and
// checked on its descriptor (no window between a stat and the open for a swap).
import * as fs from 'node:fs';

const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(readonly path: string) {
    super(`${path}: not a regular file`);
  }
}

/** A descriptor of `file` opened for reading; throws NotRegularFileError for a FIFO, device or folder. */
export function openRegularFile(file: string): number {
  const fd = fs.openSync(file, FLAGS);
  let ok = false;
  try {
    ok = fs.fstatSync(fd).isFile();
  } finally {
    if (!ok) fs.closeSync(fd);
  }
  if (!ok) throw new NotRegularFileError(file);
  return fd;
}

/** The bytes of a regular file (see openRegularFile). */
export function readRegularFile(file: string): Buffer {
  const fd = openRegularFile(file);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether `p` is a regular file now (following links); false when it cannot be looked at. */
export function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Whether `p` is a folder now (following links); false when it cannot be looked at. */
export function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
