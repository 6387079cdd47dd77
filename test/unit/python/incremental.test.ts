// Differential: the language server's buffer (server/parsed-text.ts) after edits — the tree
// edited and re-parsed incrementally, the model rebuilt from the definitions the edits touched
// (runtime/python/model-memo.ts) — equals a fresh parse and a fresh build of the same text,
// node for node and field for field. Run over every Python file of the repository and over
// generated hook modules, with seeded random edits: non-ASCII text (2- and 4-byte UTF-8, a
// UTF-16 surrogate pair), edits spanning lines, CRLF, whole-line moves and import edits.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { hookModuleSource } from '../../../bench/generate';
import { buildModel } from '../../../runtime/python/build-model';
import { initParser, parse, wasmHeap, type Tree } from '../../../runtime/python/parser';
import type { SyntaxNode } from '../../../runtime/python/syntax-node';
import { readTree, type SkipTopLevel } from '../../../runtime/python/tree-memory';
import { readTreeViaApi } from '../../../runtime/python/tree-from-api';
import { ParsedText } from '../../../server/parsed-text';

const ROOT = join(__dirname, '..', '..', '..');
const SEED = Number(process.env.HOOKSMITH_FUZZ_SEED ?? 20261201);
const PATH = '/agent/hooks.py';

/** Every node of a tree-sitter tree, as one comparable string per node (type, field, span, points, flags). */
function nodesOf(tree: Tree): string[] {
  const out: string[] = [];
  const cursor = tree.walk();
  try {
    for (let depth = 0; ;) {
      const n = cursor.currentNode;
      const [s, e] = [n.startPosition, n.endPosition];
      out.push(
        `${depth} ${n.type} ${cursor.currentFieldName ?? ''} ${n.startIndex}-${n.endIndex} ` +
          `${s.row}:${s.column}-${e.row}:${e.column} ${+n.isNamed}${+n.isMissing}${+n.hasError}${+n.isExtra}`,
      );
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

function freshModel(text: string) {
  const tree = parse(text);
  try {
    return { nodes: nodesOf(tree), model: buildModel(tree, text, PATH) };
  } finally {
    tree.delete();
  }
}

/** The buffer after `changes` equals a fresh parse and build: tree, model, and the same again after. */
function assertMatchesFresh(buffer: ParsedText, label: string): void {
  const text = buffer.text;
  const fresh = freshModel(text);
  const nodes = nodesOf(buffer.tree());
  const i = nodes.findIndex((n, k) => n !== fresh.nodes[k]);
  assert.ok(
    i < 0 && nodes.length === fresh.nodes.length,
    `${label}: incremental tree differs at node ${i}: ${nodes[i]} ≠ ${fresh.nodes[i]}`,
  );
  assert.deepStrictEqual(buffer.model(PATH), fresh.model, `${label}: model`);
}

/** Texts typed in: ASCII, 2-, 3- and 4-byte UTF-8 (the last a UTF-16 surrogate pair), line breaks, code. */
const INSERTS = [
  'x',
  'é',
  '中文',
  '😀',
  '\n',
  '\r\n',
  '\n    ',
  '\n\n@on_tool_call()\nasync def extra(call):\n    return None\n',
  'def f(',
  ')',
  ':',
  '"',
  '#',
  '    ',
  'import os\n',
  'from rasa.mantle.hooks import RetryModel\n',
  'x = helper_0\n',
  'logger = None\n',
  '@audit_call_1\n',
  '\nclass Inner:\n        pass\n',
];

type Edit = { at: number; length: number; insert: string; spanLines: boolean };

const editArb: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  length: fc.oneof(fc.constant(0), fc.nat({ max: 4 }), fc.nat({ max: 120 })),
  insert: fc.oneof(fc.constantFrom(...INSERTS), fc.string({ maxLength: 6 }), fc.constant('')),
  spanLines: fc.boolean(),
});

/** An LSP change for `e` on `doc`: a range in UTF-16 positions, never inside a surrogate pair. */
function changeFor(doc: TextDocument, e: Edit): TextDocumentContentChangeEvent {
  const text = doc.getText();
  let start = e.at % (text.length + 1);
  let end = Math.min(text.length, start + e.length);
  if (e.spanLines) {
    // From somewhere in one line to somewhere in a later one.
    const nl = text.indexOf('\n', start);
    if (nl >= 0) end = Math.min(text.length, nl + 1 + (e.length % 40));
  }
  const low = (i: number) => i > 0 && i < text.length && /[\uDC00-\uDFFF]/.test(text[i] as string);
  if (low(start)) start--;
  if (low(end)) end++;
  return { range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text: e.insert };
}

/** Applies the edits one by one to a buffer and to a reference document; compares at every `every`th. */
function run(source: string, edits: readonly Edit[], every: number, label: string): void {
  const buffer = new ParsedText('file:///agent/hooks.py', 1, source);
  try {
    buffer.model(PATH);
    let doc = TextDocument.create('file:///agent/hooks.py', 'python', 1, source);
    edits.forEach((e, k) => {
      const change = changeFor(doc, e);
      doc = TextDocument.update(doc, [change], doc.version + 1);
      buffer.update([change], doc.version);
      if (k % every === every - 1 || k === edits.length - 1) {
        assert.equal(buffer.text, doc.getText());
        assertMatchesFresh(buffer, `${label}, after edit ${k + 1}`);
      }
    });
  } finally {
    buffer.dispose();
  }
}

function repositoryPythonFiles(): string[] {
  return execFileSync('git', ['ls-files', '*.py'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

describe('incremental parse and model rebuild equal a fresh parse and build', () => {
  before(async () => {
    await initParser();
  });

  it("on the repository's Python files, under random edits", () => {
    const files = repositoryPythonFiles();
    assert.ok(files.length > 10, 'the repository has Python files');
    files.forEach((file, n) => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      const edits = fc.sample(editArb, { numRuns: 12, seed: SEED + n });
      run(source, edits, 3, file);
    });
  });

  it('on generated hook modules, with multi-edit changes and CRLF text', () => {
    fc.assert(
      fc.property(fc.array(editArb, { minLength: 1, maxLength: 12 }), fc.boolean(), (edits, crlf) => {
        const base = hookModuleSource(200);
        run(crlf ? base.replace(/\n/g, '\r\n') : base, edits, 2, crlf ? 'generated, CRLF' : 'generated');
      }),
      { numRuns: 40, seed: SEED },
    );
  });

  it('one notification with several changes, applied in order', () => {
    const source = hookModuleSource(120);
    const buffer = new ParsedText('file:///agent/hooks.py', 1, source);
    try {
      buffer.model(PATH);
      let doc = TextDocument.create('file:///agent/hooks.py', 'python', 1, source);
      const edits = fc.sample(editArb, { numRuns: 30, seed: SEED + 1 });
      for (let k = 0; k < edits.length; k += 5) {
        const changes: TextDocumentContentChangeEvent[] = [];
        for (const e of edits.slice(k, k + 5)) {
          const change = changeFor(doc, e);
          changes.push(change);
          doc = TextDocument.update(doc, [change], doc.version); // each range is on the text before it
        }
        buffer.update(changes, doc.version + 1);
        assert.equal(buffer.text, doc.getText());
        assertMatchesFresh(buffer, `changes ${k}..${k + 4}`);
      }
    } finally {
      buffer.dispose();
    }
  });

  it('reuses the definitions an edit left alone, and rebuilds the one it touched', () => {
    const source = hookModuleSource(300);
    const buffer = new ParsedText('file:///agent/hooks.py', 1, source);
    try {
      const first = buffer.model(PATH);
      const spot = buffer.document.positionAt(source.indexOf('"according to"') + 1);
      buffer.update([{ range: { start: spot, end: spot }, text: 'é' }], 2);
      const second = buffer.model(PATH);
      const changed = second.functions.filter((f, i) => f !== first.functions[i]).map((f) => f.name);
      assert.deepEqual(changed, ['ground'], 'only the edited hook is rebuilt');
      // An import edit changes every def's scope: all are rebuilt, and still equal a fresh build.
      buffer.update(
        [
          {
            range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
            text: 'import os\n',
          },
        ],
        3,
      );
      const third = buffer.model(PATH);
      assert.ok(third.functions.every((f, i) => f !== second.functions[i]));
      assert.deepStrictEqual(third, freshModel(buffer.text).model);
    } finally {
      buffer.dispose();
    }
  });

  it('import-time names of definitions it did not read: undefined names come and go as a fresh build says', () => {
    const source = [
      'from rasa.mantle.hooks import on_tool_call',
      'LIMIT = 5',
      'CHECK = on_tool_call',
      '',
      '@CHECK(timeout_ms=LIMIT)',
      'async def audit(call, retries: Count = LIMIT):',
      '    return None',
      '',
      'def helper(x=LIMIT):',
      '    return x',
      '',
      'class Audit(Base):',
      '    level = LIMIT',
      '',
      'alias = helper',
      'Count = int',
      'Base = object',
      '',
    ].join('\n');
    const buffer = new ParsedText('file:///agent/hooks.py', 1, source);
    try {
      buffer.model(PATH);
      let doc = TextDocument.create('file:///agent/hooks.py', 'python', 1, source);
      const edit = (from: string, to: string) => {
        const i = doc.getText().indexOf(from);
        assert.ok(i >= 0, from);
        const change = {
          range: { start: doc.positionAt(i), end: doc.positionAt(i + from.length) },
          text: to,
        };
        doc = TextDocument.update(doc, [change], doc.version + 1);
        buffer.update([change], doc.version);
        assertMatchesFresh(buffer, `${JSON.stringify(from)} → ${JSON.stringify(to)}`);
        return buffer.model(PATH).undefinedAtImport?.map((u) => u.name) ?? [];
      };
      assert.deepEqual(edit('LIMIT = 5', 'LIMITS = 5'), ['LIMIT', 'LIMIT', 'LIMIT', 'LIMIT']);
      assert.deepEqual(edit('LIMITS = 5', 'LIMIT = 5'), []);
      assert.deepEqual(edit('CHECK = on_tool_call', 'CHECKED = on_tool_call'), ['CHECK']);
      assert.deepEqual(edit('alias = helper', 'alias = helpers'), ['CHECK', 'helpers']);
      assert.deepEqual(edit('Count = int', 'Counts = int'), ['CHECK', 'Count', 'helpers']);
      assert.deepEqual(edit('Base = object', 'Bases = object'), ['CHECK', 'Count', 'Base', 'helpers']);
      edit('from rasa', 'from __future__ import annotations\nfrom rasa');
    } finally {
      buffer.dispose();
    }
  });

  it('the WASM-memory reader and the API reader skip the same nodes', () => {
    const heap = wasmHeap();
    assert.ok(heap, 'the WASM heap is exposed');
    const text = hookModuleSource(200) + '\nclass C:\n    def m(self): ...\n# café 😀\n@d\ndef g(): ...\n';
    const tree = parse(text);
    try {
      // Skip every other module-level def.
      const skip: SkipTopLevel = (type, start) => type.endsWith('definition') && start % 2 === 0;
      const rows = (root: SyntaxNode) => {
        const t = root.tree;
        const out: string[] = [];
        for (let r = 0; r < t.size; r++)
          out.push(`${t.typeName(r)} ${t.startIndex[r]} ${t.end[r]} ${t.parentOf[r]}`);
        return out;
      };
      const memory = readTree(tree, text, heap, skip);
      const api = readTreeViaApi(tree, text, skip);
      assert.deepEqual(rows(memory.rootNode), rows(api.rootNode));
      assert.ok(memory.size < readTree(tree, text, heap).size, 'skipped nodes are not read');
    } finally {
      tree.delete();
    }
  });
});
