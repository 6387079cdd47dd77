// The SyntaxTree read straight from WASM memory (tree-memory.ts) equals the one read through
// web-tree-sitter's API (tree-from-api.ts) node for node: type, named, missing, error, extra,
// field, indexes and positions. Run over every Python file in the repository, awkward texts and
// fast-check mutations of the examples; plus the storage's own contract (growth, release, ids).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { hookModuleSource } from '../../../bench/generate';
import { initParser, parse, wasmHeap } from '../../../runtime/python/parser';
import { SyntaxTree, packFlags, type SyntaxNode } from '../../../runtime/python/syntax-node';
import { toSyntaxTree } from '../../../runtime/python/syntax-tree';
import { readTree } from '../../../runtime/python/tree-memory';
import { readTreeViaApi } from '../../../runtime/python/tree-from-api';

const ROOT = join(__dirname, '..', '..', '..');
const SEED = Number(process.env.HOOKSMITH_FUZZ_SEED ?? 20261130);

/** The first way two trees differ (by structure and every property), or undefined. */
function firstDifference(a: SyntaxNode, b: SyntaxNode): string | undefined {
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

/** Both readers on one source: the first difference, or undefined. */
function compare(text: string): string | undefined {
  const tree = parse(text);
  try {
    const heap = wasmHeap();
    assert.ok(heap, 'the WASM heap is exposed');
    return firstDifference(readTree(tree, text, heap).rootNode, readTreeViaApi(tree, text).rootNode);
  } finally {
    tree.delete();
  }
}

/**
 * Covers what the memory reader interprets: fields (direct and through hidden nodes), aliases,
 * extras (comments), error recovery and missing tokens, heap and inline leaves, non-ASCII text
 * and multi-line nodes.
 */
const READER_FORMS = [
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

const AWKWARD: Record<string, string> = {
  'every form the reader interprets': READER_FORMS,
  empty: '',
  'only comment': '# just a comment',
  'non-ascii': 'x = "é😀ü"  # café 🎉\ndef ƒ(ä: "ö") -> "😀": return ä\n',
  crlf: 'import a\r\n\r\ndef f(x):\r\n    return x\r\n',
  'lone cr': 'import a\rdef f(x):\r    return x\r',
  nul: 'x = 1\0\ny = 2\n',
  'missing tokens': 'def f(:\n    x = (1,\n',
  'error everywhere': ')))( ]] def def : : @@@ \n\t\t  else:\n',
  'unterminated string': 'x = """never closed\n\ndef f(): pass\n',
  'long line': `x = [${'1, '.repeat(20_000)}]\n`,
  'deep nesting': `x = ${'('.repeat(2_000)}1${')'.repeat(2_000)}\n`,
  'deep blocks':
    Array.from({ length: 60 }, (_, i) => `${' '.repeat(i)}if x:`).join('\n') + `\n${' '.repeat(60)}pass\n`,
  'every statement': readFileSync(join(__dirname, 'fixtures', 'snapshot-forms.py'), 'utf8'),
  'bench 3000 lines': hookModuleSource(3000),
};

describe('SyntaxTree from WASM memory', () => {
  before(() => initParser());

  it('is the reader in use on the pinned tree-sitter (its WASM heap is exposed)', () => {
    assert.ok(wasmHeap(), 'without the heap every tree is read through the API');
  });

  it('equals the API reading on every Python file of the repository', () => {
    const files = execFileSync('git', ['ls-files', '*.py'], { cwd: ROOT, encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
    assert.ok(files.length > 20, `found ${files.length} files`);
    for (const f of files) assert.equal(compare(readFileSync(join(ROOT, f), 'utf8')), undefined, f);
  });

  for (const [name, text] of Object.entries(AWKWARD)) {
    it(`equals the API reading: ${name}`, () => assert.equal(compare(text), undefined));
  }

  it('equals the API reading on mutated hook modules (property)', () => {
    const bases = ['examples/clean-agent/hooks.py', 'examples/faulty-agent/hooks/behaviour.py']
      .map((p) => join(ROOT, p))
      .map((p) => {
        try {
          return readFileSync(p, 'utf8');
        } catch {
          return hookModuleSource(160);
        }
      });
    const edit = fc.record({
      at: fc.nat(),
      del: fc.nat({ max: 30 }),
      text: fc.oneof(
        fc.string({ maxLength: 6 }),
        fc.constantFrom(
          '(',
          ')',
          ':',
          '"""',
          '\n    ',
          'async ',
          '@',
          '\r',
          'é😀',
          'lambda x: x',
          'match x:\n case 1:\n  pass\n',
        ),
      ),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...bases),
        fc.array(edit, { minLength: 1, maxLength: 6 }),
        (base, edits) => {
          let text = base;
          for (const e of edits) {
            const at = e.at % (text.length + 1);
            text = text.slice(0, at) + e.text + text.slice(at + e.del);
          }
          assert.equal(compare(text), undefined);
        },
      ),
      { numRuns: 300, seed: SEED },
    );
  });

  it('keeps a live tree intact while released storage is reused, and ids stay unique', () => {
    const a = toSyntaxTree(parse('def a(): pass\n'), 'def a(): pass\n'); // tree leaks in a test: fine
    const aText = a.rootNode.namedChild(0)?.text;
    for (let i = 0; i < 10; i++) {
      const text = `def b${i}(x, y): return x + y\n`;
      const tree = parse(text);
      const b = toSyntaxTree(tree, text);
      tree.delete();
      assert.equal(b.rootNode.namedChild(0)?.childForFieldName('name')?.text, `b${i}`);
      assert.notEqual(b.rootNode.id, a.rootNode.id);
      b.release();
      // A released tree reads as empty, never as another tree's data.
      assert.equal(b.rootNode.namedChildCount, 0);
    }
    assert.equal(a.rootNode.namedChild(0)?.text, aText);
    assert.equal(a.rootNode.namedChild(0)?.childForFieldName('name')?.text, 'a');
  });

  it('grows past its first capacity and links children in order', () => {
    const t = new SyntaxTree('x'.repeat(5000), ['root', 'leaf'], [null, 'item'], 1);
    const root = t.add(-1, 0, packFlags(true, false, false, false), 0, 0, 5000, 0, 0, 0, 5000);
    for (let i = 0; i < 5000; i++)
      t.add(root, 1, packFlags(i % 2 === 0, false, false, false), 1, i, i + 1, 0, i, 0, i + 1);
    t.close(root);
    const r = t.rootNode;
    assert.equal(r.childCount, 5000);
    assert.equal(r.namedChildCount, 2500);
    assert.equal(r.child(4321)?.startIndex, 4321);
    assert.equal(r.child(4321)?.field, 'item');
    assert.equal(r.child(4321)?.parent?.id, r.id);
    assert.equal(r.childrenForFieldName('item').length, 5000);
  });
});
