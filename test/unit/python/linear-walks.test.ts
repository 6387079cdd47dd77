// Building a model reads each node a bounded number of times, whatever the shape of the module:
// the work (reads of the tree's columns and node views made) grows linearly with the input.
// Counted, not timed: reading a node's i-th child once rescanned its siblings, which made a
// 5 MB module take most of a minute (issue #16, item 8). Here a quadratic walk shows as 4× the
// reads per node when the input is 4× longer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initParser, parse } from '../../../runtime/python';
import { modelOfSyntax } from '../../../runtime/python/build-model';
import { clearFunctionCache } from '../../../runtime/python/function-cache';
import type { SyntaxTree } from '../../../runtime/python/syntax-node';
import { toSyntaxTree } from '../../../runtime/python/syntax-tree';
import { hookModuleSource } from '../../../bench/generate';

const HEAD = 'from rasa.mantle.hooks import on_tool_call, modify_tool_call, ToolCallPayload\n';
const HOOK = '@on_tool_call()\nasync def h(call: ToolCallPayload) -> None:\n';
const lines = (n: number, f: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => f(i)).join('');

/** Module shapes with one part repeated n times: each part once made the walks quadratic or could. */
const SHAPES: Record<string, (n: number) => string> = {
  'generated hook module': (n) => hookModuleSource(n * 10),
  'module-level statements': (n) => HEAD + lines(n, (i) => `x${i} = ${i}\n`),
  'module-level imports': (n) => HEAD + lines(n, (i) => `import m${i}\n`),
  'statements in one hook': (n) => HEAD + HOOK + lines(n, (i) => `    x${i} = call.tool_name + "${i}"\n`),
  'methods of one class': (n) =>
    HEAD + 'class K:\n' + lines(n, (i) => `    def m${i}(self, a):\n        return a\n`),
  'elif chain': (n) =>
    HEAD +
    HOOK +
    '    if call:\n        pass\n' +
    lines(n, (i) => `    elif call.x == ${i}:\n        return\n`),
  'except clauses': (n) =>
    HEAD + HOOK + '    try:\n        pass\n' + lines(n, (i) => `    except E${i}:\n        raise\n`),
  'match cases': (n) =>
    HEAD + HOOK + '    match call:\n' + lines(n, (i) => `        case ${i}:\n            return\n`),
  'a wide literal': (n) =>
    HEAD + HOOK + '    x = {\n' + lines(n, (i) => `        "k${i}": [${i}, call],\n`) + '    }\n',
  'call arguments': (n) => HEAD + HOOK + '    f(\n' + lines(n, (i) => `        a${i},\n`) + '    )\n',
  parameters: (n) =>
    HEAD + HOOK.replace('call: ToolCallPayload', lines(n, (i) => `p${i}, `) + 'call') + '    pass\n',
  decorators: (n) => HEAD + lines(n, (i) => `@d${i}\n`) + HOOK + '    pass\n',
  'syntax errors': (n) => HEAD + lines(n, (i) => `x${i} = (${i}\n`),
  'error in a long body': (n) => HEAD + HOOK + lines(n, (i) => `    x${i} = ${i}\n`) + '    y = (\n',
};

/** Counts reads of the columns every walk goes through, and node views made. */
function counted(syntax: SyntaxTree): () => number {
  let reads = 0;
  const cols = syntax as unknown as Record<string, ArrayLike<number>>;
  for (const k of ['end', 'flags', 'typeOf', 'field']) {
    const target = cols[k] as object;
    cols[k] = new Proxy(target, {
      get(t, key) {
        reads++;
        return Reflect.get(t, key) as unknown;
      },
    }) as ArrayLike<number>;
  }
  const node = syntax.node.bind(syntax);
  syntax.node = (row) => {
    reads++;
    return node(row);
  };
  return () => reads;
}

function workPerNode(src: string): number {
  clearFunctionCache();
  const tree = parse(src, null, { timeoutMs: 60_000 });
  try {
    const syntax = toSyntaxTree(tree, src);
    const work = counted(syntax);
    modelOfSyntax(syntax, src, '/agent/hooks.py', undefined);
    return work() / syntax.size;
  } finally {
    tree.delete();
  }
}

for (const [name, make] of Object.entries(SHAPES)) {
  test(`model building is linear: ${name}`, async () => {
    await initParser();
    const small = workPerNode(make(500));
    const large = workPerNode(make(2000));
    // Linear: the same work per node at both sizes (a quadratic walk: 4× as much).
    assert.ok(
      large < small * 1.5,
      `${name}: ${small.toFixed(1)} reads per node at 500, ${large.toFixed(1)} at 2,000`,
    );
  });
}

test('a 50,000-line module parses into its whole model', async () => {
  await initParser();
  const src = hookModuleSource(50_000);
  clearFunctionCache();
  const tree = parse(src, null, { timeoutMs: 60_000 });
  try {
    const syntax = toSyntaxTree(tree, src);
    const m = modelOfSyntax(syntax, src, '/agent/hooks.py', undefined);
    syntax.release();
    const blocks = (src.match(/^def helper_/gm) ?? []).length;
    assert.ok(blocks > 1000);
    // Four modify hooks, then three hooks and a helper per block, none lost.
    assert.equal(m.functions.length, 4 + 4 * blocks);
    assert.deepEqual(m.syntaxErrors, []);
    assert.equal(m.functions.at(-1)?.name, `finished_${blocks - 1}`);
  } finally {
    tree.delete();
  }
});
