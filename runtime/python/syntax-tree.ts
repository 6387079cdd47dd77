// tree-sitter Tree → SyntaxTree: through WASM memory (tree-memory.ts) when web-tree-sitter exposes
// its heap, else through the API (tree-from-api.ts). The memory reader is tied to the pinned
// web-tree-sitter and grammar, which are bundled as built; its tests compare it with the API on
// every Python file of the repository, awkward texts and mutated sources, rather than every start.
import type { Tree } from 'web-tree-sitter';
import { wasmHeap } from './parser';
import type { SyntaxTree } from './syntax-node';
import { readTree, type SkipTopLevel } from './tree-memory';
import { readTreeViaApi } from './tree-from-api';

/**
 * The SyntaxTree of `tree`, which was parsed from `text`. The tree may be deleted afterwards.
 * `skip` names children of the root to read as leaves (see SkipTopLevel).
 */
export function toSyntaxTree(tree: Tree, text: string, skip?: SkipTopLevel): SyntaxTree {
  const heap = wasmHeap();
  return heap ? readTree(tree, text, heap, skip) : readTreeViaApi(tree, text, skip);
}
