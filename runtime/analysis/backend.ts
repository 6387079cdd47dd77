// What analyseFiles needs from the Python front end (runtime/python/*): parsing one text into
// the model, decoding bytes, and confirming syntax with CPython for many files at once.
// Injectable so tests and the language server can swap parts.
import type { HookModule, SyntaxIssue } from '../python/model';

import type { DecodedSource } from '../python/decode';

export interface PythonBackend {
  /** Loads what parsing needs (the tree-sitter WASM) once. */
  init(): Promise<void>;
  /** Text → model; must not throw on bad code (syntax issues go in the model). */
  parseModule(text: string, path: string): HookModule;
  /** Bytes → text; binary or undecodable content comes with an issue (never throws). */
  decode(bytes: Uint8Array): DecodedSource;
  /**
   * CPython's verdict for many files in one process, in order: the issue, null when the file
   * compiles, undefined when there is no verdict (no python3).
   */
  cpythonSyntax(
    files: readonly { path: string; text: string }[],
  ): Promise<(SyntaxIssue | null | undefined)[]>;
}
