// #42 item 5: pull diagnostics (`textDocument/diagnostic`, LSP 3.17) for a client that advertises
// `textDocument.diagnostic`, as Neovim 0.10+, Helix and Zed do; push for one that does not. A real
// server over stdio.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DocumentDiagnosticRequest,
  type ClientCapabilities,
  type Diagnostic,
  type DocumentDiagnosticReport,
} from 'vscode-languageserver-protocol';
import { LspClient, workspace } from './lsp-client';
import { GOOD_HOOKS, SECOND_MODIFY } from './fixtures';

const PULLING: ClientCapabilities = {
  workspace: { configuration: true, diagnostics: { refreshSupport: true } },
  textDocument: {
    publishDiagnostics: { versionSupport: true },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
  },
};

const BARE =
  'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started\nasync def started(payload) -> None:\n    pass\n';

// The probe's note that rasa-pro is not installed (information) may arrive at any version.
const codes = (ds: Diagnostic[]) =>
  ds
    .filter((d) => d.severity !== 3)
    .map((d) => d.code)
    .sort();

describe('a client that pulls diagnostics', () => {
  const ws = workspace({
    'agent/hooks/a.py': GOOD_HOOKS,
    'agent/hooks/closed.py': BARE,
    'other/hooks/b.py': GOOD_HOOKS,
  });
  let c: LspClient;
  let refreshes = 0;
  const pull = (uri: string, previousResultId?: string) =>
    c.conn.sendRequest(DocumentDiagnosticRequest.type, {
      textDocument: { uri },
      ...(previousResultId ? { previousResultId } : {}),
    }) as Promise<DocumentDiagnosticReport & { resultId?: string; items?: Diagnostic[] }>;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir], capabilities: PULLING, vscode: false });
    c.conn.onRequest('workspace/diagnostic/refresh', () => {
      refreshes++;
      return null;
    });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('is offered diagnosticProvider', () => {
    assert.deepEqual(c.serverCapabilities.diagnosticProvider, {
      identifier: 'hooksmith',
      interFileDependencies: true,
      workspaceDiagnostics: false,
    });
  });

  it('an open document: a full report for the version it sent, then unchanged, never a push', async () => {
    const uri = await c.open(ws.path('agent/hooks/a.py'), BARE);
    const first = await pull(uri);
    assert.equal(first.kind, 'full');
    assert.deepEqual(codes(first.items!), ['missing-parentheses', 'payload-annotation']);
    const again = await pull(uri, first.resultId);
    assert.deepEqual(again, { kind: 'unchanged', resultId: first.resultId });
    // An edit: the pull answers for the new version (it waits for that analysis).
    await c.change(uri, [{ text: GOOD_HOOKS }]);
    const edited = await pull(uri, first.resultId);
    assert.equal(edited.kind, 'full');
    assert.deepEqual(codes(edited.items!), ['payload-annotation']); // log_turn's bare `payload`
    assert.ok(
      (c.published.get(uri) ?? []).every((p) => p.diagnostics.length === 0),
      'nothing pushed for a pulled document',
    );
  });

  it('a closed module is still pushed (the workspace stays in view)', async () => {
    const closed = `file://${ws.path('agent/hooks/closed.py')}`;
    const p = await c.waitFor(closed, (x) => x.diagnostics.length > 0, 10_000);
    assert.deepEqual(codes(p.diagnostics), ['missing-parentheses', 'payload-annotation']);
  });

  it("a sibling's change makes the server ask for a pull; the pull shows the duplicate", async () => {
    const a = `file://${ws.path('agent/hooks/a.py')}`;
    const before = await pull(a);
    const asked = refreshes;
    await c.open(ws.path('agent/hooks/b2.py'), SECOND_MODIFY);
    const deadline = Date.now() + 10_000;
    while (refreshes === asked && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(refreshes > asked, 'workspace/diagnostic/refresh was sent');
    const after = await pull(a, before.resultId);
    assert.equal(after.kind, 'full');
    assert.deepEqual(codes(after.items!), ['duplicate-modify-hook', 'payload-annotation']);
  });
});

describe('a client that does not pull', () => {
  it('is not offered diagnosticProvider and gets pushes', async () => {
    const ws = workspace({ 'agent/hooks/a.py': BARE });
    const c = await LspClient.start({ folders: [ws.dir] });
    try {
      assert.equal(c.serverCapabilities.diagnosticProvider, undefined);
      const uri = await c.open(ws.path('agent/hooks/a.py'), BARE);
      const p = await c.waitFor(uri, (x) => x.diagnostics.length > 0, 10_000);
      assert.deepEqual(codes(p.diagnostics), ['missing-parentheses', 'payload-annotation']);
    } finally {
      await c.stop();
      ws.cleanup();
    }
  });
});
