// The language server on the newest Mantle API line: a fake rasa-pro on PYTHONPATH exports
// modify_outgoing_message / OutgoingMessagePayload, so the module using them is clean, completion
// offers the new decorator (not the old one), the hover names the new payload class, and the old
// names get unknown-import naming the new name, with a quick fix to it; the scaffold snippet items
// (prefix hook-…) are the line's; hooksmith.mantle.apiLine overrides the line.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CodeActionRequest,
  CompletionRequest,
  HoverRequest,
  type CodeAction,
  type CompletionItem,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { makeFakeNewerCayu } from '../runtime/fixtures/fake-cayu';
import { makeFakeRasaPro } from '../runtime/fixtures/fake-rasa-pro';
import { LspClient, workspace } from './lsp-client';
import { HOOKS_REQUEST, type HooksResult } from '../../runtime/lsp/shared';

const NEW_HOOK = `from rasa.mantle.hooks import OutgoingMessagePayload, modify_outgoing_message


@modify_outgoing_message()
async def shout(payload: OutgoingMessagePayload) -> OutgoingMessagePayload:
    return payload
`;
const OLD_HOOK = NEW_HOOK.replace(/OutgoingMessagePayload/g, 'OutgoingTextPayload').replace(
  /modify_outgoing_message/g,
  'modify_outgoing_text',
);

describe('the Mantle API line in the language server', () => {
  const ws = workspace({ 'agent/hooks.py': NEW_HOOK });
  const site = mkdtempSync(join(tmpdir(), 'hooksmith-site-'));
  let c: LspClient;
  before(async () => {
    makeFakeRasaPro(site, '3.23.0', 'newest');
    c = await LspClient.start({ folders: [ws.dir], env: { PYTHONPATH: site, HOOKSMITH_NO_CACHE: '1' } });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
    rmSync(site, { recursive: true, force: true });
  });

  it('the new names are clean; hover and completion speak them', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), NEW_HOOK);
    await c.waitFor(uri, (x) => x.diagnostics.length === 0, 20_000);
    const hover = await c.conn.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: 3, character: 3 },
    });
    const value =
      hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    assert.match(value, /OutgoingMessagePayload/, JSON.stringify({ hover, d: c.published.get(uri) }));
    const text = NEW_HOOK + '\n@modify_out';
    await c.open(ws.path('agent/hooks.py'), text);
    const r = await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 7, character: 11 },
    });
    const labels = ((Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[]).map((i) =>
      String(i.label),
    );
    assert.ok(labels.includes('modify_outgoing_message'), labels.join(','));
    assert.ok(!labels.includes('modify_outgoing_text'), labels.join(','));
    // The hooks list (explorer, CodeLens) keeps the point's id and names it as the line does.
    const hooks = (await c.conn.sendRequest(HOOKS_REQUEST, {})) as HooksResult;
    const shout = hooks.agents.flatMap((a) => a.hooks).find((h) => h.handler === 'shout');
    assert.equal(shout?.point, 'outgoing_text');
    assert.equal(shout?.pointName, 'outgoing_message');
  });

  it("the scaffold snippet items are the line's: hook-modify-outgoing-message writes the new names", async () => {
    const text = NEW_HOOK + '\nhook-modify-outgoing-m';
    const uri = await c.open(ws.path('agent/hooks.py'), text);
    const r = await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 7, character: 22 },
    });
    const items = (Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[];
    const labels = items.map((i) => String(i.label));
    assert.ok(!labels.some((l) => /outgoing-text|outgoing_text/.test(l)), labels.join(','));
    const item = items.find((i) => i.label === 'hook-modify-outgoing-message');
    assert.ok(item, labels.join(','));
    const inserted = JSON.stringify([item.textEdit ?? item.insertText, item.additionalTextEdits ?? []]);
    assert.match(inserted, /@modify_outgoing_message\(\)/);
    assert.match(inserted, /payload: OutgoingMessagePayload/);
    assert.doesNotMatch(inserted, /OutgoingTextPayload|modify_outgoing_text/);
  });

  it('the renamed decorator: its quick fix renames the import and the decorator to the new name', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), OLD_HOOK);
    const p = await c.waitFor(
      uri,
      (x) => x.diagnostics.some((d) => /`modify_outgoing_text` was renamed/.test(d.message)),
      20_000,
    );
    const d = p.diagnostics.find((x) => /`modify_outgoing_text` was renamed/.test(x.message))!;
    assert.equal(d.code, 'unknown-import');
    const actions = ((await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d], only: ['quickfix'] },
    })) ?? []) as CodeAction[];
    const rename = actions.find((a) => a.title === 'Import modify_outgoing_message');
    assert.ok(rename, actions.map((a) => a.title).join(' | '));
    assert.equal(rename.isPreferred, true);
    const edits = rename.edit?.changes?.[uri] ?? [];
    // The import (line 0) and the decorator (line 3) both become the new name.
    assert.deepEqual(edits.map((e) => [e.range.start.line, e.newText]).sort(), [
      [0, 'modify_outgoing_message'],
      [3, 'modify_outgoing_message'],
    ]);
  });

  it('the old names: unknown-import names the new one; apiLine rasa-pro-3.21 turns it around', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), OLD_HOOK);
    const p = await c.waitFor(
      uri,
      (x) => x.diagnostics.some((d) => /was renamed to `modify_outgoing_message`/.test(d.message)),
      20_000,
    );
    assert.ok(
      p.diagnostics.some((d) =>
        /`OutgoingTextPayload` was renamed to `OutgoingMessagePayload`/.test(d.message),
      ),
    );
    await c.configure({ mantle: { apiLine: 'rasa-pro-3.21' } });
    await c.waitFor(uri, (x) => !x.diagnostics.some((d) => d.code === 'unknown-import'), 20_000);
  });
});

// The Cayu line: a fake cayu 0.10 of the newer layout on PYTHONPATH. Its imports are clean, the
// decision's hover names cayu.observability, a scaffold completion imports from it, the 0.3 path
// is an import-error with a fix to the new module, and hooksmith.cayu.apiLine turns it around.
const NEWER_CAYU = `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        return None
`;
const OLD_CAYU = NEWER_CAYU.replace('from cayu.observability import', 'from cayu.runtime.hooks import');

describe('the Cayu API line in the language server', () => {
  const ws = workspace({ 'pyproject.toml': '', 'app/guards.py': NEWER_CAYU });
  const site = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-site-'));
  let c: LspClient;
  before(async () => {
    makeFakeNewerCayu(site);
    c = await LspClient.start({ folders: [ws.dir], env: { PYTHONPATH: site, HOOKSMITH_NO_CACHE: '1' } });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
    rmSync(site, { recursive: true, force: true });
  });

  it('the newer imports are clean; hover and completion write cayu.observability', async () => {
    const uri = await c.open(ws.path('app/guards.py'), NEWER_CAYU);
    await c.waitFor(uri, (x) => x.version === 1 && x.diagnostics.length === 0, 20_000);
    const line = NEWER_CAYU.split('\n')[4]!;
    const hover = await c.conn.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: 4, character: line.indexOf('-> BeforeToolCallDecision') + 5 },
    });
    const value =
      hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    // The hover may come before the server has read the interpreter: ask until it names the line.
    let text = value;
    for (let i = 0; i < 40 && !/cayu 0\.9 and newer/.test(text); i++) {
      await new Promise((r) => setTimeout(r, 250));
      const h = await c.conn.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: { line: 4, character: line.indexOf('-> BeforeToolCallDecision') + 5 },
      });
      text = h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
    }
    assert.match(text, /`from cayu\.observability import BeforeToolCallDecision` \(cayu 0\.9 and newer\)/);
    const fresh = await c.open(ws.path('app/new_guard.py'), 'cayu-before');
    const r = await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri: fresh },
      position: { line: 0, character: 11 },
    });
    const item = ((Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[]).find(
      (i) => i.label === 'cayu-before-tool-call',
    );
    assert.ok(item, 'the scaffold item is offered');
    const imports = JSON.stringify(item.additionalTextEdits ?? item.textEdit ?? item.insertText);
    assert.match(imports, /from cayu\.observability import/, imports);
    assert.doesNotMatch(imports, /cayu\.runtime\.hooks/);
  });

  // #29 item 9 inferred that cayu.runtime keeps re-exporting these; the installed 0.15.0 raises
  // ImportError for every hook-API name there (cayu/_api.py:46-56, cayu/data/public_api_imports.json;
  // runtime/catalogue/cayu-lines/cayu-0.15.0.json), so the newer line flags them all.
  it('cayu.runtime serves none of the hook API on the newer line (read from cayu 0.15.0)', async () => {
    const viaRuntime = NEWER_CAYU.replace(
      'from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook',
      'from cayu.observability import RuntimeHook\nfrom cayu.runtime import AfterToolCallDecision, BeforeToolCallDecision, BeforeToolCallHookContext',
    );
    const uri = await c.open(ws.path('app/runtime_guard.py'), viaRuntime);
    const p = await c.waitFor(uri, (x) => x.diagnostics.length >= 3, 20_000);
    assert.deepEqual(
      p.diagnostics.map(
        (d) => /`(\w+)` is not in `cayu\.runtime` on cayu 0\.9 and newer/.exec(d.message)?.[1],
      ),
      ['AfterToolCallDecision', 'BeforeToolCallDecision', 'BeforeToolCallHookContext'],
    );
  });

  it('the 0.3 path: import-error with a fix to cayu.observability; apiLine cayu-0.3 turns it around', async () => {
    const uri = await c.open(ws.path('app/guards.py'), OLD_CAYU);
    const p = await c.waitFor(
      uri,
      (x) =>
        x.diagnostics.some((d) =>
          /`RuntimeHook` is not in `cayu.runtime.hooks` on cayu 0.9 and newer/.test(d.message),
        ),
      20_000,
    );
    const d = p.diagnostics.find((x) => /`RuntimeHook` is not in/.test(x.message))!;
    assert.equal(d.code, 'import-error');
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d], only: ['quickfix'] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.title === 'Import from cayu.observability');
    assert.ok(fix, actions.map((a) => a.title).join(', '));
    const fixed = TextDocument.applyEdits(
      TextDocument.create(uri, 'python', 1, OLD_CAYU),
      fix.edit!.changes![uri]!,
    );
    assert.equal(fixed, NEWER_CAYU);
    await c.configure({ cayu: { apiLine: 'cayu-0.3' } });
    await c.waitFor(uri, (x) => !x.diagnostics.some((y) => / is not in `/.test(y.message)), 20_000);
    const newer = await c.open(ws.path('app/guards.py'), NEWER_CAYU);
    await c.waitFor(
      newer,
      (x) =>
        x.diagnostics.some((y) => /`RuntimeHook` is not in `cayu.observability` on cayu 0.3/.test(y.message)),
      20_000,
    );
  });
});
