// Bytes → source text, refusing what CPython refuses: binary files (NUL bytes), UTF-16, and
// bytes that are not UTF-8 unless a PEP 263 coding declaration names an encoding we can decode.
import { isUtf8 } from 'node:buffer';
import type { SyntaxIssue } from './model';

export interface DecodedSource {
  /** The text to parse: '' for binary content; with U+FFFD for undecodable bytes otherwise. */
  text: string;
  /** Why the file is not valid Python source, positioned at the first offending byte. */
  issue?: SyntaxIssue;
  /** Looks like a binary file rather than source: callers should skip analysis. */
  binary: boolean;
}

// PEP 263: `# -*- coding: latin-1 -*-` on line 1 or 2.
const CODING = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;

function issueAt(message: string, line: number, character: number): SyntaxIssue {
  const p = { line, character };
  return { message, range: { start: p, end: { ...p } }, source: 'cpython' };
}

/** Line/UTF-16 column of byte offset `at`, decoding the valid prefix. */
function positionOfByte(buf: Uint8Array, at: number): { line: number; character: number } {
  const prefix = new TextDecoder('utf-8', { ignoreBOM: true }).decode(buf.subarray(0, at));
  const lines = prefix.split(/\r\n|\r|\n/);
  return { line: lines.length - 1, character: (lines[lines.length - 1] ?? '').length };
}

/**
 * The UTF-8 decoder for valid input (one instance: a check decodes every file). The file's BOM is
 * dropped before decoding, as CPython drops it; a second one stays in the text, where CPython
 * fails it (so does `import`).
 */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** First byte offset where `buf` stops being valid UTF-8 (-1: valid). */
function firstInvalidUtf8(buf: Uint8Array): number {
  // Node's validator (SIMD) answers for the common case; the scan below only locates the byte.
  if (isUtf8(buf)) return -1;
  let i = 0;
  while (i < buf.length) {
    const b = buf[i] as number;
    let n: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [n, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [n, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

function declaredEncoding(buf: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1')
    .decode(buf.subarray(0, 400))
    .split(/\r\n|\r|\n/)
    .slice(0, 2);
  for (const line of head) {
    const m = CODING.exec(line);
    if (m?.[1]) return m[1].toLowerCase();
    // The declaration may only be on line 2 when line 1 is a comment or blank.
    if (!/^[ \t\f]*(#.*)?$/.test(line)) break;
  }
  return undefined;
}

/** Never throws: every input gives text plus, when it is not valid source, an issue. */
/**
 * A body that is not UTF-8 (the first bad byte at `bad`): decoded in its PEP 263 encoding when one
 * is declared and decodes it, else CPython's error, the text decoded lossily (none if binary).
 */
function decodeDeclared(body: Uint8Array, bad: number, declared: string | undefined): DecodedSource {
  // Python's spellings that the WHATWG decoder labels lack.
  const encoding =
    declared && ({ 'latin-1': 'latin1', 'iso-latin-1': 'latin1', 'cp-1252': 'cp1252' }[declared] ?? declared);
  if (encoding && !/^utf-?8/.test(encoding)) {
    try {
      return { text: new TextDecoder(encoding, { fatal: true }).decode(body), binary: false };
    } catch {
      // Unknown label or undecodable: report as below.
    }
  }
  const p = positionOfByte(body, bad);
  const byte = (body[bad] as number).toString(16).padStart(2, '0');
  const lossy = new TextDecoder('utf-8', { ignoreBOM: true }).decode(body);
  // Mostly undecodable bytes: a binary file, not a mis-encoded source.
  const replaced = lossy.split('\ufffd').length - 1;
  const binary = replaced > 8 && replaced > lossy.length / 10;
  return {
    text: binary ? '' : lossy,
    binary,
    issue: issueAt(
      `Non-UTF-8 code starting with '\\x${byte}' on line ${p.line + 1}, but no encoding declared; see https://peps.python.org/pep-0263/ for details`,
      p.line,
      p.character,
    ),
  };
}

export function decodeSource(buf: Uint8Array): DecodedSource {
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
    return {
      text: '',
      binary: true,
      issue: issueAt(
        'file is UTF-16 encoded; Python source must be UTF-8 (or declare a PEP 263 encoding)',
        0,
        0,
      ),
    };
  }
  const nul = buf.indexOf(0);
  if (nul >= 0) {
    const p = positionOfByte(buf, nul);
    return {
      text: '',
      binary: true,
      issue: issueAt('source code cannot contain null bytes (is this a binary file?)', p.line, p.character),
    };
  }
  const bom = (b: Uint8Array) => b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  const hasBom = bom(buf);
  const body = hasBom ? buf.subarray(3) : buf;
  // CPython drops one byte-order mark; a second is a character no Python source may hold.
  if (hasBom && bom(body))
    return {
      text: UTF8.decode(body),
      binary: false,
      issue: issueAt('invalid non-printable character U+FEFF', 0, 0),
    };
  const bad = firstInvalidUtf8(body);
  if (bad < 0) return { text: UTF8.decode(body), binary: false };

  return decodeDeclared(body, bad, hasBom ? undefined : declaredEncoding(body));
}
