// The real Python front end for analyseFiles. (Bridges to runtime/python/* — kept in one
// file so the wiring to the parser's API lives in one place.)
import { buildModel, initParser, parse } from '../python';
import { checkSyntaxMany } from '../python/cpython-syntax';
import type { HookModule } from '../python/model';
import { decodeSource } from '../python/decode';
import type { PythonBackend } from './backend';

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
  decode: decodeSource,
  cpythonSyntax: (files) => checkSyntaxMany(files),
};
