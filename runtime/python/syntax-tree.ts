// tree-sitter Tree → SyntaxTree: through WASM memory (tree-memory.ts) when that reader agrees
// with the API on a probe source, else through the API (tree-from-api.ts).
import type { Tree } from 'web-tree-sitter';
import { parse, wasmHeap } from './parser';
import type { SyntaxNode, SyntaxTree } from './syntax-node';
import { readTree } from './tree-memory';
import { readTreeViaApi } from './tree-from-api';

/**
 * Covers what the memory reader interprets: fields (direct and through hidden nodes), aliases,
 * extras (comments), error recovery and missing tokens, heap and inline leaves, non-ASCII text
 * and multi-line nodes.
 */
const PROBE = [
  '# -*- coding: utf-8 -*-',
  'from __future__ import annotations',
  'import a.b as c, d',
  'from .x import (y as z, w)  # café',
  '@deco(k=1)',
  'async def f(p: "T", /, q=1, *args: int, r, **kw) -> dict[str, "ü"]:',
  '    """doc 🎉"""',
  '    x = await g(p, key={"a": [1, 2.0, -3, None, True]}, *q, **kw)',
  '    match x:',
  '        case {"k": [1, *rest]} | Point(x=0) as pt if pt:',
  '            print(f"{x!r:>10} {y}" "tail", end="")',
  '    try:',
  '        raise ValueError("e") from None',
  '    except* (A, B) as e:',
  '        return lambda z, *, t=2: z if t else not z',
  '    finally:',
  '        del x[1:2, ::3], y.z',
  'class K(B[int], metaclass=M):',
  '    a: int = 1',
  '    def m(self): global q; nonlocal_ = [i for i in range(3) if i]; yield from g',
  'type Alias[T] = list[T]',
  'def broken(a=1 b):',
  '    x = (1,',
  '',
].join('\n');

let memoryReaderWorks: boolean | undefined;

/** Whether the fast reader is in use (false: the API fallback). */
export function usesMemoryReader(): boolean {
  memoryReaderWorks ??= probeMemoryReader();
  return memoryReaderWorks;
}

function probeMemoryReader(): boolean {
  const heap = wasmHeap();
  if (!heap) return false;
  const tree = parse(PROBE);
  try {
    const diff = firstDifference(readTree(tree, PROBE, heap).rootNode, readTreeViaApi(tree, PROBE).rootNode);
    if (diff) process.emitWarning(`hooksmith: reading trees through the tree-sitter API (slower): ${diff}`);
    return !diff;
  } catch (err) {
    process.emitWarning(
      `hooksmith: reading trees through the tree-sitter API (slower): ${err instanceof Error ? err.message : String(err)}`,
    );
    return false;
  } finally {
    tree.delete();
  }
}

/** The SyntaxTree of `tree`, which was parsed from `text`. The tree may be deleted afterwards. */
export function toSyntaxTree(tree: Tree, text: string): SyntaxTree {
  const heap = wasmHeap();
  if (heap && usesMemoryReader()) return readTree(tree, text, heap);
  return readTreeViaApi(tree, text);
}

/** The first way two trees differ (by structure and every property), or undefined. */
export function firstDifference(a: SyntaxNode, b: SyntaxNode): string | undefined {
  const stack: [SyntaxNode, SyntaxNode][] = [[a, b]];
  while (stack.length) {
    const [x, y] = stack.pop() as [SyntaxNode, SyntaxNode];
    for (const k of [
      'type',
      'isNamed',
      'isMissing',
      'hasError',
      'isExtra',
      'field',
      'startIndex',
      'endIndex',
    ] as const) {
      if (x[k] !== y[k]) return `${k} ${JSON.stringify(x[k])} ≠ ${JSON.stringify(y[k])} at ${where(y)}`;
    }
    const [xs, ys, xe, ye] = [x.startPosition, y.startPosition, x.endPosition, y.endPosition];
    if (xs.row !== ys.row || xs.column !== ys.column || xe.row !== ye.row || xe.column !== ye.column)
      return `position ${JSON.stringify([xs, xe])} ≠ ${JSON.stringify([ys, ye])} at ${where(y)}`;
    if (x.children.length !== y.children.length)
      return `${x.children.length} ≠ ${y.children.length} children in ${where(y)}`;
    for (let i = 0; i < x.children.length; i++)
      stack.push([x.children[i] as SyntaxNode, y.children[i] as SyntaxNode]);
  }
  return undefined;
}

function where(n: SyntaxNode): string {
  const p = n.startPosition;
  return `${n.type} ${p.row}:${p.column}`;
}
