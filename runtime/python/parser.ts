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
// (server/parsed-text.ts does this for its own trees).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Parser, Tree } from 'web-tree-sitter';
// `require`, not `import`: esbuild resolves an `import` with the "import" condition, which picks
// web-tree-sitter's ES module build; bundled into CommonJS its `import.meta.url` is undefined and
// Parser.init() fails. A require picks the CommonJS build (test/unit/python/bundle.test.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
import TreeSitter = require('web-tree-sitter');
import type { SyntaxIssue } from './model';
import type { WasmHeap } from './tree-memory';

export type { Tree, Node, Edit, Point, TreeCursor } from 'web-tree-sitter';

let parser: Parser | undefined;
/** The emscripten module object: its HEAP* views are what tree-memory.ts reads. */
let heap: WasmHeap | undefined;
let initializing: Promise<Parser> | undefined;

/** Where a WASM file lives: beside the bundle when there is one, else in node_modules. */
function locate(file: string, pkg: string): string {
  const beside = join(__dirname, file);
  if (existsSync(beside)) return beside;
  return require.resolve(`${pkg}/${file}`);
}

async function create(): Promise<Parser> {
  const runtimeWasm = locate('tree-sitter.wasm', 'web-tree-sitter');
  // Emscripten makes this options object its Module: it gains the HEAP* views (kept current when
  // memory grows), which tree-memory.ts reads.
  const moduleOptions = { locateFile: () => runtimeWasm };
  await TreeSitter.Parser.init(moduleOptions);
  const views = moduleOptions as Partial<WasmHeap>;
  if (views.HEAPU8 && views.HEAPU16 && views.HEAPU32) heap = moduleOptions as unknown as WasmHeap;
  // Bytes, not a path: given a path, web-tree-sitter reads it through `import('fs/promises')`,
  // which starts Node's ES module loader inside our CommonJS bundle.
  const language = await TreeSitter.Language.load(
    readFileSync(locate('tree-sitter-python.wasm', 'tree-sitter-python')),
  );
  const p = new TreeSitter.Parser();
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

/** The WASM heap of the tree-sitter runtime, once initialised (undefined if not exposed). */
export function wasmHeap(): WasmHeap | undefined {
  return heap;
}

/** Whether initParser() has finished (parse() may be called synchronously). */
export function isParserReady(): boolean {
  return parser !== undefined;
}

export interface ParseOptions {
  /** Give up on a pathological source after this much CPU time (default: parseBudgetMs of its length). */
  timeoutMs?: number;
}

/** Wall time a parse runs before its CPU time is counted against the budget (see parse()). */
const CPU_GRACE_MS = 50;

/** CPython rejects the 100th indentation level (tokenizer MAXINDENT). */
const MAX_INDENT_LEVELS = 100;

/**
 * The default budget (CPU time): a fixed part for small sources, plus a part that grows with the
 * length, so that a large but ordinary module (parse time grows linearly) is never taken for a
 * pathological one.
 */
export function parseBudgetMs(text: string): number {
  return 3000 + Math.ceil(text.length / 512);
}

/** Trees that stand in for a source we refused to parse, with the reason. */
const substitutes = new WeakMap<Tree, SyntaxIssue>();

/** Why `tree` is an empty stand-in rather than the source's tree (see parse()). */
export function substituteReason(tree: Tree): SyntaxIssue | undefined {
  return substitutes.get(tree);
}

/**
 * Parses `text` (after `await initParser()`). Pass `oldTree`, already edited with
 * `tree.edit(...)`, for an incremental re-parse; the caller still owns and must delete it.
 *
 * Never throws on any text. Sources that would make tree-sitter take seconds (more indentation
 * levels than CPython accepts, or a parse over the time budget) get an empty stand-in tree;
 * `substituteReason(tree)` says why and buildModel reports it as the syntax error.
 */
export function parse(text: string, oldTree?: Tree | null, opts: ParseOptions = {}): Tree {
  const p = parser;
  if (!p) throw new Error('parser not initialised: await initParser() first');
  const deep = excessiveIndentation(text);
  if (deep) return substitute(p, deep);
  const budget = opts.timeoutMs ?? parseBudgetMs(text);
  // CPU time, not wall time: on a busy machine a large module waits for a core, and that wait
  // says nothing about the source. Reading the CPU clock is a system call, slow on a busy machine,
  // and nearly every parse is over long before any budget: the clock is first read once the parse
  // has run CPU_GRACE_MS of wall time, and the budget counts from then (a parse gives up at most
  // that much later, never sooner).
  const old = oldTree && !substitutes.has(oldTree) ? oldTree : null;
  const start = performance.now();
  const grace = Math.min(CPU_GRACE_MS, budget);
  let deadline: number | undefined;
  let nextRead = 0;
  // tree-sitter calls back every few hundred operations: the clocks are looked at on every 32nd call.
  let calls = 0;
  const overBudget = (): boolean => {
    const now = performance.now();
    if (now - start < grace || now < nextRead) return false;
    nextRead = now + 1; // the CPU clock at most once per ms
    if (deadline !== undefined) return cpuMs() > deadline;
    deadline = cpuMs() + budget;
    return false;
  };
  const tree = p.parse(normalizeLoneCr(text), old, {
    progressCallback: () => (++calls & 31) === 0 && overBudget(),
  });
  if (tree) return tree;
  p.reset();
  const at = { line: 0, character: 0 };
  return substitute(p, {
    message: `too complex to analyse: parsing took over ${budget} ms of CPU time`,
    range: { start: at, end: at },
    source: 'tree-sitter',
  });
}

/** CPU time of this process (user + system), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const LONE_CR = /\r(?!\n)/g;

/** Whether `text` has a \r that is not part of \r\n. */
export function hasLoneCr(text: string): boolean {
  LONE_CR.lastIndex = 0;
  return LONE_CR.test(text);
}

/**
 * The grammar takes a lone \r for whitespace, but CPython and LSP end a line there: parse it as
 * \n. Same length, so every offset and column stays valid for the original text.
 */
function normalizeLoneCr(text: string): string {
  return text.includes('\r') ? text.replace(LONE_CR, '\n') : text;
}

function substitute(p: Parser, issue: SyntaxIssue): Tree {
  const tree = p.parse('');
  if (!tree) throw new Error('tree-sitter returned no tree for an empty source');
  substitutes.set(tree, issue);
  return tree;
}

/**
 * The line where indentation passes CPython's 100 levels ("too many levels of indentation"),
 * found in one linear scan; tree-sitter's indent scanner is quadratic in that depth.
 */
function excessiveIndentation(text: string): SyntaxIssue | undefined {
  // Cheap exit: 100 levels need at least 100 * 101 / 2 columns of indentation somewhere.
  if (!/\n[ \t]{100}/.test(text)) return undefined;
  const stack: number[] = [0];
  let line = 0;
  let pos = 0;
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    let width = 0;
    let i = pos;
    for (; i < nl; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) width++;
      else if (c === 9) width = (Math.floor(width / 8) + 1) * 8;
      else if (c !== 12) break;
    }
    const c = text.charCodeAt(i);
    const blank = i >= nl || c === 35 /* # */ || c === 13;
    if (!blank) {
      while (width < (stack[stack.length - 1] ?? 0)) stack.pop();
      if (width > (stack[stack.length - 1] ?? 0)) stack.push(width);
      if (stack.length - 1 >= MAX_INDENT_LEVELS) {
        const at = { line, character: i - pos };
        return {
          message: 'too many levels of indentation',
          range: { start: { line, character: 0 }, end: at },
          source: 'tree-sitter',
        };
      }
    }
    pos = nl + 1;
    line++;
  }
  return undefined;
}
