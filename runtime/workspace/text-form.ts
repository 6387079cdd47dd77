// A text file's form beyond its characters: a UTF-8 byte-order mark and CRLF line endings. A
// rewrite (test --update) keeps both, so the user's diff is the lines that changed; a file that is
// not UTF-8 is refused rather than rewritten with U+FFFD in place of the user's bytes.

export interface TextForm {
  bom: boolean;
  /** Every line ends with CRLF: new lines get CRLF too. Mixed endings are left as they are. */
  crlf: boolean;
}

export class NotUtf8Error extends Error {
  readonly code = 'ENOTUTF8';
  constructor(
    readonly file: string,
    readonly offset: number,
  ) {
    super(`not UTF-8 (byte ${offset})`);
  }
}

const BOM = '\ufeff';

/** The first byte at which `bytes` stops being valid UTF-8, or -1. */
function invalidUtf8At(bytes: Buffer): number {
  // Decoding replaces the first bad byte with U+FFFD: everything before it round-trips unchanged.
  const again = Buffer.from(bytes.toString('utf8'), 'utf8');
  if (again.equals(bytes)) return -1;
  let i = 0;
  while (i < bytes.length && bytes[i] === again[i]) i++;
  return i;
}

/** `bytes` as text, as it is (BOM and line endings kept); NotUtf8Error when it is not UTF-8. */
export function strictUtf8(file: string, bytes: Buffer): string {
  const bad = invalidUtf8At(bytes);
  if (bad >= 0) throw new NotUtf8Error(file, bad);
  return bytes.toString('utf8');
}

/** The text of `bytes` without its BOM and with LF endings when every line ended in CRLF. */
export function decodeText(file: string, bytes: Buffer): { text: string; form: TextForm } {
  let text = strictUtf8(file, bytes);
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  const lf = (text.match(/\n/g) ?? []).length;
  const crlf = lf > 0 && (text.match(/\r\n/g) ?? []).length === lf;
  if (crlf) text = text.replace(/\r\n/g, '\n');
  return { text, form: { bom, crlf } };
}

/** `text` (LF endings) back in `form`. */
export function encodeText(text: string, form: TextForm): string {
  const body = form.crlf ? text.replace(/\r?\n/g, '\r\n') : text;
  return form.bom ? BOM + body : body;
}
