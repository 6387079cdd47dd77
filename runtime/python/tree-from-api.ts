// The same SyntaxTree as tree-memory.ts, read through web-tree-sitter's public TreeCursor API:
// slower (a WASM call per property), but independent of tree-sitter's internal layout. Used when
// web-tree-sitter does not expose its WASM heap, and by tests as the reference.
import type { Node, Tree } from 'web-tree-sitter';
import { SyntaxTree, packFlags } from './syntax-node';
import type { SkipTopLevel } from './tree-memory';

const typeNamesByLanguage = new WeakMap<object, string[]>();

export function readTreeViaApi(tree: Tree, text: string, skip?: SkipTopLevel): SyntaxTree {
  const language = tree.language;
  let typeNames = typeNamesByLanguage.get(language);
  if (!typeNames)
    typeNamesByLanguage.set(language, (typeNames = [...language.types.map((t) => t || 'ERROR'), 'ERROR']));
  const errorType = typeNames.length - 1;
  const out = new SyntaxTree(text, typeNames, [...language.fields], tree.rootNode.descendantCount);
  const cursor = tree.walk();
  try {
    const add = (parent: number): number => {
      const n = cursor.currentNode;
      const start = n.startPosition;
      const end = n.endPosition;
      const type = n.typeId < errorType ? n.typeId : errorType;
      const field = parent < 0 ? 0 : cursor.currentFieldId;
      return out.add(
        parent,
        type,
        packFlags(n.isNamed, n.isMissing, n.hasError, n.isExtra),
        field,
        n.startIndex,
        n.endIndex,
        start.row,
        start.column,
        end.row,
        end.column,
      );
    };
    // Iterative depth-first walk: sources may nest thousands of levels deep.
    const parents: number[] = [add(-1)];
    if (cursor.gotoFirstChild()) {
      for (;;) {
        const parent = parents[parents.length - 1] as number;
        const row = add(parent);
        if (!(skip && parent === 0 && skipped(cursor.currentNode, skip)) && cursor.gotoFirstChild()) {
          parents.push(row);
          continue;
        }
        let done = false;
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent() || parents.length <= 1) {
            done = true;
            break;
          }
          out.close(parents.pop() as number);
        }
        if (done) break;
      }
    }
    for (const row of parents) out.close(row);
  } finally {
    cursor.delete();
  }
  return out;
}

function skipped(n: Node, skip: SkipTopLevel): boolean {
  if (n.hasError || n.childCount === 0) return false;
  const start = n.startPosition;
  return skip(n.type, n.startIndex, n.endIndex, start.row, start.column);
}
