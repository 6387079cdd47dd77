// Differential: the diagnostics of the language server's buffer after edits — the model rebuilt
// from the definitions the edits touched (server/parsed-text.ts), the hook records kept with the
// reused defs, and the rules skipping the hooks they found clean before (rules/util/clean-hooks.ts)
// — equal a fresh diagnosis of the same text (fresh parse, fresh build, no function cache, every
// hook checked). Over every Python file of the repository and generated hook modules, with seeded
// random edits that make rules fire and stop firing, import edits and an engine line change.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { hookModuleSource } from '../../../bench/generate';
import { diagnoseModule } from '../../../runtime/analysis/diagnose';
import { parseModule } from '../../../runtime/analysis/module';
import { useMantleLine } from '../../../runtime/catalogue/api-lines';
import { clearFunctionCache } from '../../../runtime/python/function-cache';
import type { HookModule } from '../../../runtime/python/model';
import { initParser } from '../../../runtime/python/parser';
import type { HookDiagnostic } from '../../../runtime/rules/diagnostics';
import { ParsedText } from '../../../server/parsed-text';

const ROOT = join(__dirname, '..', '..', '..');
const SEED = Number(process.env.HOOKSMITH_FUZZ_SEED ?? 20261202);
const PATH = '/agent/hooks.py';

/**
 * The diagnostics but syntax-error: after a broken edit, tree-sitter's error recovery may place a
 * syntax error elsewhere in an incremental parse than in a fresh one (the trees are compared in
 * incremental.test.ts); compared here is what the rules make of the model.
 */
function diagnose(text: string, module: HookModule): HookDiagnostic[] {
  const all = diagnoseModule({ path: PATH, text, module, agentModules: [module], isMantleModule: true });
  return all.diagnostics.filter((d) => d.code !== 'syntax-error');
}

function fresh(text: string): HookDiagnostic[] {
  clearFunctionCache();
  return diagnose(text, parseModule(text, PATH));
}

/** Texts typed in: ones that make the per-hook rules report (and, deleted again, stop). */
const INSERTS = [
  'x',
  '\n',
  ' ',
  '"',
  '#',
  '(',
  ')',
  '.value["rows"]',
  '.value.get("a")',
  'for c in result.value:\n        pass\n    ',
  'isinstance(result.value, dict)',
  'timeout_ms=-1',
  'timeout_ms=2.5, ',
  'timeout=5',
  '7, ',
  'call.arguments["x"] = 1\n    ',
  'return call\n    ',
  ': dict',
  ': ToolCallPayload',
  ': Optional[ToolCallPayload]',
  'import os\n',
  'from rasa.mantle.hooks import ToolResultPayload as P\n',
  'ToolCallPayload = dict\n',
  '\n\n@on_tool_result()\nasync def extra(result: ToolResultPayload) -> None:\n    print(result.value["k"])\n',
  '@modify_tool_call\n',
  // unknown-attribute: a read the payload type lacks, a hasattr guard, a rebinding of the parameter.
  '.argumentz',
  'result.valeu\n    ',
  'hasattr(result, "valeu")\n    ',
  'result = 1\n    ',
];

type Edit = { at: number; length: number; insert: string };

const editArb: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  length: fc.oneof(fc.constant(0), fc.nat({ max: 4 }), fc.nat({ max: 60 })),
  insert: fc.oneof(fc.constantFrom(...INSERTS), fc.string({ maxLength: 4 }), fc.constant('')),
});

/**
 * Edits near the places the rules look at (decorators, parameters, `.value`, returns) more often
 * than anywhere: a random offset mostly lands in a body where no rule looks.
 */
function offsetFor(text: string, e: Edit): number {
  const anchors = ['@', 'timeout_ms', '(call', '(result', '.value', 'return', ': ', ')'];
  const anchor = anchors[e.at % (anchors.length + 1)];
  if (anchor) {
    const hits: number[] = [];
    for (let i = text.indexOf(anchor); i >= 0 && hits.length < 64; i = text.indexOf(anchor, i + 1))
      hits.push(i);
    if (hits.length) return hits[(e.at >> 4) % hits.length]! + (e.at % 3);
  }
  return e.at % (text.length + 1);
}

/** Applies the edits one by one; after every `every`th, the buffer's diagnostics equal a fresh diagnosis. */
function run(
  source: string,
  edits: readonly Edit[],
  every: number,
  label: string,
  between?: () => void,
): number {
  const buffer = new ParsedText('file:///agent/hooks.py', 1, source);
  let reported = 0;
  try {
    diagnose(buffer.text, buffer.model(PATH));
    let doc = TextDocument.create('file:///agent/hooks.py', 'python', 1, source);
    edits.forEach((e, k) => {
      const text = doc.getText();
      let start = Math.min(offsetFor(text, e), text.length);
      if (/[\uDC00-\uDFFF]/.test(text[start] ?? '')) start--;
      let end = Math.min(text.length, start + e.length);
      if (/[\uDC00-\uDFFF]/.test(text[end] ?? '')) end++;
      const change = { range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text: e.insert };
      doc = TextDocument.update(doc, [change], doc.version + 1);
      buffer.update([change], doc.version);
      if (k % every !== every - 1 && k !== edits.length - 1) return;
      if (k === edits.length >> 1) between?.();
      const incremental = diagnose(buffer.text, buffer.model(PATH));
      assert.deepStrictEqual(incremental, fresh(buffer.text), `${label}, after edit ${k + 1}`);
      reported += incremental.length;
    });
  } finally {
    buffer.dispose();
  }
  return reported;
}

describe('diagnostics after edits equal a fresh diagnosis', () => {
  before(async () => {
    await initParser();
  });
  after(() => {
    useMantleLine('rasa-pro-3.21');
  });

  it("on the repository's Python files, under random edits", () => {
    const files = execFileSync('git', ['ls-files', '*.py'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    assert.ok(files.length > 10, 'the repository has Python files');
    let reported = 0;
    files.forEach((file, n) => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      reported += run(source, fc.sample(editArb, { numRuns: 12, seed: SEED + n }), 2, file);
    });
    assert.ok(reported > 0, 'the edits made rules report');
  });

  it('on generated hook modules, the per-hook rules reporting and going quiet', () => {
    let reported = 0;
    fc.assert(
      fc.property(fc.array(editArb, { minLength: 1, maxLength: 16 }), (edits) => {
        reported += run(hookModuleSource(160), edits, 1, 'generated');
      }),
      { numRuns: 60, seed: SEED },
    );
    assert.ok(reported > 0, 'the edits made rules report');
  });

  it('across an engine line change (the hooks are read again in the new spelling)', () => {
    const edits = fc.sample(editArb, { numRuns: 20, seed: SEED + 7 });
    run(hookModuleSource(160), edits, 1, 'line change', () => useMantleLine('mantle-newest'));
    useMantleLine('rasa-pro-3.21');
  });

  it('a hook found clean is checked again when its own text changes', () => {
    const source = hookModuleSource(160);
    const buffer = new ParsedText('file:///agent/hooks.py', 1, source);
    try {
      assert.deepEqual(diagnose(buffer.text, buffer.model(PATH)), []);
      const i = source.indexOf('result.tool_name');
      const at = buffer.document.positionAt(i + 'result'.length);
      buffer.update([{ range: { start: at, end: at }, text: '.value["k"]' }], 2);
      const codes = diagnose(buffer.text, buffer.model(PATH)).map((d) => d.code);
      assert.deepEqual(codes, ['tool-result-value-is-text']);
      buffer.update(
        [{ range: { start: at, end: buffer.document.positionAt(i + 'result.value["k"]'.length) }, text: '' }],
        3,
      );
      assert.deepEqual(diagnose(buffer.text, buffer.model(PATH)), []);
    } finally {
      buffer.dispose();
    }
  });
});
