// A Cayu eval corpus in the Testing view and in results: each corpus case its own item
// (`FILE#<case id>`), its assertions as children at their lines (the unchecked ones said so),
// and a played case's results one per assertion, at that line, in the corpus's own terms.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { ExpectationResult, TestCase } from '../../runtime/testing/cases';
import { cayuEvalCases, cayuEvalResults } from '../../runtime/testing/cayu-eval-cases';
import { readCaseFile, rereadCase } from '../../runtime/testing/discover-cases';
import { caseItemId, plannedExpectations } from '../../runtime/testing/plan';

const CORPUS = resolve(__dirname, '..', 'fixtures', 'cayu-eval', 'support.cayu-eval.json');
const TEXT = readFileSync(CORPUS, 'utf8');
/** The 1-based line where the value at `path` starts, found by another JSON parser than the one tested. */
const lineAt = (...path: (string | number)[]) => {
  const node = findNodeAtLocation(parseTree(TEXT)!, path)!;
  return TEXT.slice(0, node.offset).split('\n').length;
};
const objectLine = (id: string) => {
  const doc = JSON.parse(TEXT) as { cases: { id: string; assertions: { id: string }[] }[] };
  for (const [i, c] of doc.cases.entries()) {
    if (c.id === id) return lineAt('cases', i);
    const j = c.assertions.findIndex((a) => a.id === id);
    if (j >= 0) return lineAt('cases', i, 'assertions', j);
  }
  throw new Error(`no ${id}`);
};

const corpusCases = (file = CORPUS, text = TEXT) => {
  const read = cayuEvalCases(file, text);
  assert.ok(Array.isArray(read), JSON.stringify(read));
  return read;
};

test('each corpus case is an item FILE#<case id>; its assertions are its children, each at its line', () => {
  const [greets, looksUp] = corpusCases();
  assert.deepEqual([caseItemId(greets!), caseItemId(looksUp!)], [`${CORPUS}#greets`, `${CORPUS}#looks-up`]);
  assert.deepEqual([greets!.line, looksUp!.line], [objectLine('greets'), objectLine('looks-up')]);
  assert.deepEqual(
    plannedExpectations(greets!).map((p) => [p.path.join('/'), p.label, p.line]),
    [
      ['cases/0/assertions/0', 'root_status done', objectLine('done')],
      ['cases/0/assertions/1', 'final_output_contains hi', objectLine('hi')],
      ['cases/0/assertions/2', 'max_tool_calls no-tools (not checked)', objectLine('no-tools')],
    ],
  );
  assert.deepEqual(
    plannedExpectations(looksUp!).map((p) => p.label),
    ['tool_called lookup', 'tools_called_in_order order', 'usage_recorded usage (not checked)'],
  );
});

test("a plain scenario's item stays FILE::case", () => {
  const c = { kind: 'scenario', file: '/a/x.scenario.yaml' } as TestCase;
  assert.equal(caseItemId(c), '/a/x.scenario.yaml::case');
});

const result = (path: (string | number)[], name: string, passed: boolean): ExpectationResult => ({
  name,
  passed,
  expected: `${name} expected`,
  actual: `${name} actual`,
  path,
  line: 1,
});

test('results: one per assertion at its line; an assertion of several checks fails when one does', () => {
  const looksUp = corpusCases()[1]!;
  // tools_called_in_order [lookup_customer, list_orders] became tool_called 1 and 2 and order 0.
  const judged = cayuEvalResults(looksUp, [
    result(['expect', 'tool_called', 0], 'tool_called lookup_customer', true),
    result(['expect', 'tool_called', 1], 'tool_called lookup_customer', true),
    result(['expect', 'tool_called', 2], 'tool_called list_orders', false),
    result(['expect', 'order', 0], 'order', true),
    result(['model'], 'cassette', false),
  ]);
  assert.deepEqual(
    judged.map((e) => [e.name, e.path.join('/'), e.line, e.passed, e.skipped !== undefined]),
    [
      ['cassette', 'cases/1', looksUp.line, false, false],
      ['tool_called lookup', 'cases/1/assertions/0', objectLine('lookup'), true, false],
      ['tools_called_in_order order', 'cases/1/assertions/1', objectLine('order'), false, false],
      ['usage_recorded usage', 'cases/1/assertions/2', objectLine('usage'), false, true],
    ],
  );
  // The failing part alone, as it failed (one part: no name in front).
  assert.equal(judged[2]!.expected, 'tool_called list_orders expected');
  assert.equal(judged[2]!.actual, 'tool_called list_orders actual');
  assert.match(judged[3]!.skipped!, /^not checked: usage_recorded: only cayu eval checks it/);
});

test('results: final_output_equals and _contains are each judged by a final_message check of its own', () => {
  const doc = JSON.parse(TEXT) as { cases: { assertions: Record<string, unknown>[] }[] };
  doc.cases[0]!.assertions.splice(1, 0, { id: 'exact', kind: 'final_output_equals', expected: 'Hello' });
  const greets = corpusCases(CORPUS, JSON.stringify(doc, null, 2))[0]!;
  const judged = cayuEvalResults(greets, [
    result(['expect', 'status'], 'status', true),
    result(['expect', 'final_message', 0], 'final_message', false),
    result(['expect', 'final_message', 1], 'final_message', true),
  ]);
  assert.deepEqual(
    judged.map((e) => [e.name, e.passed, e.skipped !== undefined]),
    [
      ['root_status done', true, false],
      ['final_output_equals exact', false, false],
      ['final_output_contains hi', true, false],
      ['max_tool_calls no-tools', false, true],
    ],
  );
});

test('readCaseFile: a corpus gives its cases, a broken one a malformed file; rereadCase finds a case by id', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-items-'));
  try {
    const file = join(dir, 'support.cayu-eval.json');
    copyFileSync(CORPUS, file);
    const read = readCaseFile(file);
    assert.ok(Array.isArray(read));
    assert.deepEqual(
      read.map((c) => c.cayuEval?.id),
      ['greets', 'looks-up'],
    );
    // The first case goes: the second is found again by its id, not by its place.
    const doc = JSON.parse(TEXT) as { cases: unknown[] };
    doc.cases.shift();
    writeFileSync(file, JSON.stringify(doc, null, 2));
    assert.equal(rereadCase(read[1]!)?.cayuEval?.index, 0);
    assert.equal(rereadCase(read[0]!), undefined);
    writeFileSync(file, '{"schema_version": 4');
    const bad = readCaseFile(file);
    assert.ok(bad && !Array.isArray(bad), 'malformed');
    assert.equal(bad.file, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
