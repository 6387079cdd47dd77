// Open, change, close through the real server: incremental edits, versions, non-hook files,
// disk modules at startup, and CPython's late syntax verdict.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver-protocol';
import { LspClient, uriOf, workspace } from './lsp-client';
import { GOOD_HOOKS } from './fixtures';

const hasPython = spawnSync('python3', ['-c', 'pass']).status === 0;

describe('diagnostics over stdio', () => {
  const ws = workspace({
    'agent/hooks.py': GOOD_HOOKS,
    'agent/hooks/extra.py':
      'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started\nasync def x(p) -> None:\n    pass\n',
    'agent/tools.py': 'def helper():\n    return 1\n',
  });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('reads hook modules from disk at startup and publishes theirs', async () => {
    const p = await c.waitFor(uriOf(ws.path('agent/hooks/extra.py')), (p) => p.diagnostics.length > 0);
    const d = p.diagnostics.find((x) => x.code === 'missing-parentheses');
    assert.ok(d, JSON.stringify(p.diagnostics));
    assert.equal(d.source, 'hooksmith');
    // The rule's page on the web, for any client (the VS Code client opens the copy it ships).
    assert.equal(
      d.codeDescription?.href,
      'https://github.com/hooksmith/hooksmith/blob/main/docs/rules/missing-parentheses.md',
    );
    assert.equal(d.severity, DiagnosticSeverity.Error);
    assert.deepEqual(d.range.start, { line: 2, character: 0 });
  });

  it('validates on open and on every incremental change, never publishing an older version', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), GOOD_HOOKS);
    const first = await c.waitFor(uri, (p) => p.version === 1);
    assert.deepEqual(
      first.diagnostics.map((d) => d.code),
      ['payload-annotation'],
    );
    // Drop the parentheses of `@modify_tool_call(timeout_ms=250)` (line 12) in three quick edits.
    await c.change(uri, [
      { range: { start: { line: 12, character: 17 }, end: { line: 12, character: 18 } }, text: '' },
    ]);
    await c.change(uri, [
      { range: { start: { line: 12, character: 17 }, end: { line: 12, character: 32 } }, text: '' },
    ]);
    const v = await c.change(uri, [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# edited\n' },
    ]);
    const last = await c.waitFor(uri, (p) => p.version === v);
    assert.ok(
      last.diagnostics.some((d) => d.code === 'missing-parentheses' && d.range.start.line === 13),
      JSON.stringify(last.diagnostics),
    );
    const versions = (c.published.get(uri) ?? []).map((p) => p.version ?? 0);
    assert.deepEqual(
      versions,
      [...versions].sort((a, b) => a - b),
      'versions only grow',
    );
  });

  it('gives other Python files no diagnostics', async () => {
    const uri = await c.open(ws.path('agent/tools.py'), 'def helper(:\n');
    const p = await c.waitFor(uri, () => true);
    assert.deepEqual(p.diagnostics, []);
  });

  it('falls back to the disk content on close', async () => {
    const uri = uriOf(ws.path('agent/hooks/extra.py'));
    await c.open(ws.path('agent/hooks/extra.py'), 'from rasa.mantle.hooks import on_turn_started\n');
    await c.waitFor(uri, (p) => p.version === 1 && p.diagnostics.length === 0);
    await c.close(uri);
    await c.waitFor(uri, (p) => p.diagnostics.some((d) => d.code === 'missing-parentheses'));
  });

  it('marks unnecessary code with the Unnecessary tag when a rule says so', async () => {
    const text = GOOD_HOOKS.replace('print(payload.sender_id)', 'return payload');
    const uri = await c.open(ws.path('agent/hooks.py'), text);
    const p = await c.waitFor(uri, (p) => p.diagnostics.some((d) => d.code === 'observe-mutation'));
    const d = p.diagnostics.find((x) => x.code === 'observe-mutation')!;
    assert.ok(d.tags?.includes(DiagnosticTag.Unnecessary) || d.tags === undefined);
  });

  it(
    'adds the syntax error only CPython sees, after the fast diagnostics',
    { skip: !hasPython && 'no python3' },
    async () => {
      const text = GOOD_HOOKS + '\n\ndef f(a=1, b):\n    pass\n';
      const uri = await c.open(ws.path('agent/hooks.py'), text);
      const fast = await c.waitFor(uri, (p) => p.version === 1);
      assert.ok(!fast.diagnostics.some((d) => d.code === 'syntax-error'), 'tree-sitter accepts it');
      const slow = await c.waitFor(uri, (p) => p.diagnostics.some((d) => d.code === 'syntax-error'), 8000);
      const d = slow.diagnostics.find((x) => x.code === 'syntax-error')!;
      assert.equal(d.range.start.line, 17);
      assert.match(d.message, /default/);
    },
  );
});
