// Issue #30 items 2-8, 10: a generic LSP client (what Neovim, Helix, eglot send: no snippets, no
// workspace/configuration, no documentChanges, no workspace folders, no Hooksmith capability) gets
// plain LSP: rule links to the web, its own "Show documentation" command, no VS Code-only entries,
// plain-text completion, settings from initializationOptions and didChangeConfiguration, fixes for
// byte-column ranges, cross-file checks with no root, no custom notifications.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CodeActionRequest,
  CompletionRequest,
  ExecuteCommandRequest,
  HoverRequest,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type MarkupContent,
} from 'vscode-languageserver-protocol';
import { OPEN_RULE_PAGE_COMMAND } from '../../runtime/lsp/shared';
import { LspClient, workspace } from './lsp-client';
import { GOOD_HOOKS, SECOND_MODIFY } from './fixtures';

/** `@on_turn_started` without its parentheses (missing-parentheses, fixable) after a line with a wide character. */
const BARE = `from rasa.mantle.hooks import on_turn_started

# Grüße — the line above a hook
@on_turn_started
async def started(payload):
    pass
`;

const MINIMAL = { textDocument: { publishDiagnostics: {} } };

describe('a generic client with minimal capabilities', () => {
  const ws = workspace({
    'agent/hooks/a.py': GOOD_HOOKS,
    'agent/hooks/b.py': SECOND_MODIFY,
    'agent/hooks/bare.py': BARE,
  });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({
      folders: [ws.dir],
      noRoot: true,
      vscode: false,
      capabilities: MINIMAL,
      initializationOptions: { hooksmith: { rules: { 'payload-annotation': false } } },
    });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it("with no workspace root, reads the opened module's agent: duplicate-modify-hook across files", async () => {
    const a = await c.open(ws.path('agent/hooks/a.py'), GOOD_HOOKS);
    const p = await c.waitFor(a, (x) => x.diagnostics.some((d) => d.code === 'duplicate-modify-hook'));
    assert.ok(p.diagnostics.find((d) => d.code === 'duplicate-modify-hook')!.relatedInformation?.length);
  });

  it('takes settings from initializationOptions, then from a didChangeConfiguration push', async () => {
    const a = await c.open(ws.path('agent/hooks/a.py'), GOOD_HOOKS);
    const p = await c.waitFor(a, (x) => x.version === 1);
    assert.ok(
      !p.diagnostics.some((d) => d.code === 'payload-annotation'),
      'turned off by initializationOptions',
    );
    await c.push({ hooksmith: { rules: { 'payload-annotation': true } } });
    await c.waitFor(a, (x) => x.diagnostics.some((d) => d.code === 'payload-annotation'));
    await c.push({ hooksmith: { rules: { 'payload-annotation': false } } });
    await c.waitFor(a, (x) => !x.diagnostics.some((d) => d.code === 'payload-annotation'));
  });

  it('links rules to their web page in hovers, never a command: URI', async () => {
    const uri = await c.open(ws.path('agent/hooks/bare.py'), BARE);
    const p = await c.waitFor(uri, (x) => x.diagnostics.some((d) => d.code === 'missing-parentheses'));
    const d = p.diagnostics.find((x) => x.code === 'missing-parentheses')!;
    const h = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: d.range.start });
    const text = (h!.contents as MarkupContent).value;
    assert.doesNotMatch(text, /command:/);
    assert.match(
      text,
      /https:\/\/github\.com\/hooksmith\/hooksmith\/blob\/main\/docs\/rules\/missing-parentheses\.md/,
    );
  });

  it('matches a fix by code and overlap (byte columns), with no VS Code-only entries', async () => {
    const uri = await c.open(ws.path('agent/hooks/bare.py'), BARE);
    const p = await c.waitFor(uri, (x) => x.diagnostics.some((d) => d.code === 'missing-parentheses'));
    const d = p.diagnostics.find((x) => x.code === 'missing-parentheses')!;
    // Neovim 0.7 sends byte columns and may drop the message: same code, a range that overlaps.
    const sent = {
      ...d,
      message: '',
      range: { start: d.range.start, end: { ...d.range.end, character: d.range.end.character + 3 } },
    };
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: sent.range,
      context: { diagnostics: [sent] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.isPreferred);
    assert.ok(fix?.edit?.changes?.[uri], JSON.stringify(actions));
    assert.ok(!actions.some((a) => a.command?.command === 'editor.action.codeAction'), 'no VS Code command');
    const fixAlls = actions.filter((a) => /Fix all/i.test(a.title));
    assert.ok(fixAlls.length <= 1, `one Fix all at most: ${fixAlls.map((a) => a.kind).join(', ')}`);
    const docs = actions.find((a) => a.title.startsWith('Show documentation'))!;
    assert.equal(docs.command?.command, OPEN_RULE_PAGE_COMMAND);
    assert.deepEqual(c.serverCapabilities.executeCommandProvider?.commands, [OPEN_RULE_PAGE_COMMAND]);
    // No window/showDocument capability: the page's address is shown as a message.
    await c.conn.sendRequest(ExecuteCommandRequest.type, {
      command: docs.command!.command,
      arguments: docs.command!.arguments,
    });
    assert.ok(
      c.messages.some((m) => m.message.includes('docs/rules/missing-parentheses.md')),
      JSON.stringify(c.messages),
    );
  });

  it('completes in plain text (no $0) without snippetSupport', async () => {
    const text = 'from rasa.mantle.hooks import on_turn_started\n\n\n@on_tu';
    const uri = await c.open(ws.path('agent/hooks/bare.py'), text);
    const r = (await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 3, character: 6 },
    })) as CompletionItem[] | CompletionList;
    const items = Array.isArray(r) ? r : r.items;
    assert.ok(items.length > 0);
    for (const i of items) {
      const t = i.textEdit?.newText ?? i.insertText ?? '';
      assert.doesNotMatch(t, /\$\d|\$\{/, `${i.label}: ${t}`);
      assert.notEqual(i.insertTextFormat, 2);
    }
    assert.ok(
      items.some((i) => (i.textEdit?.newText ?? '') === 'on_turn_started()'),
      JSON.stringify(items.map((i) => i.textEdit?.newText)),
    );
  });

  it('sends no hooksmith/hooksChanged to a client that did not ask', () => {
    assert.equal(c.hooksChanged, 0);
  });
});

describe('the VS Code client (the experimental hooksmith capability)', () => {
  const ws = workspace({ 'agent/hooks.py': GOOD_HOOKS });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({
      folders: [ws.dir],
      capabilities: { window: { showDocument: { support: true } } },
    });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('gets hooksmith/hooksChanged with empty params', async () => {
    await c.waitForHooksChanged(0);
    // A bare method name once went out as `params: [null]`.
    for (const p of c.hooksChangedParams) assert.deepEqual(p, [{}]);
  });

  it('opens a rule page with window/showDocument when the client has it', async () => {
    await c.conn.sendRequest(ExecuteCommandRequest.type, {
      command: OPEN_RULE_PAGE_COMMAND,
      arguments: ['not-wired'],
    });
    assert.equal(
      c.shownDocuments[0]?.uri,
      'https://github.com/hooksmith/hooksmith/blob/main/docs/rules/not-wired.md',
    );
    assert.equal(c.shownDocuments[0]?.external, true);
  });
});
