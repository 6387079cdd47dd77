// Quick fixes from the rules' fixes: applying one makes its diagnostic go; the order per
// diagnostic is preferred fix, other suggestions, documentation; source.fixAll.hooksmith
// applies every preferred fix at once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionRequest,
  DiagnosticSeverity,
  type CodeAction,
  type Diagnostic,
  type TextEdit,
} from 'vscode-languageserver-protocol';
import { LspClient, workspace } from './lsp-client';

const SOURCE = `from rasa.mantle.hooks import on_turn_started, modify_tool_call


@on_turn_started
def started(payload):
    pass


@modify_tool_call
async def rewrite(call):
    return call
`;

function apply(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x.py', 'python', 1, text), edits);
}

describe('code actions', () => {
  const ws = workspace({ 'agent/hooks.py': SOURCE });
  let c: LspClient;
  let uri: string;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
    uri = await c.open(ws.path('agent/hooks.py'), SOURCE);
    await c.waitFor(uri, (p) => p.version === 1);
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  async function actionsFor(d: Diagnostic): Promise<CodeAction[]> {
    const r = await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d], only: ['quickfix'] },
    });
    return (r ?? []) as CodeAction[];
  }

  it('offers the preferred fix first and the documentation last', async () => {
    const d = c.last(uri)!.diagnostics.find((x) => x.code === 'missing-parentheses')!;
    const actions = await actionsFor(d);
    assert.ok(actions.length >= 2, JSON.stringify(actions));
    assert.equal(actions[0]!.isPreferred, true);
    assert.equal(actions[0]!.title, 'Add ()', 'plain text: no raw backticks in the light bulb');
    const docs = actions.findIndex((a) => a.title.startsWith('Show documentation'));
    assert.equal(actions[docs]!.title, 'Show documentation for missing-parentheses');
    assert.equal(actions[docs]!.command?.arguments?.[0], 'missing-parentheses');
    // Then Fix All, in the light bulb (quick fixes) since the file has other fixable problems.
    assert.equal(docs, actions.length - 2);
    const all = actions[actions.length - 1]!;
    assert.equal(all.title, 'Fix all auto-fixable Hooksmith problems');
    assert.equal(all.kind, 'quickfix');
    assert.deepEqual(all.command?.arguments, [{ kind: 'source.fixAll.hooksmith', apply: 'first' }]);
    assert.equal(all.command?.command, 'editor.action.codeAction');
  });

  it('applying a quick fix makes its diagnostic go', async () => {
    const d = c.last(uri)!.diagnostics.find((x) => x.code === 'sync-handler')!;
    assert.ok(d, 'sync-handler reported');
    const fix = (await actionsFor(d))[0]!;
    const edits = fix.edit!.changes![uri]!;
    const v = await c.change(
      uri,
      [...edits].reverse().map((e) => ({ range: e.range, text: e.newText })),
    );
    const p = await c.waitFor(uri, (p) => p.version === v);
    assert.ok(
      !p.diagnostics.some((x) => x.code === 'sync-handler'),
      JSON.stringify(p.diagnostics.map((x) => x.code)),
    );
  });

  it('source.fixAll.hooksmith applies every preferred mechanical fix at once', async () => {
    const text = SOURCE;
    const v0 = await c.change(uri, [{ text }]);
    const before = await c.waitFor(uri, (p) => p.version === v0);
    const fixable = before.diagnostics.filter((d) =>
      ['missing-parentheses', 'sync-handler'].includes(String(d.code)),
    );
    assert.equal(fixable.length, 3, JSON.stringify(before.diagnostics.map((d) => d.code)));
    const r = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.hooksmith'] },
    })) as CodeAction[];
    assert.equal(r.length, 1);
    const fixed = apply(text, r[0]!.edit!.changes![uri]!);
    assert.match(fixed, /@on_turn_started\(\)\nasync def started/);
    assert.match(fixed, /@modify_tool_call\(\)\nasync def rewrite/);
    const v = await c.change(uri, [{ text: fixed }]);
    const after = await c.waitFor(uri, (p) => p.version === v);
    assert.ok(
      !after.diagnostics.some((d) => ['missing-parentheses', 'sync-handler'].includes(String(d.code))),
    );
  });

  it('fixAll merges the same import added by two fixes into one edit', async () => {
    const text =
      'from rasa.mantle.hooks import modify_tool_call\n\n\n@modify_tool_call()\nasync def a(call):\n    return call\n';
    const v = await c.change(uri, [{ text }]);
    await c.waitFor(uri, (p) => p.version === v);
    const r = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.hooksmith'] },
    })) as CodeAction[];
    const fixed = apply(text, r[0]!.edit!.changes![uri]!);
    assert.match(fixed, /^from rasa\.mantle\.hooks import ToolCallPayload, modify_tool_call\n/);
    assert.match(fixed, /async def a\(call: ToolCallPayload\) -> ToolCallPayload:/);
    const v2 = await c.change(uri, [{ text: fixed }]);
    const after = await c.waitFor(uri, (p) => p.version === v2);
    // The probe's note that rasa-pro is not installed (information) may arrive at any version.
    assert.deepEqual(
      after.diagnostics.filter((d) => d.severity !== DiagnosticSeverity.Information).map((d) => d.code),
      [],
      JSON.stringify(after.diagnostics),
    );
  });

  it('fixAll applies fixes that rewrite the same import line in turn (a pass each), sorted', async () => {
    const text =
      'from rasa.mantle.hooks import modify_model_response, on_turn_started\n\n\n' +
      '@on_turn_started()\nasync def s(payload: dict) -> None:\n    return None\n\n\n' +
      '@modify_model_response()\nasync def r(payload: dict) -> dict:\n    return payload\n';
    const v = await c.change(uri, [{ text }]);
    await c.waitFor(uri, (p) => p.version === v);
    const r = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.hooksmith'] },
    })) as CodeAction[];
    const fixed = apply(text, r[0]!.edit!.changes![uri]!);
    assert.match(
      fixed,
      /^from rasa\.mantle\.hooks import \(\n {4}ModelResponsePayload,\n {4}TurnStartedPayload,\n/,
    );
    const v2 = await c.change(uri, [{ text: fixed }]);
    const after = await c.waitFor(uri, (p) => p.version === v2);
    assert.deepEqual(
      after.diagnostics.filter((d) => d.severity === 1).map((d) => d.code),
      [],
    );
  });

  it('fixAll drops a fix whose result has a new diagnostic (a did-you-mean rename making a duplicate hook)', async () => {
    const text =
      'from rasa.mantle.hooks import ToolCallPayload, modify_tool_call, modify_tool_cal, on_turn_started\n\n\n' +
      '@modify_tool_call()\nasync def a(call: ToolCallPayload) -> ToolCallPayload:\n    return call\n\n\n' +
      '@modify_tool_cal()\nasync def b(call: ToolCallPayload) -> ToolCallPayload:\n    return call\n\n\n' +
      '@on_turn_started\nasync def started(payload):\n    pass\n';
    const v = await c.change(uri, [{ text }]);
    const before = await c.waitFor(uri, (p) => p.version === v);
    const unknown = before.diagnostics.find((d) => d.code === 'unknown-import')!;
    assert.ok(unknown, JSON.stringify(before.diagnostics.map((d) => d.code)));
    // The rename is still a quick fix of its own, just not part of Fix All.
    assert.ok(
      (await actionsFor(unknown)).some((a) => a.isPreferred && a.title === 'Import modify_tool_call'),
    );
    const r = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.hooksmith'] },
    })) as CodeAction[];
    const fixed = apply(text, r[0]!.edit!.changes![uri]!);
    assert.match(fixed, /@on_turn_started\(\)/, 'the safe fix is applied');
    assert.match(fixed, /\bmodify_tool_cal,\n[^]*@modify_tool_cal\(\)/, 'the rename is not: ' + fixed);
    const v2 = await c.change(uri, [{ text: fixed }]);
    const after = await c.waitFor(uri, (p) => p.version === v2);
    assert.ok(
      !after.diagnostics.some((d) => d.code === 'duplicate-modify-hook'),
      JSON.stringify(after.diagnostics),
    );
  });
});
