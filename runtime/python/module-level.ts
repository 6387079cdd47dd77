// Pass 1 of building a HookModule (build-model.ts): the module-level imports, including those
// under module-level if/try/with, and the defs to model, each in source order.
import type { SyntaxNode as Node } from './syntax-node';
import type { ImportBinding } from './model';
import { Scope, importBindings } from './imports';

export const IMPORT_TYPES = new Set(['import_statement', 'import_from_statement', 'future_import_statement']);
/**
 * Module-level compound statements whose blocks still bind module names (try/except ImportError,
 * if TYPE_CHECKING). Top-level ERROR nodes are entered too: after a syntax error, tree-sitter
 * may wrap the whole module in one, and the imports and defs inside are still worth modelling.
 */
export const MODULE_BLOCKS = new Set([
  'if_statement',
  'try_statement',
  'with_statement',
  'block',
  'else_clause',
  'elif_clause',
  'except_clause',
  'except_group_clause',
  'finally_clause',
]);

/** Pass 1: module-level imports (also under module-level if/try/with) and defs, in source order. */
export function moduleLevel(root: Node) {
  const imports: ImportBinding[] = [];
  const scope = new Scope();
  // In the order the scope saw them (later bindings win): part of the def cache's key.
  const added: ImportBinding[] = [];
  let futureAnnotations = false;
  const defs: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop() as Node;
    const children = n.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      const c = children[i];
      if (!c) continue;
      if (IMPORT_TYPES.has(c.type)) {
        for (const b of importBindings(c, true)) {
          imports.push(b);
          scope.add(b);
          added.push(b);
          if (b.module === '__future__' && b.importedName === 'annotations') futureAnnotations = true;
        }
      } else if (
        (n === root || n.type === 'ERROR') &&
        (c.type === 'function_definition' ||
          c.type === 'class_definition' ||
          c.type === 'decorated_definition')
      ) {
        defs.push(c);
      } else if (MODULE_BLOCKS.has(c.type) || (c.type === 'ERROR' && (n === root || n.type === 'ERROR')))
        stack.push(c);
    }
  }
  // The stack visits nested blocks after their siblings: restore source order.
  imports.sort((a, b) => cmp(a.nameRange.start, b.nameRange.start));
  defs.sort((a, b) => a.startIndex - b.startIndex);
  return { imports, scope, added, defs, futureAnnotations };
}

function cmp(a: { line: number; character: number }, b: { line: number; character: number }): number {
  return a.line - b.line || a.character - b.character;
}
