// JSON text ⇄ values without going through a JavaScript number where that would change the
// value: an integer beyond ±(2^53 − 1) parses to a bigint and is written back digit for digit
// (Python's json keeps every integer exact, and so must each hop between Node and the host).
// Every other number stays a plain number, so code reading small integers and floats is unchanged.
import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/** A parsed JSON value: what JSON.parse gives, plus bigint for integers a number cannot hold. */
export type JsonValue =
  null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

function parseNumber(text: string): number | bigint {
  return isInteger(text) && !isSafeNumber(text) ? BigInt(text) : Number(text);
}

/** JSON.parse, with unsafe integers as bigint. Throws SyntaxError on malformed text or a duplicate key. */
export function parseJson(text: string): unknown {
  try {
    return parse(text, undefined, parseNumber);
  } catch (err) {
    if (err instanceof SyntaxError) throw err;
    throw new SyntaxError(err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/** JSON.stringify that writes a bigint as its digits. Returns undefined where JSON.stringify does. */
export function stringifyJson(value: unknown, space?: number | string): string | undefined {
  return stringify(value, undefined, space);
}
