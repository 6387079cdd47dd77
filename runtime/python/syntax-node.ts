// The syntax tree the model builder reads, with the part of web-tree-sitter's Node API that
// runtime/python uses. Why not web-tree-sitter's Node itself: every property read there is a
// call into WASM, and building a model reads hundreds of thousands of them.
//
// Storage is columns of typed arrays, one row per visible node in document order, filled in one
// pass (tree-memory.ts, or tree-from-api.ts as the fallback). SyntaxNode objects are small
// views made where a reader asks for a node and dropped after: a 3,000-line module's 26,000
// nodes as long-lived objects cost more in GC than the whole walk. So two reads of the same node
// may give two objects: compare nodes by `id`, not `===`.
//
// Positions follow web-tree-sitter for a JS string: indexes and columns in UTF-16 code units,
// rows counted by \n.

const NAMED = 1;
const MISSING = 2;
const HAS_ERROR = 4;
const EXTRA = 8;

let treeSerial = 0;

/** The columns of a tree: one typed array per node property, indexed by row. */
interface ColumnArrays {
  typeOf: Uint16Array;
  flags: Uint8Array;
  field: Uint16Array;
  startIndex: Uint32Array;
  endIndex: Uint32Array;
  startRow: Uint32Array;
  startColumn: Uint32Array;
  endRow: Uint32Array;
  endColumn: Uint32Array;
  parentOf: Int32Array;
  /** One past the row of a node's last descendant: rows are in document (pre-)order. */
  end: Int32Array;
}

type ColumnName = keyof ColumnArrays;
type ColumnConstructor =
  Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor;
const ELEMENT: { readonly [K in ColumnName]: ColumnConstructor } = {
  typeOf: Uint16Array,
  flags: Uint8Array,
  field: Uint16Array,
  startIndex: Uint32Array,
  endIndex: Uint32Array,
  startRow: Uint32Array,
  startColumn: Uint32Array,
  endRow: Uint32Array,
  endColumn: Uint32Array,
  parentOf: Int32Array,
  end: Int32Array,
};
const COLUMN_NAMES = Object.keys(ELEMENT) as ColumnName[];
/** Columns by element size, widest first: every view into one buffer is aligned. */
const PACK_ORDER = [...COLUMN_NAMES].sort(
  (a, b) => ELEMENT[b].BYTES_PER_ELEMENT - ELEMENT[a].BYTES_PER_ELEMENT,
);
const ROW_BYTES = COLUMN_NAMES.reduce((n, k) => n + ELEMENT[k].BYTES_PER_ELEMENT, 0);

/** The storage of one tree; reused by later trees once released (see SyntaxTree.release). */
export interface Columns extends ColumnArrays {
  capacity: number;
}

/**
 * Storage for `capacity` rows: every column a view into one ArrayBuffer (one allocation per tree
 * rather than eleven), widest elements first so that every view is aligned.
 */
function newColumns(capacity: number): Columns {
  const buffer = new ArrayBuffer(capacity * ROW_BYTES);
  const c = { capacity } as Columns;
  let offset = 0;
  for (const k of PACK_ORDER) {
    const make = ELEMENT[k];
    (c as unknown as Record<ColumnName, unknown>)[k] = new make(buffer, offset, capacity);
    offset += capacity * make.BYTES_PER_ELEMENT;
  }
  return c;
}

/** Twice the capacity, holding the first `size` rows of `old`. */
function grownColumns(old: Columns, size: number): Columns {
  const c = newColumns(old.capacity * 2);
  for (const k of COLUMN_NAMES) (c[k] as Uint32Array).set((old[k] as Uint32Array).subarray(0, size));
  return c;
}

/**
 * Released storage, for the next trees. Fresh typed arrays for every tree made V8 spend most of a
 * model build in garbage collection (their backing stores count as external memory).
 */
const pool: Columns[] = [];
const POOL_SIZE = 4;
/** Storage of a huge tree (a generated 1 MB module) is not kept: ~50 bytes per row. */
const MAX_POOLED_ROWS = 256 * 1024;
const RELEASED = newColumns(0);

// The columns are also the tree's own fields (assigned in adopt()): node getters read them on
// every property access, one load instead of two.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SyntaxTree extends ColumnArrays {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SyntaxTree {
  /** Rows filled so far. */
  size = 0;
  private cols: Columns;
  /** Ids of this tree's nodes are `idBase + row`: unique across trees in this process. */
  readonly idBase: number;

  constructor(
    readonly text: string,
    /** Type name by the typeOf column's value. */
    readonly typeNames: readonly string[],
    /** Field name by the field column's value (0: no field). */
    readonly fieldNames: readonly (string | null)[],
    /** Rows to make room for. */
    capacity: number,
  ) {
    this.idBase = (treeSerial++ % 0x10_0000) * 0x1000_0000;
    this.cols = RELEASED;
    // The smallest pooled storage that fits, so large storage stays for large trees.
    let best = -1;
    for (let i = 0; i < pool.length; i++) {
      const c = (pool[i] as Columns).capacity;
      if (c >= capacity && (best < 0 || c < (pool[best] as Columns).capacity)) best = i;
    }
    let cols: Columns | undefined;
    if (best >= 0) {
      cols = pool[best];
      pool.splice(best, 1);
    }
    this.adopt(cols ?? newColumns(Math.max(1024, capacity)));
  }

  /** Makes `cols` this tree's storage (always the same fields in the same order: one shape). */
  private adopt(cols: Columns): void {
    this.cols = cols;
    for (const k of COLUMN_NAMES) (this as unknown as Record<ColumnName, unknown>)[k] = cols[k];
  }

  /**
   * Appends a node after every row so far: the next child of `parent` (-1: the root), which must
   * be the last row added or one of its ancestors. Call close(row) once a node's descendants are
   * all added (a node never closed counts as a leaf).
   */
  add(
    parent: number,
    type: number,
    flags: number,
    field: number,
    startIndex: number,
    endIndex: number,
    startRow: number,
    startColumn: number,
    endRow: number,
    endColumn: number,
  ): number {
    const i = this.size;
    if (i === this.cols.capacity) this.grow();
    this.size = i + 1;
    this.typeOf[i] = type;
    this.flags[i] = flags;
    this.field[i] = field;
    this.startIndex[i] = startIndex;
    this.endIndex[i] = endIndex;
    this.startRow[i] = startRow;
    this.startColumn[i] = startColumn;
    this.endRow[i] = endRow;
    this.endColumn[i] = endColumn;
    this.parentOf[i] = parent;
    this.end[i] = i + 1;
    return i;
  }

  /** Marks every row added since `row` as its descendants. */
  close(row: number): void {
    this.end[row] = this.size;
  }

  /**
   * Gives the storage to later trees. Only for a tree nobody reads any more: this tree's nodes
   * then read as empty ERROR nodes rather than another tree's data.
   */
  release(): void {
    const cols = this.cols;
    if (cols === RELEASED) return;
    this.adopt(RELEASED);
    this.size = 0;
    if (cols.capacity > MAX_POOLED_ROWS) return;
    if (pool.length < POOL_SIZE) {
      pool.push(cols);
      return;
    }
    // A full pool keeps the largest storage: after many small modules, a large one must not
    // allocate (and the GC free) fresh columns on every build.
    let smallest = 0;
    for (let i = 1; i < pool.length; i++)
      if ((pool[i] as Columns).capacity < (pool[smallest] as Columns).capacity) smallest = i;
    if ((pool[smallest] as Columns).capacity < cols.capacity) pool[smallest] = cols;
  }

  /** Type name of a row (without making its node). */
  typeName(row: number): string {
    return this.typeNames[this.typeOf[row] as number] ?? 'ERROR';
  }

  /** Whether a row is a named node (without making its node). */
  isNamedRow(row: number): boolean {
    return ((this.flags[row] as number) & NAMED) !== 0;
  }

  get rootNode(): SyntaxNode {
    return this.node(0);
  }

  /** A node object for a row (a new view on each call). */
  node(row: number): SyntaxNode {
    return new SyntaxNode(this, row);
  }

  private grow(): void {
    this.adopt(grownColumns(this.cols, this.size));
  }
}

/** Packs node flags for SyntaxTree.add. */
export function packFlags(named: boolean, missing: boolean, hasError: boolean, extra: boolean): number {
  return (named ? NAMED : 0) | (missing ? MISSING : 0) | (hasError ? HAS_ERROR : 0) | (extra ? EXTRA : 0);
}

export class SyntaxNode {
  private _children: SyntaxNode[] | undefined;
  private _named: SyntaxNode[] | undefined;

  constructor(
    readonly tree: SyntaxTree,
    readonly row: number,
  ) {}

  /** Unique within the process (a Map key for "this node"). */
  get id(): number {
    return this.tree.idBase + this.row;
  }

  get type(): string {
    return this.tree.typeName(this.row);
  }

  get isNamed(): boolean {
    return this.tree.isNamedRow(this.row);
  }

  get isMissing(): boolean {
    return ((this.tree.flags[this.row] as number) & MISSING) !== 0;
  }

  get hasError(): boolean {
    return ((this.tree.flags[this.row] as number) & HAS_ERROR) !== 0;
  }

  get isExtra(): boolean {
    return ((this.tree.flags[this.row] as number) & EXTRA) !== 0;
  }

  /** This node's field in its parent (`name`, `body`, …), null when it has none. */
  get field(): string | null {
    return this.tree.fieldNames[this.tree.field[this.row] as number] ?? null;
  }

  get startIndex(): number {
    return this.tree.startIndex[this.row] as number;
  }

  get endIndex(): number {
    return this.tree.endIndex[this.row] as number;
  }

  get startPosition(): { row: number; column: number } {
    return { row: this.tree.startRow[this.row] as number, column: this.tree.startColumn[this.row] as number };
  }

  get endPosition(): { row: number; column: number } {
    return { row: this.tree.endRow[this.row] as number, column: this.tree.endColumn[this.row] as number };
  }

  get text(): string {
    return this.tree.text.slice(this.tree.startIndex[this.row], this.tree.endIndex[this.row]);
  }

  get parent(): SyntaxNode | null {
    const p = this.tree.parentOf[this.row] as number;
    return p < 0 ? null : this.tree.node(p);
  }

  get children(): SyntaxNode[] {
    if (this._children) return this._children;
    const t = this.tree;
    const out: SyntaxNode[] = [];
    for (let c = this.row + 1, e = t.end[this.row] as number; c < e; c = t.end[c] as number)
      out.push(t.node(c));
    return (this._children = out);
  }

  // Counts and single children walk the rows: no array of node objects for one answer.
  get childCount(): number {
    if (this._children) return this._children.length;
    const t = this.tree;
    let n = 0;
    for (let c = this.row + 1, e = t.end[this.row] as number; c < e; c = t.end[c] as number) n++;
    return n;
  }

  /** By index through the children array (made once): a loop over child(i) stays linear. */
  child(i: number): SyntaxNode | null {
    return this.children[i] ?? null;
  }

  get namedChildren(): SyntaxNode[] {
    if (this._named) return this._named;
    const t = this.tree;
    const out: SyntaxNode[] = [];
    for (let c = this.row + 1, e = t.end[this.row] as number; c < e; c = t.end[c] as number)
      if ((t.flags[c] as number) & NAMED) out.push(t.node(c));
    return (this._named = out);
  }

  get namedChildCount(): number {
    if (this._named) return this._named.length;
    const t = this.tree;
    let n = 0;
    for (let c = this.row + 1, e = t.end[this.row] as number; c < e; c = t.end[c] as number)
      if ((t.flags[c] as number) & NAMED) n++;
    return n;
  }

  /** By index through the named children array (made once): a loop over namedChild(i) stays linear. */
  namedChild(i: number): SyntaxNode | null {
    // The first named child is the common single read: no array for it.
    if (i === 0 && !this._named) {
      const t = this.tree;
      for (let c = this.row + 1, e = t.end[this.row] as number; c < e; c = t.end[c] as number)
        if ((t.flags[c] as number) & NAMED) return t.node(c);
      return null;
    }
    return this.namedChildren[i] ?? null;
  }

  childForFieldName(name: string): SyntaxNode | null {
    const t = this.tree;
    for (let c = this.row + 1, e = t.end[this.row] as number; c < e; c = t.end[c] as number)
      if (t.fieldNames[t.field[c] as number] === name) return t.node(c);
    return null;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    const t = this.tree;
    const out: SyntaxNode[] = [];
    for (let c = this.row + 1, e = t.end[this.row] as number; c < e; c = t.end[c] as number)
      if (t.fieldNames[t.field[c] as number] === name) out.push(t.node(c));
    return out;
  }
}
