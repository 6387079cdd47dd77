// Reads a parsed tree straight out of the WASM heap into SyntaxNodes, in one pass with no call
// into WASM. Through web-tree-sitter's API the same walk costs an order of magnitude more: every
// node property is a WASM call plus marshalling (npm run bench times the editor path).
//
// This reads tree-sitter's internal structures, so it is tied to the exact versions pinned in
// package.json: web-tree-sitter 0.25.10 (lib/src/subtree.h, tree.h, node.c and tree_cursor.c of
// tree-sitter v0.25.10, wasm32) and grammars of ABI 15 (lib/src/parser.h, struct TSLanguage).
// The semantics mirror node.c: hidden nodes are flattened into their visible parent, aliases
// make a child visible under another name, and a child's field comes from its parent's field
// map or, through hidden parents, from theirs (ts_tree_cursor_current_field_id).
//
// Safety net: before first use, layoutMatches() compares this reader with the API on a probe
// source; on any difference the caller uses the API walk instead (tree-from-api.ts).
import type { Language, Tree } from 'web-tree-sitter';
import { SyntaxTree, packFlags } from './syntax-node';
import { readSlot, Slot } from './tree-slot';

/** The emscripten module's views of WASM memory (they are replaced when memory grows). */
export interface WasmHeap {
  HEAPU8: Uint8Array;
  HEAPU16: Uint16Array;
  HEAPU32: Uint32Array;
}

const SYM_ERROR = 65535;
const SYM_ERROR_REPEAT = 65534;

/** Per-language tables, read once: names, named-ness, alias sequences and field maps. */
interface LanguageTables {
  /** Type name by symbol (what Node.type says), aliases included; then ERROR and _ERROR. */
  names: string[];
  /** The row values of the builtin error symbols in `names`. */
  errorType: number;
  errorRepeatType: number;
  /** Symbol metadata `named` (used for aliases), by symbol. */
  named: Uint8Array;
  maxAliasLength: number;
  /** Alias symbol by production id × maxAliasLength + structural child index; 0: none. */
  aliases: Uint16Array;
  /** Field id by production id, then structural child index (non-inherited entries; 0: none). */
  fields: number[][];
  fieldNames: (string | null)[];
}

const tablesByLanguage = new WeakMap<Language, LanguageTables>();

/** Reads struct TSLanguage (ABI 15, wasm32 layout). */
function readTables(language: Language, heap: WasmHeap): LanguageTables {
  const L = (language as unknown as { 0: number })[0];
  const u8 = heap.HEAPU8;
  const u16 = heap.HEAPU16;
  const u32 = heap.HEAPU32;
  const word = (offset: number) => u32[(L + offset) >> 2] as number;
  if (word(0) !== 15) throw new Error(`grammar ABI ${word(0)}, expected 15`);
  const symbolCount = word(4);
  const aliasCount = word(8);
  const productionCount = word(28);
  const fieldCount = word(32);
  const maxAliasLength = u16[(L + 36) >> 1] as number;
  const symbolMetadata = word(72);
  const publicSymbolMap = word(76);
  const aliasSequences = word(84);
  const total = symbolCount + aliasCount;
  if (total !== language.types.length || fieldCount !== language.fields.length - 1)
    throw new Error('language tables do not match the API');

  const names: string[] = new Array<string>(total + 2);
  const named = new Uint8Array(total);
  for (let s = 0; s < total; s++) {
    const pub = u16[(publicSymbolMap >> 1) + s] as number;
    names[s] = language.types[pub] || 'ERROR';
    named[s] = u8[symbolMetadata + s * 3 + 1] as number;
  }
  names[total] = 'ERROR';
  names[total + 1] = '_ERROR';
  const aliases = u16.slice(aliasSequences >> 1, (aliasSequences >> 1) + productionCount * maxAliasLength);
  const fields = readFieldMaps(u8, u16, productionCount, word(64), word(68));
  return {
    names,
    errorType: total,
    errorRepeatType: total + 1,
    named,
    maxAliasLength,
    aliases,
    fields,
    fieldNames: [...language.fields],
  };
}

/** Field id by production id, then structural child index, from the field map slices and entries. */
function readFieldMaps(
  u8: Uint8Array,
  u16: Uint16Array,
  productionCount: number,
  fieldMapSlices: number,
  fieldMapEntries: number,
): number[][] {
  const fields: number[][] = [];
  for (let p = 0; p < productionCount; p++) {
    const slice = fieldMapSlices + p * 4;
    const index = u16[slice >> 1] as number;
    const length = u16[(slice + 2) >> 1] as number;
    const byChild: number[] = [];
    for (let e = 0; e < length; e++) {
      const entry = fieldMapEntries + (index + e) * 4;
      const fieldId = u16[entry >> 1] as number;
      const childIndex = u8[entry + 2] as number;
      const inherited = u8[entry + 3] as number;
      // First non-inherited entry wins, as in ts_tree_cursor_current_field_id.
      if (!inherited && byChild[childIndex] === undefined) byChild[childIndex] = fieldId;
    }
    for (let i = 0; i < byChild.length; i++) byChild[i] ??= 0;
    fields.push(byChild);
  }
  return fields;
}

function tablesFor(language: Language, heap: WasmHeap): LanguageTables {
  let t = tablesByLanguage.get(language);
  if (!t) tablesByLanguage.set(language, (t = readTables(language, heap)));
  return t;
}

/**
 * The walk's stack: one row per subtree whose children are being visited, as columns (no object
 * per frame). Grown on demand: sources may nest thousands of levels deep.
 */
class WalkStack {
  depth = 0;
  capacity = 256;
  /** Address of the first child slot (8 bytes per slot). */
  childBase = new Int32Array(this.capacity);
  childCount = new Int32Array(this.capacity);
  next = new Int32Array(this.capacity);
  structural = new Int32Array(this.capacity);
  /** Byte position and point (row, byte column) of the next child's start, before its padding. */
  bytes = new Int32Array(this.capacity);
  row = new Int32Array(this.capacity);
  column = new Int32Array(this.capacity);
  /** Production id: alias sequence and field map. */
  production = new Int32Array(this.capacity);
  /** The row of the visible node its visible descendants belong to. */
  collector = new Int32Array(this.capacity);
  /** Whether this subtree is the collector itself (not a hidden node inside it). */
  owned = new Int32Array(this.capacity);
  /** Field inherited from hidden ancestors (see the module comment); 0: none. */
  fallbackField = new Int32Array(this.capacity);

  push(
    childBase: number,
    childCount: number,
    bytes: number,
    row: number,
    column: number,
    production: number,
    collector: number,
    owned: number,
    fallbackField: number,
  ): void {
    const d = this.depth;
    if (d === this.capacity) this.grow();
    this.childBase[d] = childBase;
    this.childCount[d] = childCount;
    this.next[d] = 0;
    this.structural[d] = 0;
    this.bytes[d] = bytes;
    this.row[d] = row;
    this.column[d] = column;
    this.production[d] = production;
    this.collector[d] = collector;
    this.owned[d] = owned;
    this.fallbackField[d] = fallbackField;
    this.depth = d + 1;
  }

  private grow(): void {
    const n = this.capacity * 2;
    for (const k of [
      'childBase',
      'childCount',
      'next',
      'structural',
      'bytes',
      'row',
      'column',
      'production',
      'collector',
      'owned',
      'fallbackField',
    ] as const) {
      const a = new Int32Array(n);
      a.set(this[k]);
      this[k] = a;
    }
    this.capacity = n;
  }
}

/** Reused by every walk (walks never nest). */
const walk = new WalkStack();
const slot = new Slot();

/**
 * Which children of the root to read without their descendants (their row stays, a leaf): asked
 * only for error-free nodes with children, with the node's type, UTF-16 start and end index and
 * start point (row, UTF-16 column). The model builder reuses its previous model of such a node.
 */
export type SkipTopLevel = (
  type: string,
  startIndex: number,
  endIndex: number,
  row: number,
  column: number,
) => boolean;

/** Adds the root node (struct TSTree's root Subtree at `rp`); returns its start byte, its own padding. */
function addRoot(out: SyntaxTree, t: LanguageTables, heap: WasmHeap, rp: number): number {
  const u8 = heap.HEAPU8;
  const u16 = heap.HEAPU16;
  const u32 = heap.HEAPU32;
  const rootStart = u32[(rp + 4) >> 2] as number;
  const rootRow = u32[(rp + 8) >> 2] as number;
  const rootCol = u32[(rp + 12) >> 2] as number;
  const rootSizeBytes = u32[(rp + 16) >> 2] as number;
  const rootSizeRows = u32[(rp + 20) >> 2] as number;
  const rootSizeCols = u32[(rp + 24) >> 2] as number;
  const rootSymbol = u16[(rp + 40) >> 1] as number;
  out.add(
    -1,
    rootSymbol === SYM_ERROR ? t.errorType : rootSymbol,
    packFlags(
      rootSymbol === SYM_ERROR || ((u8[rp + 44] as number) & 2) !== 0,
      ((u8[rp + 45] as number) & 2) !== 0,
      (u32[(rp + 32) >> 2] as number) > 0,
      false,
    ),
    0,
    rootStart >>> 1,
    (rootStart + rootSizeBytes) >>> 1,
    rootRow,
    rootCol >>> 1,
    rootRow + rootSizeRows,
    (rootSizeRows > 0 ? rootSizeCols : rootCol + rootSizeCols) >>> 1,
  );
  return rootStart;
}

/** What one walk reads with: the language's tables, the heap's views, and the tree it builds. */
interface Reading {
  readonly t: LanguageTables;
  readonly u8: Uint8Array;
  readonly u16: Uint16Array;
  readonly u32: Uint32Array;
  readonly out: SyntaxTree;
  readonly skip: SkipTopLevel | undefined;
}

/** Where the child being read starts, after its padding (reused by every child: no object per node). */
const start = { bytes: 0, row: 0, column: 0 };

/** Reads `tree` (parsed from `text`) into a SyntaxTree. */
export function readTree(tree: Tree, text: string, heap: WasmHeap, skip?: SkipTopLevel): SyntaxTree {
  const t = tablesFor(tree.language, heap);
  const u8 = heap.HEAPU8;
  const u16 = heap.HEAPU16;
  const u32 = heap.HEAPU32;
  const treeAddress = (tree as unknown as { 0: number })[0];

  // The root: struct TSTree starts with its root Subtree; its start is its own padding.
  if ((u8[treeAddress] as number) & 1) throw new Error('inline root subtree');
  const rp = u32[treeAddress >> 2] as number;
  const rootChildren = u32[(rp + 36) >> 2] as number;
  // visible_descendant_count sizes the columns (aliases may add a few: the columns grow).
  const out = new SyntaxTree(
    text,
    t.names,
    t.fieldNames,
    (rootChildren > 0 ? (u32[(rp + 56) >> 2] as number) : 0) + 16,
  );
  const rootStart = addRoot(out, t, heap, rp);
  const w = walk;
  w.depth = 0;
  if (rootChildren > 0) {
    const rootRow = u32[(rp + 8) >> 2] as number;
    const rootCol = u32[(rp + 12) >> 2] as number;
    const production = u16[(rp + 66) >> 1] as number;
    w.push(rp - rootChildren * 8, rootChildren, rootStart, rootRow, rootCol, production, 0, 1, 0);
  }
  const r: Reading = { t, u8, u16, u32, out, skip };
  while (w.depth > 0) {
    const d = w.depth - 1;
    const index = w.next[d] as number;
    if (index === w.childCount[d]) {
      if (w.owned[d]) out.close(w.collector[d] as number);
      w.depth = d;
      continue;
    }
    w.next[d] = index + 1;
    readChild(r, d, index);
  }
  return out;
}

/** Reads the index-th child slot of the subtree at depth d: adds it if visible, else walks into it. */
function readChild(r: Reading, d: number, index: number): void {
  const w = walk;
  const t = r.t;
  readSlot(r.u8, r.u16, r.u32, (w.childBase[d] as number) + index * 8, slot);
  const { extra, p, childCount } = slot;
  let alias = 0;
  let field = 0;
  if (!extra) {
    const stride = t.maxAliasLength;
    const production = w.production[d] as number;
    const structural = w.structural[d] as number;
    if (production && structural < stride) alias = t.aliases[production * stride + structural] as number;
    field = (t.fields[production]?.[structural] ?? 0) || (w.fallbackField[d] as number);
    w.structural[d] = structural + 1;
  }
  advance(d, index);
  const production = childCount > 0 ? (r.u16[(p + 66) >> 1] as number) : 0;
  if (slot.visible || alias) addVisible(r, d, alias, field, production);
  else if (childCount > 0) {
    // A hidden node: its visible descendants belong to the collector; an extra hidden node
    // passes no field down (the cursor stops walking up at an extra entry).
    const { bytes, row, column } = start;
    w.push(
      p - childCount * 8,
      childCount,
      bytes,
      row,
      column,
      production,
      w.collector[d] as number,
      0,
      extra ? 0 : field,
    );
  }
}

/** Moves depth d's position past the child's padding (into `start`), then past the child itself. */
function advance(d: number, index: number): void {
  const w = walk;
  const { padBytes, padRows, padCols, sizeBytes, sizeRows, sizeCols } = slot;
  let bytes = w.bytes[d] as number;
  let row = w.row[d] as number;
  let column = w.column[d] as number;
  if (index > 0) {
    bytes += padBytes;
    if (padRows > 0) {
      row += padRows;
      column = padCols;
    } else column += padCols;
  }
  start.bytes = bytes;
  start.row = row;
  start.column = column;
  bytes += sizeBytes;
  if (sizeRows > 0) {
    row += sizeRows;
    column = sizeCols;
  } else column += sizeCols;
  w.bytes[d] = bytes;
  w.row[d] = row;
  w.column[d] = column;
}

/** Adds the visible child just read (under its alias's name, if any) and walks into it unless skipped. */
function addVisible(r: Reading, d: number, alias: number, field: number, production: number): void {
  const w = walk;
  const t = r.t;
  const { symbol, named, extra, missing, errorCost, p, childCount } = slot;
  const shown = alias || symbol;
  const type = shown === SYM_ERROR ? t.errorType : shown === SYM_ERROR_REPEAT ? t.errorRepeatType : shown;
  const isNamed = alias ? (t.named[alias] as number) !== 0 : named;
  const endBytes = w.bytes[d] as number;
  const node = r.out.add(
    w.collector[d] as number,
    type,
    packFlags(isNamed, missing, errorCost > 0, extra),
    field,
    start.bytes >>> 1,
    endBytes >>> 1,
    start.row,
    start.column >>> 1,
    w.row[d] as number,
    (w.column[d] as number) >>> 1,
  );
  if (childCount === 0) return;
  const skip = r.skip;
  if (
    skip &&
    w.collector[d] === 0 &&
    errorCost === 0 &&
    skip(t.names[type] as string, start.bytes >>> 1, endBytes >>> 1, start.row, start.column >>> 1)
  )
    return;
  w.push(p - childCount * 8, childCount, start.bytes, start.row, start.column, production, node, 1, 0);
}
