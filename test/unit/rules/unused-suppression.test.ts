// unused-suppression is reported by runtime/analysis/suppression.ts once the other rules ran, so
// its table runs applySuppressions on what the other rules found: ids and 1-based positions (#43
// item 6), and the text users see pinned once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applySuppressions } from '../../../runtime/analysis/suppression';
import type { HookDiagnostic } from '../../../runtime/rules/diagnostics';
import type { ExpectedDiagnostic } from './rule-tester';

const found = (line: number, code: string): HookDiagnostic => ({
  code,
  severity: 'error',
  message: code,
  file: 'hooks.py',
  range: { start: { line: line - 1, character: 0 }, end: { line: line - 1, character: 3 } },
});

const CASES: readonly {
  name: string;
  code: string;
  found: HookDiagnostic[];
  errors: ExpectedDiagnostic[];
}[] = [
  {
    name: 'used suppressions, on the line and file-wide',
    code: '# hooksmith: ignore-file[not-wired]\ndef a(): pass  # hooksmith: ignore[sync-handler]\n',
    found: [found(2, 'sync-handler'), found(2, 'not-wired')],
    errors: [],
  },
  {
    name: 'one code of two unused on its line, and an unused file-wide one',
    code: '# hooksmith: ignore-file[not-wired]\ndef a(): pass  # hooksmith: ignore[sync-handler, blocking-call]\n',
    found: [found(2, 'sync-handler')],
    errors: [
      { messageId: 'unusedInFile', line: 1, column: 26 },
      { messageId: 'unusedOnLine', line: 2, column: 50 },
    ],
  },
];

for (const c of CASES)
  test(`unused-suppression: ${c.name}`, () => {
    const reported = applySuppressions(c.code, 'hooks.py', c.found).filter(
      (d) => d.code === 'unused-suppression',
    );
    assert.deepEqual(
      reported.map((d) => ({
        messageId: d.messageId,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
      })),
      c.errors,
    );
  });

test('unused-suppression: the wording users see', () => {
  const text = '# hooksmith: ignore-file[not-wired]\nx = 1  # hooksmith: ignore[blocking-call]\n';
  assert.deepEqual(
    applySuppressions(text, 'hooks.py', []).map((d) => d.message),
    [
      'Unused suppression: no not-wired diagnostic in this file to ignore.',
      'Unused suppression: no blocking-call diagnostic on this line to ignore.',
    ],
  );
});
