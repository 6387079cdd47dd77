// Text for a terminal: control characters shown as `\xNN` escapes, so that a message from a file,
// a hook, python3 or a cache cannot move the cursor, rewrite the window title, hide lines (ANSI
// escape sequences, carriage returns) or reorder what is shown (bidirectional overrides).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character but newline and tab escaped. */
export function printable(text: string): string {
  return text.replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}
