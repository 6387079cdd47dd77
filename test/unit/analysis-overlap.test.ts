// analyseFiles hands the texts to CPython before it parses (so python3 compiles on the other core
// while this thread parses), and CPython's verdicts still replace tree-sitter's afterwards.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseFiles, defaultBackend } from '../../runtime/analysis';
import type { SyntaxIssue } from '../../runtime/python/model';

const OK =
  'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n@on_turn_started()\nasync def started(payload: TurnStartedPayload) -> None:\n    return None\n';

it('CPython is started before the first parse, and its verdicts are merged per file', async () => {
  const root = mkdtempSync(join(tmpdir(), 'hooksmith-overlap-'));
  try {
    mkdirSync(join(root, 'hooks'));
    for (let i = 0; i < 20; i++) writeFileSync(join(root, 'hooks', `m${String(i).padStart(2, '0')}.py`), OK);
    const events: string[] = [];
    const backend = {
      ...defaultBackend,
      parseModule: (text: string, path: string) => {
        events.push('parse');
        return defaultBackend.parseModule(text, path);
      },
      cpythonSyntax: async (files: readonly { path: string; text: string }[]) => {
        events.push(`cpython ${files.length}`);
        // CPython's word is final: it rejects m07 (tree-sitter accepted it).
        return files.map((f): SyntaxIssue | null =>
          f.path.endsWith('m07.py')
            ? {
                message: 'invalid syntax (from CPython)',
                range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } },
                source: 'cpython',
              }
            : null,
        );
      },
    };
    const r = await analyseFiles([root], { backend });
    assert.equal(events[0], 'cpython 20');
    assert.equal(events.filter((e) => e === 'parse').length, 20);
    const bad = r.diagnostics.get(join(root, 'hooks', 'm07.py'))!;
    assert.deepEqual(
      bad.map((d) => [d.code, d.message]),
      [['syntax-error', 'invalid syntax (from CPython) (reported by Python)']],
    );
    assert.deepEqual(r.diagnostics.get(join(root, 'hooks', 'm08.py')), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
