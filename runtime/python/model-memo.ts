// The language server's rebuild after an edit: the model of the new tree, reading and modelling
// only the module-level definitions the edit touched. A definition whose text and start position
// are those of one in the previous build is read as a leaf (toSyntaxTree's skip: none of its
// nodes are visited) and its previous parts are reused, as the function cache would give them
// (a def's model is a pure function of its text, start, class and the module's import scope).
// When the import scope changed (or whether the module has indented class lines, or a future
// import of annotations), the tree is read again in full. Import-time name checks
// (import-time-names.ts) take the reused defs' names from the previous build too. The result
// equals buildModel's (test/unit/python/incremental.test.ts).
import type { Tree } from 'web-tree-sitter';
import { StaleReuse, modelOfSyntax, type DefParts, type DefReuse } from './build-model';
import type { HookModule } from './model';
import { substituteReason } from './parser';
import type { SyntaxNode } from './syntax-node';
import { toSyntaxTree } from './syntax-tree';
import { lspPositions, positionOf, useLspLines } from './tree-utils';

/** What the next build may reuse: each error-free module-level def's text and parts. */
export interface ModelMemo {
  /** The module's import scope, whether it has indented class lines, `from __future__ import annotations`. */
  context: string;
  /** By LSP start position (positionKey). */
  defs: Map<number, { text: string; parts: DefParts }>;
}

/** A start position as one number (a Map key without a string built per def and edit). */
function positionKey(line: number, character: number): number {
  return line * 0x1_0000_0000 + character;
}

const DEF_TYPES = new Set(['function_definition', 'class_definition', 'decorated_definition']);

/** The model of `tree` (parsed from `text`), reusing `previous` where it still holds. */
export function buildModelReusing(
  tree: Tree,
  text: string,
  path: string,
  previous: ModelMemo | undefined,
): { model: HookModule; memo: ModelMemo } {
  if (previous && previous.defs.size > 0 && !substituteReason(tree)) {
    const built = build(tree, text, path, previous);
    if (built) return built;
  }
  return build(tree, text, path, undefined) as { model: HookModule; memo: ModelMemo };
}

function build(
  tree: Tree,
  text: string,
  path: string,
  previous: ModelMemo | undefined,
): { model: HookModule; memo: ModelMemo } | undefined {
  const memo: ModelMemo = { context: '', defs: new Map() };
  const at = lspPositions(text);
  const skip = previous
    ? (type: string, start: number, end: number, row: number, column: number) => {
        if (!DEF_TYPES.has(type)) return false;
        const p = at(start, row, column);
        const kept = previous.defs.get(positionKey(p.line, p.character));
        // A slice and ===, not startsWith(text, start): V8 compares those char by char, 20× slower.
        return kept !== undefined && kept.text.length === end - start && text.slice(start, end) === kept.text;
      }
    : undefined;
  const startOf = (def: SyntaxNode) => {
    const p = positionOf(def, 'start');
    return positionKey(p.line, p.character);
  };
  const reuse: DefReuse = {
    begin(context) {
      memo.context = context;
      if (!previous || previous.context !== context) return undefined;
      return (def) => previous.defs.get(startOf(def))?.parts;
    },
    keep(def, parts) {
      if (!def.hasError) memo.defs.set(startOf(def), { text: def.text, parts });
    },
  };
  const syntax = toSyntaxTree(tree, text, skip);
  try {
    useLspLines(tree, text); // the server's features read positions off the tree-sitter tree too
    return { model: modelOfSyntax(syntax, text, path, substituteReason(tree), reuse), memo };
  } catch (err) {
    if (err instanceof StaleReuse) return undefined;
    throw err;
  } finally {
    syntax.release();
  }
}
