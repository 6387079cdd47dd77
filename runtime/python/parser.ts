// The one tree-sitter parser for Python source, initialised lazily.
//
// Grammar: tree-sitter-python@0.25.0 (`tree-sitter-python.wasm`, ABI 15), which needs
// web-tree-sitter >= 0.25 (pinned 0.25.10 in package.json).
//
// WASM location: the bundles in dist/ find `tree-sitter.wasm` and `tree-sitter-python.wasm`
// beside themselves (scripts/build.mjs copies them there); from source (tests via tsx) they
// are resolved in node_modules.
//
// Memory rule: trees live on the WASM heap, which the JS garbage collector does not free.
// Whoever replaces a tree must call `oldTree.delete()` once nothing reads it any more
// (ParsedDocument in document.ts does this for its own trees).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser, Tree } from 'web-tree-sitter';

export type { Tree, Node, Edit, Point, TreeCursor } from 'web-tree-sitter';

let parser: Parser | undefined;
let initializing: Promise<Parser> | undefined;

/** Where a WASM file lives: beside the bundle when there is one, else in node_modules. */
function locate(file: string, pkg: string): string {
  const beside = join(__dirname, file);
  if (existsSync(beside)) return beside;
  return require.resolve(`${pkg}/${file}`);
}

async function create(): Promise<Parser> {
  const runtimeWasm = locate('tree-sitter.wasm', 'web-tree-sitter');
  await Parser.init({ locateFile: () => runtimeWasm });
  const language = await Language.load(locate('tree-sitter-python.wasm', 'tree-sitter-python'));
  const p = new Parser();
  p.setLanguage(language);
  return p;
}

/** Loads the runtime and the grammar once; later calls return the same parser. */
export function initParser(): Promise<Parser> {
  if (parser) return Promise.resolve(parser);
  initializing ??= create().then(
    (p) => (parser = p),
    (err: unknown) => {
      initializing = undefined; // let a later call retry
      throw err;
    },
  );
  return initializing;
}

/** Whether initParser() has finished (parse() may be called synchronously). */
export function isParserReady(): boolean {
  return parser !== undefined;
}

/**
 * Parses `text` (after `await initParser()`). Pass `oldTree`, already edited with
 * `tree.edit(...)`, for an incremental re-parse; the caller still owns and must delete it.
 */
export function parse(text: string, oldTree?: Tree | null): Tree {
  if (!parser) throw new Error('parser not initialised: await initParser() first');
  const tree = parser.parse(text, oldTree ?? null);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}
