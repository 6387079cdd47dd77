// A key named `__proto__` is an ordinary key in JSON and in Python (a tool, an argument, a payload
// field may be called so), but zod drops it from what it parses (assigning it would replace the
// result's prototype). Validation goes through safeParseKeepingKeys: such keys stand in under
// a name no input holds while zod reads the value, and are own keys again in what it gives back.
import { randomUUID } from 'node:crypto';
import { defineOwn } from './lossless-json';

const PROTO = '__proto__';
// Per process: a file cannot spell it in advance.
const STAND_IN = `__proto__ (kept by Hooksmith ${randomUUID()})`;

/** What safeParseKeepingKeys needs of a zod schema (zod itself is loaded by the schema's owner). */
interface SafeParser<T> {
  safeParse(
    input: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[] }[] } };
}

/** schema.safeParse(input), keeping own `__proto__` keys in the data and naming them in error paths. */
export function safeParseKeepingKeys<S extends SafeParser<unknown>>(
  schema: S,
  input: unknown,
): ReturnType<S['safeParse']> {
  if (!hasOwnKey(input, PROTO)) return schema.safeParse(input) as ReturnType<S['safeParse']>;
  const parsed = schema.safeParse(renameKeys(input, PROTO, STAND_IN));
  if (parsed.success) parsed.data = renameKeys(parsed.data, STAND_IN, PROTO);
  else
    for (const issue of parsed.error.issues) issue.path = issue.path.map((k) => (k === STAND_IN ? PROTO : k));
  return parsed as ReturnType<S['safeParse']>;
}

/** Whether an object anywhere inside `value` has `key` as an own key. */
export function hasOwnKey(value: unknown, key: string): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (!Array.isArray(v) && Object.hasOwn(v, key)) return true;
    for (const child of Object.values(v)) stack.push(child);
  }
  return false;
}

/** A deep copy of plain JSON data with every own key `from` named `to` (iterative: any depth). */
function renameKeys(value: unknown, from: string, to: string): unknown {
  const root: Record<string, unknown> = {};
  const stack: { src: unknown; parent: Record<string, unknown>; key: string }[] = [
    { src: value, parent: root, key: 'v' },
  ];
  while (stack.length) {
    const { src, parent, key } = stack.pop()!;
    if (src === null || typeof src !== 'object') {
      defineOwn(parent, key, src);
      continue;
    }
    const copy: Record<string, unknown> = Array.isArray(src)
      ? ([] as unknown as Record<string, unknown>)
      : {};
    defineOwn(parent, key, copy);
    // Children are pushed in reverse so they are defined in their order.
    const entries = Object.entries(src);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, child] = entries[i]!;
      stack.push({ src: child, parent: copy, key: !Array.isArray(src) && k === from ? to : k });
    }
  }
  return root.v;
}
