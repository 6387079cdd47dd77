// `# hooksmith: ignore[code, …]` per line and `# hooksmith: ignore-file[code]`: honoured by the
// analysis the server and `hooksmith check` share; an unused one is `unused-suppression`.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { applyEdits } from '../../runtime/scaffold/scaffold-source';
import { applySuppressions, suppressionFixes } from '../../runtime/analysis/suppression';
import type { HookDiagnostic } from '../../runtime/rules/diagnostics';
import { hooksmith } from './cli-check-helpers';

const at = (line: number, code: string): HookDiagnostic => ({
  code,
  severity: 'error',
  message: code,
  file: 'hooks.py',
  range: { start: { line, character: 0 }, end: { line, character: 3 } },
});

test('a line suppression hides its codes on its line only; ignore-file hides a code everywhere; strings do not count', () => {
  const text = [
    '# hooksmith: ignore-file[not-wired]',
    'def a(): pass  # hooksmith: ignore[sync-handler, wrong-arity]',
    'def b(): pass',
    'x = "# hooksmith: ignore[sync-handler]"',
  ].join('\n');
  const left = applySuppressions(text, 'hooks.py', [
    at(1, 'sync-handler'),
    at(1, 'wrong-arity'),
    at(2, 'sync-handler'),
    at(3, 'sync-handler'),
    at(2, 'not-wired'),
    at(3, 'not-wired'),
  ]);
  assert.deepEqual(
    left.map((d) => `${d.code}@${d.range.start.line}`),
    ['sync-handler@2', 'sync-handler@3'],
  );
});

test('an unused suppression is information, faded, on its code, with a removal fix', () => {
  const text = 'def a(): pass  # hooksmith: ignore[sync-handler, blocking-call]\n';
  const left = applySuppressions(text, 'hooks.py', [at(0, 'sync-handler')]);
  assert.equal(left.length, 1);
  const d = left[0]!;
  assert.equal(d.code, 'unused-suppression');
  assert.equal(d.severity, 'information');
  assert.deepEqual(d.tags, ['unnecessary']);
  assert.match(d.message, /no blocking-call diagnostic on this line/);
  assert.equal(text.slice(d.range.start.character, d.range.end.character), 'blocking-call');
  assert.equal(applyEdits(text, d.fixes![0]!.edits), 'def a(): pass  # hooksmith: ignore[sync-handler]\n');
  const alone = applySuppressions('x = 1  # hooksmith: ignore[sync-handler]\ny = 2\n', 'hooks.py', []);
  assert.equal(
    applyEdits('x = 1  # hooksmith: ignore[sync-handler]\ny = 2\n', alone[0]!.fixes![0]!.edits),
    'x = 1\ny = 2\n',
  );
  // Turned off in the settings: not reported; another severity when configured.
  assert.deepEqual(applySuppressions(text, 'hooks.py', [], { rules: { 'unused-suppression': false } }), []);
  assert.equal(
    applySuppressions(text, 'hooks.py', [], { severity: { 'unused-suppression': 'warning' } })[0]!.severity,
    'warning',
  );
});

test('the quick fixes add a suppression on the line (merged into one there) or file-wide', () => {
  const text = 'import x\ndef a(): pass\ndef b(): pass  # hooksmith: ignore[wrong-arity]\n';
  const [line, file] = suppressionFixes(text, at(1, 'sync-handler'));
  assert.equal(line!.title, 'Ignore sync-handler on this line');
  assert.equal(
    applyEdits(text, line!.edits),
    text.replace('def a(): pass\n', 'def a(): pass  # hooksmith: ignore[sync-handler]\n'),
  );
  assert.equal(file!.title, 'Ignore sync-handler in this file');
  assert.equal(applyEdits(text, file!.edits), `# hooksmith: ignore-file[sync-handler]\n${text}`);
  const [merged] = suppressionFixes(text, at(2, 'sync-handler'));
  assert.match(applyEdits(text, merged!.edits), /# hooksmith: ignore\[wrong-arity, sync-handler\]/);
  assert.deepEqual(suppressionFixes(text, at(0, 'unused-suppression')), []);
});

test('hooksmith check honours suppressions and reports an unused one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-suppress-'));
  mkdirSync(join(dir, 'agent'));
  writeFileSync(
    join(dir, 'agent', 'hooks.py'),
    [
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started',
      '',
      '',
      '@on_turn_started()',
      'def started(payload: TurnStartedPayload) -> None:  # hooksmith: ignore[sync-handler]',
      '    pass',
      '',
      '',
      '@on_turn_started()',
      'async def again(payload: TurnStartedPayload) -> None:  # hooksmith: ignore[blocking-call]',
      '    pass',
      '',
    ].join('\n'),
  );
  const r = hooksmith(['check', 'agent', '--format', 'json'], dir);
  const found = (JSON.parse(r.stdout) as { code: string; line: number }[]).map((f) => `${f.code}@${f.line}`);
  assert.deepEqual(found, ['unused-suppression@10'], r.stdout + r.stderr);
  assert.equal(r.code, 0, 'information only: exit 0');
});
