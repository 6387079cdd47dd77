// JSON text ⇄ values without going through a JavaScript number where that would change the
// value: an integer beyond ±(2^53 − 1) parses to a bigint and is written back digit for digit
// (Python's json keeps every integer exact, and so must each hop between Node and the host).
// Every other number stays a plain number, so code reading small integers and floats is unchanged.
// A key given twice keeps its last value, as Python's json (and JSON.parse) do: the hook sees
// what the engine's json.loads would give it.
import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/** A parsed JSON value: what JSON.parse gives, plus bigint for integers a number cannot hold. */
export type JsonValue =
  null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

function parseNumber(text: string): number | bigint {
  return isInteger(text) && !isSafeNumber(text) ? BigInt(text) : Number(text);
}

// 2^53 has 16 digits: text without an integer of 16 digits or more (digits after a '.' are a
// fraction, before a '.' or an exponent a float) holds no integer a number cannot carry, and
// the native parser (an order of magnitude faster) reads it the same.
const LONG_INTEGER = /(?<![\d.])\d{16,}(?![\d.eE])/;

const LOSSLESS = {
  parseNumber,
  onDuplicateKey: ({ newValue }: { newValue: unknown }) => newValue,
};

/** JSON.parse, with unsafe integers as bigint. Throws SyntaxError on malformed text. */
export function parseJson(text: string): unknown {
  if (!LONG_INTEGER.test(text)) return JSON.parse(text);
  try {
    return parse(text, undefined, LOSSLESS as Parameters<typeof parse>[2]);
  } catch (err) {
    if (err instanceof SyntaxError) throw err;
    throw new SyntaxError(err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/** JSON.stringify that writes a bigint as its digits. Typed as JSON.stringify is: like it, it
 * returns undefined for undefined, a function or a symbol. */
export function stringifyJson(value: unknown, space?: number | string): string {
  try {
    return JSON.stringify(value, undefined, space);
  } catch (err) {
    // Only a bigint stops the native writer: the lossless one (slower) writes its digits.
    if (!(err instanceof TypeError) || !/BigInt/i.test(err.message)) throw err;
    return stringify(value, undefined, space) as string;
  }
}

/** Whether `v` is a JSON integer as parseJson gives one (a safe integer number or a bigint). */
export function isJsonInteger(v: unknown): v is number | bigint {
  return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
}

/** A bigint a number holds exactly becomes that number: the shape parseJson gives. */
export function narrowBigInt(v: unknown): unknown {
  return typeof v === 'bigint' && v >= -MAX_SAFE && v <= MAX_SAFE ? Number(v) : v;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** JSON text of a value for a webview or postMessage, which cannot carry a bigint: its digits as a
 * string are what the user reads. */
export function withBigIntsAsText(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(withBigIntsAsText);
  if (value === null || typeof value !== 'object') return value;
  if (!containsBigInt(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) defineOwn(out, k, withBigIntsAsText(v));
  return out;
}

/** Whether any value inside `value` is a bigint. */
export function containsBigInt(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'bigint') return true;
    if (v !== null && typeof v === 'object') for (const child of Object.values(v)) stack.push(child);
  }
  return false;
}

/** out[key] = v as an own property, also for `__proto__` (an assignment would set the prototype). */
export function defineOwn(out: Record<string, unknown>, key: string, v: unknown): void {
  Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
}

interface NarrowFrame {
  node: Record<string, unknown>;
  keys: string[];
  next: number;
  path: PropertyKey[];
}

/**
 * A parsed YAML value (integers as bigint) with the integers a number holds narrowed to numbers,
 * in place, as `narrowBigInt` does one; `cycle` is the path of a value that holds itself (a YAML
 * alias inside its own anchor), which no JSON value can be. Iterative, and a value shared by
 * aliases is walked once (a recursive reviver overflowed the stack on a cycle).
 */
export function narrowBigIntsInPlace(value: unknown): { value: unknown; cycle?: PropertyKey[] } {
  if (value === null || typeof value !== 'object') return { value: narrowBigInt(value) };
  const onPath = new Set<object>();
  const done = new WeakSet<object>();
  const frames: NarrowFrame[] = [];
  const enter = (node: object, path: PropertyKey[]) => {
    onPath.add(node);
    frames.push({ node: node as Record<string, unknown>, keys: Object.keys(node), next: 0, path });
  };
  enter(value, []);
  while (frames.length) {
    const f = frames[frames.length - 1]!;
    if (f.next === f.keys.length) {
      frames.pop();
      onPath.delete(f.node);
      done.add(f.node);
      continue;
    }
    const key = f.keys[f.next++]!;
    const child = f.node[key];
    const at = () => [...f.path, Array.isArray(f.node) ? Number(key) : key];
    if (typeof child === 'bigint') defineOwn(f.node, key, narrowBigInt(child));
    else if (child !== null && typeof child === 'object') {
      if (onPath.has(child)) return { value, cycle: at() };
      if (!done.has(child)) enter(child, at());
    }
  }
  return { value };
}
