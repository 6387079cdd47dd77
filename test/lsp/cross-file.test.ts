// A duplicate modify hook across two modules of one agent appears and disappears in both
// files as the sibling changes: in an open buffer, and on disk (didChangeWatchedFiles).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync } from 'node:fs';
import { FileChangeType } from 'vscode-languageserver-protocol';
import { LspClient, uriOf, workspace } from './lsp-client';
import { GOOD_HOOKS, SECOND_MODIFY } from './fixtures';

const hasDup = (codes: string[]) => codes.includes('duplicate-modify-hook');

describe('cross-file duplicate-modify-hook', () => {
  const ws = workspace({ 'agent/hooks/a.py': GOOD_HOOKS, 'agent/hooks/b.py': SECOND_MODIFY });
  const a = uriOf(ws.path('agent/hooks/a.py'));
  const b = uriOf(ws.path('agent/hooks/b.py'));
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('reports the duplicate in both files at startup, with the other as related location', async () => {
    const pa = await c.waitFor(a, (p) => hasDup(p.diagnostics.map((d) => String(d.code))));
    await c.waitFor(b, (p) => hasDup(p.diagnostics.map((d) => String(d.code))));
    const d = pa.diagnostics.find((x) => x.code === 'duplicate-modify-hook')!;
    assert.equal(d.relatedInformation?.[0]?.location.uri, b);
  });

  it('clears both when the open sibling renames its point, and restores both when it is undone', async () => {
    await c.open(ws.path('agent/hooks/b.py'), SECOND_MODIFY);
    await c.waitFor(b, (p) => p.version === 1);
    // `@modify_tool_call()` is on line 3; turn it into `@modify_tool_result()`.
    await c.change(b, [
      { range: { start: { line: 3, character: 13 }, end: { line: 3, character: 17 } }, text: 'result' },
    ]);
    await c.waitFor(a, (p) => !hasDup(p.diagnostics.map((d) => String(d.code))));
    await c.waitFor(b, (p) => p.version === 2 && !hasDup(p.diagnostics.map((d) => String(d.code))));
    await c.change(b, [
      { range: { start: { line: 3, character: 13 }, end: { line: 3, character: 19 } }, text: 'call' },
    ]);
    await c.waitFor(a, (p) => hasDup(p.diagnostics.map((d) => String(d.code))));
    await c.waitFor(b, (p) => p.version === 3 && hasDup(p.diagnostics.map((d) => String(d.code))));
    await c.close(b);
  });

  it('follows the disk: deleting the sibling clears, creating it again restores', async () => {
    unlinkSync(ws.path('agent/hooks/b.py'));
    await c.watched([{ uri: b, type: FileChangeType.Deleted }]);
    await c.waitFor(a, (p) => !hasDup(p.diagnostics.map((d) => String(d.code))));
    await c.waitFor(b, (p) => p.diagnostics.length === 0);
    writeFileSync(ws.path('agent/hooks/b.py'), SECOND_MODIFY);
    await c.watched([{ uri: b, type: FileChangeType.Created }]);
    await c.waitFor(a, (p) => hasDup(p.diagnostics.map((d) => String(d.code))));
    writeFileSync(
      ws.path('agent/hooks/b.py'),
      SECOND_MODIFY.replace(/modify_tool_call/g, 'on_tool_call').replace('-> ToolCallPayload', '-> None'),
    );
    await c.watched([{ uri: b, type: FileChangeType.Changed }]);
    await c.waitFor(a, (p) => !hasDup(p.diagnostics.map((d) => String(d.code))));
  });

  it('registers a file watcher for **/*.py', () => {
    assert.ok(c.registrations.includes('workspace/didChangeWatchedFiles'));
  });
});
