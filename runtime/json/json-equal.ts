// Structural equality of JSON values (key order ignored): "did the hook change this field?"
import { parseJson, stringifyJson } from './lossless-json';

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // An integer may arrive as a number or a bigint: equal when their values are (`==` compares
  // a bigint and a number exactly).
  if (typeof a === 'bigint' || typeof b === 'bigint')
    return (typeof a === 'number' || typeof a === 'bigint') &&
      (typeof b === 'number' || typeof b === 'bigint')
      ? a == b
      : false;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

/** A deep copy through JSON (integers kept exact): observers get independent copies, the
 * timeline keeps snapshots. */
export function cloneJson<T>(v: T): T {
  return v === undefined ? v : (parseJson(stringifyJson(v)!) as T);
}
