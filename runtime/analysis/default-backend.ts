// The real Python front end for analyseFiles. (Bridges to runtime/python/* — kept in one
// file so the wiring to the parser's API lives in one place.)
import { buildModel, initParser, parse } from '../python';
import { checkSyntaxMany } from '../python/cpython-syntax';
import type { HookModule } from '../python/model';
import type { Decoded, PythonBackend } from './backend';

/** UTF-8 (BOM allowed); NUL bytes or invalid UTF-8 are refused with a clear message. */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  if (bytes.includes(0)) return { ok: false, message: 'binary file: contains NUL bytes, not Python source' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { ok: true, text };
  } catch {
    return { ok: false, message: 'file is not valid UTF-8 (Python source must be UTF-8 unless it declares an encoding)' };
  }
}

/** Parses and builds the model; the tree is freed at once (it lives on the WASM heap). */
export function parseModule(text: string, path: string): HookModule {
  const tree = parse(text);
  try {
    return buildModel(tree, text, path);
  } finally {
    tree.delete();
  }
}

export const defaultBackend: PythonBackend = {
  async init() {
    await initParser();
  },
  parseModule,
  decode: decodeUtf8,
  cpythonSyntax: (files) => checkSyntaxMany(files),
};
