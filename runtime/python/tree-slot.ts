// One child slot of a subtree, read straight out of the WASM heap for tree-memory.ts (same pinned
// layout: tree-sitter v0.25.10 lib/src/subtree.h, wasm32). A slot is 8 bytes: either a small leaf
// packed into the slot itself (SubtreeInlineData) or a pointer to a SubtreeHeapData.
/** One child slot as read from the heap, reused for every node (no object per node). */
export class Slot {
  symbol = 0;
  visible = false;
  named = false;
  extra = false;
  missing = false;
  errorCost = 0;
  padBytes = 0;
  padRows = 0;
  padCols = 0;
  sizeBytes = 0;
  sizeRows = 0;
  sizeCols = 0;
  /** Address of the SubtreeHeapData (0 for an inline leaf). */
  p = 0;
  childCount = 0;
}

/** Reads the 8-byte child slot at `a` into `s`: an inline leaf (subtree.h SubtreeInlineData) or a heap subtree. */
export function readSlot(u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, a: number, s: Slot): void {
  const b0 = u8[a] as number;
  if (b0 & 1) {
    // SubtreeInlineData: a small leaf packed into the slot itself.
    s.symbol = u8[a + 1] as number;
    s.visible = (b0 & 2) !== 0;
    s.named = (b0 & 4) !== 0;
    s.extra = (b0 & 8) !== 0;
    s.missing = (b0 & 32) !== 0;
    s.errorCost = s.missing ? 1 : 0;
    s.padCols = u8[a + 4] as number;
    s.padRows = (u8[a + 5] as number) & 15;
    s.padBytes = u8[a + 6] as number;
    s.sizeBytes = u8[a + 7] as number;
    s.sizeRows = 0;
    s.sizeCols = s.sizeBytes;
    s.p = 0;
    s.childCount = 0;
    return;
  }
  const p = u32[a >> 2] as number;
  s.p = p;
  s.padBytes = u32[(p + 4) >> 2] as number;
  s.padRows = u32[(p + 8) >> 2] as number;
  s.padCols = u32[(p + 12) >> 2] as number;
  s.sizeBytes = u32[(p + 16) >> 2] as number;
  s.sizeRows = u32[(p + 20) >> 2] as number;
  s.sizeCols = u32[(p + 24) >> 2] as number;
  s.errorCost = u32[(p + 32) >> 2] as number;
  s.childCount = u32[(p + 36) >> 2] as number;
  s.symbol = u16[(p + 40) >> 1] as number;
  const flags = u8[p + 44] as number;
  s.visible = (flags & 1) !== 0;
  s.named = (flags & 2) !== 0;
  s.extra = (flags & 4) !== 0;
  s.missing = ((u8[p + 45] as number) & 2) !== 0;
  if (s.missing) s.errorCost = 1;
}
