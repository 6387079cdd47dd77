// #42 item 4: what the user looks at is analysed before the workspace scan. Forty hook modules on
// disk are scanned at start; one opened while the scan is under way is published before the rest
// of the scan but the module being validated when the open is read (it goes on: at most one).
// Order only: how soon is measured by `npm run bench` (bench/lsp-flood.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { hookModuleSource } from '../../bench/generate';
import { LspClient, workspace } from './lsp-client';

describe('an opened document before the workspace scan', () => {
  it('is published before the scanned modules', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`agent/hooks/m${i}.py`] = hookModuleSource(400);
    files['agent/hooks/opened.py'] =
      hookModuleSource(400) + '\n\n@on_tool_call\nasync def late(call: ToolCallPayload) -> None:\n    pass\n';
    const ws = workspace(files);
    const c = await LspClient.start({ folders: [ws.dir] });
    try {
      const order: string[] = [];
      c.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        order.push(p.uri.split('/').pop()!);
        c.published.set(p.uri, [...(c.published.get(p.uri) ?? []), p]);
      });
      // Opened once the scan is under way (its first module published).
      const first = Date.now();
      while (!order.length && Date.now() - first < 60_000) await new Promise((r) => setTimeout(r, 5));
      const scannedBefore = order.length;
      const uri = await c.open(ws.path('agent/hooks/opened.py'), files['agent/hooks/opened.py']!);
      await c.waitFor(uri, (p) => p.diagnostics.some((d) => d.code === 'missing-parentheses'), 60_000);
      for (let i = 0; i < 40; i++)
        await c.waitFor(`file://${ws.path(`agent/hooks/m${i}.py`)}`, () => true, 120_000);
      // Modules first published after the open and before the opened document (a module published
      // again is a sibling refreshed by the module in flight: its duplicate modify hooks).
      const earlier = new Set(order.slice(0, scannedBefore));
      const before = [...new Set(order.slice(scannedBefore, order.indexOf('opened.py')))].filter(
        (f) => !earlier.has(f),
      );
      assert.ok(
        before.length <= 1,
        `published after the open, before the opened document: ${before.join(', ')}`,
      );
      assert.ok(order.length - scannedBefore >= 30, 'most of the scan was still to come when it was opened');
    } finally {
      await c.stop();
      ws.cleanup();
    }
  });
});
