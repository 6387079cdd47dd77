// A fix that names a type imports it, and a name the module's import would not find is an error:
// over stdio, as the editor sees it (issue: "Annotate as BeforeToolCallHookContext" left a
// NameError at load while the editor showed 0 errors, and Fix All applied it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionRequest, type CodeAction, type TextEdit } from 'vscode-languageserver-protocol';
import { LspClient, workspace } from './lsp-client';

const CAYU = `from cayu.observability import BeforeToolCallDecision, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: dict) -> BeforeToolCallDecision | None:
        return None
`;

function apply(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x.py', 'python', 1, text), edits);
}

describe('import-time names over LSP', () => {
  const ws = workspace({ 'app/guard.py': CAYU });
  let c: LspClient;
  let uri: string;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
    uri = await c.open(ws.path('app/guard.py'), CAYU);
    await c.waitFor(uri, (p) => p.version === 1);
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  async function fixAll(): Promise<TextEdit[]> {
    const r = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.hooksmith'] },
    })) as CodeAction[];
    return r[0]?.edit?.changes?.[uri] ?? [];
  }

  it('Fix All on a Cayu context annotation imports the type, and the module then loads', async () => {
    const first = c.last(uri)!.diagnostics.map((d) => d.code);
    assert.ok(first.includes('cayu-signature'), JSON.stringify(first));
    const fixed = apply(CAYU, await fixAll());
    assert.match(
      fixed,
      /^from cayu\.observability import \(\n {4}BeforeToolCallDecision,\n {4}BeforeToolCallHookContext,\n {4}RuntimeHook,\n\)$/m,
    );
    assert.match(fixed, /context: BeforeToolCallHookContext\)/);
    const v = await c.change(uri, [{ text: fixed }]);
    const p = await c.waitFor(uri, (p) => p.version === v);
    assert.deepEqual(
      p.diagnostics.filter((d) => d.severity === 1).map((d) => d.code),
      [],
    );
  });

  it('an annotation whose type is not imported is an undefined-name error, with the import as its fix', async () => {
    const text = CAYU.replace('context: dict', 'context: BeforeToolCallHookContext');
    const v = await c.change(uri, [{ text }]);
    const p = await c.waitFor(uri, (p) => p.version === v);
    const d = p.diagnostics.find((x) => x.code === 'undefined-name');
    assert.ok(d, JSON.stringify(p.diagnostics));
    assert.equal(d.severity, 1);
    assert.equal(d.range.start.line, 4);
    assert.match(d.message, /BeforeToolCallHookContext.*NameError/);
    const fixed = apply(text, await fixAll());
    const v2 = await c.change(uri, [{ text: fixed }]);
    const after = await c.waitFor(uri, (p) => p.version === v2);
    assert.ok(!after.diagnostics.some((x) => x.code === 'undefined-name'), JSON.stringify(after.diagnostics));
  });
});
