// The payload field a crash read (#31 item 7): a shrunk payload alone hides the cause (a crash
// on `text is None` read as `{"sender_id": " "}`, the field it read left out as a default). The
// crashing lines' `x.field` / `x["field"]` accesses, deepest frame first, that name a top-level
// key of the payload; one the payload holds as null wins, then an empty or blank one.
import type { HookError } from '../engine/api';

const ACCESS = /\.([A-Za-z_]\w*)\b|\[\s*["']([^"']+)["']\s*\]/g;

const blank = (v: unknown) =>
  v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'string' && !v.trim());

export function crashField(
  error: HookError | null | undefined,
  payload: Record<string, unknown>,
): string | undefined {
  if (!error) return undefined;
  for (const frame of [...error.traceback].reverse()) {
    const read = [...(frame.text ?? '').matchAll(ACCESS)]
      .map((m) => m[1] ?? m[2]!)
      .filter((k) => Object.prototype.hasOwnProperty.call(payload, k));
    if (read.length)
      return read.find((k) => payload[k] === null) ?? read.find((k) => blank(payload[k])) ?? read[0];
  }
  return undefined;
}
