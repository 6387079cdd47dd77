// Hover, completion (on half-typed code), document symbols and hooksmith/hooks through the
// real server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompletionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  type CompletionItem,
  type DocumentSymbol,
  type MarkupContent,
  type Position,
  type TextEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HOOKS_REQUEST, type HooksResult } from '../../runtime/lsp/shared';
import { LspClient, workspace } from './lsp-client';
import { CAYU_HOOK, GOOD_HOOKS, SECOND_MODIFY } from './fixtures';

describe('hover, completion, symbols, hooks', () => {
  const ws = workspace({
    'agent/hooks/a.py': GOOD_HOOKS,
    'agent/hooks/b.py': SECOND_MODIFY,
    'agent/guard.py': CAYU_HOOK,
  });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  async function hoverText(uri: string, position: Position): Promise<string> {
    const h = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    return h ? (h.contents as MarkupContent).value : '';
  }

  async function complete(
    path: string,
    text: string,
  ): Promise<{ items: CompletionItem[]; apply: (label: string) => string }> {
    const cursor = text.indexOf('‸');
    const clean = text.replace('‸', '');
    const uri = await c.open(path, clean);
    const doc = TextDocument.create(uri, 'python', 1, clean);
    const r = await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: doc.positionAt(cursor),
    });
    const items = (Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[];
    const apply = (label: string) => {
      const item = items.find((i) => i.label === label);
      assert.ok(item, `no item ${label} in ${items.map((i) => i.label).join(', ')}`);
      const edits = [item.textEdit as TextEdit, ...(item.additionalTextEdits ?? [])];
      return TextDocument.applyEdits(doc, edits).replace('$0', '');
    };
    return { items, apply };
  }

  it('hovers a decorator with point, lane, payload, signals, fail policy, timeout and wiring', async () => {
    const uri = await c.open(ws.path('agent/hooks/a.py'), GOOD_HOOKS);
    const text = await hoverText(uri, { line: 12, character: 5 });
    assert.match(text, /modify_tool_call/);
    assert.match(text, /`ToolCallPayload`/);
    assert.match(text, /`RetryModel`/);
    assert.match(text, /fail-closed/);
    assert.match(text, /250 ms \(`timeout_ms`; default 500 ms\)/);
    assert.match(text, /Wired \| yes/);
    // Said once: "Fail policy | fail-closed: …", not "fail-closed: fail-closed:".
    assert.match(text, /\| Fail policy \| fail-closed: the batch is not dispatched/);
    assert.ok(!/fail-closed: fail-closed/.test(text), text);
  });

  it('a hover on a diagnostic carries its rule’s short text and a link to the shipped reference', async () => {
    const src =
      'from rasa.mantle.hooks import on_turn_started\n\n\n@on_turn_started\nasync def started(payload):\n    pass\n';
    const uri = await c.open(ws.path('agent/hooks/c.py'), src);
    await c.waitFor(uri, (p) => p.diagnostics.some((d) => d.code === 'missing-parentheses'));
    const text = await hoverText(uri, { line: 3, character: 3 });
    assert.match(
      text,
      /^\*\*Hook decorators need parentheses\*\* · \[missing-parentheses\]\(command:hooksmith\.showRuleDocs\?%5B%22missing-parentheses%22%5D#missing-parentheses\) — /,
    );
    assert.match(text, /on_turn_started/, 'the decorator hover follows');
    await c.close(uri); // not on disk: the hook leaves the agent again
  });

  it('hovers a payload type name and a payload field access with the field table', async () => {
    const uri = await c.open(ws.path('agent/hooks/a.py'), GOOD_HOOKS);
    const type = await hoverText(uri, { line: 13, character: 30 });
    assert.match(type, /\*\*ToolCallPayload\*\*/);
    // 3.21 never reads headers back (#39: tool_call.py:85): read-only.
    assert.match(type, /\| `headers` \| `dict\[str, str\]` \| read-only/);
    assert.match(type, /\| `sender_id` \| `str` \| identity/);
    const field = await hoverText(uri, { line: 14, character: 60 });
    assert.match(field, /\*\*ToolCallPayload\.arguments\*\*/);
    // An unannotated payload parameter of a hook takes the hook's payload type.
    const untyped = await hoverText(uri, { line: 9, character: 20 });
    assert.match(untyped, /TurnStartedPayload\.sender_id/);
  });

  it('hovers Cayu phases, contexts and decisions', async () => {
    const uri = await c.open(ws.path('agent/guard.py'), CAYU_HOOK);
    assert.match(
      await hoverText(uri, { line: 4, character: 16 }),
      /before_tool_call\*\* — Cayu runtime hook phase[\s\S]*`"block"` \| `block_reason`/,
    );
    assert.match(
      await hoverText(uri, { line: 4, character: 50 }),
      /BeforeToolCallHookContext[\s\S]*`arguments`/,
    );
    assert.match(
      await hoverText(uri, { line: 0, character: 35 }),
      /BeforeToolCallDecision[\s\S]*modified_arguments/,
    );
  });

  // rasa-pro 3.21 invokes every point (#39: processor.py:200, turn_context.py:417), so by default
  // none is listed as not wired.
  it('@mod lists every modify point', async () => {
    const { items } = await complete(ws.path('agent/hooks/a.py'), GOOD_HOOKS + '\n\n@mod‸\n');
    const mods = items
      .filter((i) => i.label.startsWith('modify_'))
      .sort((a, b) => a.sortText!.localeCompare(b.sortText!))
      .map((i) => i.label);
    assert.equal(mods.length, 8, mods.join(', '));
    assert.ok(
      mods.includes('modify_incoming_message') && mods.includes('modify_outgoing_text'),
      mods.join(', '),
    );
  });

  it('a scaffold snippet (hook-modify-tool-result) merges its imports like completion after @', async () => {
    const { items, apply } = await complete(
      ws.path('agent/hooks/a.py'),
      GOOD_HOOKS + '\n\nhook-modify-tool-r‸\n',
    );
    assert.ok(items.some((i) => i.label === 'hook-modify-tool-result'));
    const out = apply('hook-modify-tool-result');
    // Merged into the parenthesised import; no import line pasted where the cursor was.
    assert.match(out, /^from rasa\.mantle\.hooks import \(\n(?: {4}\w+,\n)+\)\n/);
    assert.match(out.split(')\n')[0]!, /ToolResultPayload,/);
    assert.match(out.split(')\n')[0]!, /modify_tool_result,/);
    assert.equal((out.match(/import/g) ?? []).length, 1, out);
    assert.match(
      out,
      /\n@modify_tool_result\(\)\nasync def \$\{1:\w+\}\(payload: ToolResultPayload\) -> ToolResultPayload:/,
    );
  });

  it('completes decorators after @ and merges the import in the parenthesised style', async () => {
    const src = GOOD_HOOKS + '\n\n@‸\n';
    const { items, apply } = await complete(ws.path('agent/hooks/a.py'), src);
    assert.equal(items.length, 18);
    const out = apply('on_tool_result');
    assert.match(out, / {4}on_turn_started,\n {4}on_tool_result,\n\)/);
    assert.match(out, /\n@on_tool_result\(\)\n$/);
    // Already imported: no import edit.
    assert.equal(items.find((i) => i.label === 'modify_tool_call')!.additionalTextEdits?.length ?? 0, 0);
  });

  it('completes payload fields on half-typed code', async () => {
    const src = GOOD_HOOKS.replace(
      'return call.model_copy(update={"arguments": dict(call.arguments)})',
      'x = call.‸',
    );
    const { items } = await complete(ws.path('agent/hooks/a.py'), src);
    const labels = items.map((i) => i.label);
    for (const f of ['tool_name', 'arguments', 'headers', 'sender_id'])
      assert.ok(labels.includes(f), labels.join(','));
  });

  it('limits model_copy(update={ keys to mutable fields', async () => {
    const src = `from rasa.mantle.hooks import ToolResultPayload, modify_tool_result\n\n@modify_tool_result()\nasync def r(result: ToolResultPayload) -> ToolResultPayload:\n    return result.model_copy(update={"‸`;
    const { items, apply } = await complete(ws.path('agent/hooks/a.py'), src);
    assert.deepEqual(items.map((i) => i.label).sort(), ['"arguments"', '"is_error"', '"value"']);
    assert.match(apply('"value"'), /update=\{"value": $/);
  });

  it('completes model_settings keys from the allow-list', async () => {
    const src = `from rasa.mantle.hooks import ModelRequestPayload, modify_model_request\n\n@modify_model_request()\nasync def r(req: ModelRequestPayload) -> ModelRequestPayload:\n    return req.model_copy(update={"model_settings": {"temperature": 0, ‸`;
    const { items } = await complete(ws.path('agent/hooks/a.py'), src);
    assert.ok(items.some((i) => i.label === '"max_tokens"'));
    assert.ok(items.every((i) => !['"messages"', '"model"'].includes(String(i.label))));
  });

  it('completes Cayu action literals and companion keywords', async () => {
    const base = CAYU_HOOK.replace('return None', 'return BeforeToolCallDecision(action="‸');
    const actions = await complete(ws.path('agent/guard.py'), base);
    assert.deepEqual(
      actions.items.map((i) => i.label),
      ['proceed', 'proceed_modified', 'short_circuit', 'block'],
    );
    const kw = await complete(
      ws.path('agent/guard.py'),
      CAYU_HOOK.replace('return None', 'return BeforeToolCallDecision(action="block", ‸'),
    );
    assert.deepEqual(
      kw.items.map((i) => i.label),
      ['block_reason='],
    );
  });

  it('lists hook symbols with point · lane · timeout', async () => {
    const uri = await c.open(ws.path('agent/hooks/a.py'), GOOD_HOOKS);
    const syms = (await c.conn.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri },
    })) as DocumentSymbol[];
    assert.deepEqual(
      syms.map((s) => [s.name, s.detail]),
      [
        ['log_turn', 'turn_started · observe · 100 ms'],
        ['trim_args', 'tool_call · modify · 250 ms'],
      ],
    );
    const cayu = (await c.conn.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri: await c.open(ws.path('agent/guard.py'), CAYU_HOOK) },
    })) as DocumentSymbol[];
    assert.equal(cayu[0]!.name, 'Guard');
    assert.equal(cayu[0]!.children?.[0]?.name, 'before_tool_call');
  });

  it('answers hooksmith/hooks per agent, duplicates flagged', async () => {
    await c.open(ws.path('agent/hooks/a.py'), GOOD_HOOKS);
    const r = (await c.conn.sendRequest(HOOKS_REQUEST, {})) as HooksResult;
    assert.equal(r.agents.length, 1);
    const hooks = r.agents[0]!.hooks;
    const byHandler = new Map(hooks.map((h) => [h.handler, h]));
    assert.deepEqual([...byHandler.keys()].sort(), [
      'Guard.before_tool_call',
      'log_turn',
      'other',
      'trim_args',
    ]);
    assert.equal(byHandler.get('trim_args')!.duplicate, true);
    assert.equal(byHandler.get('trim_args')!.timeoutMs, 250);
    assert.equal(byHandler.get('log_turn')!.duplicate, false);
    assert.equal(byHandler.get('Guard.before_tool_call')!.engine, 'cayu');
  });

  it('notifies hooksmith/hooksChanged when a hook is added', async () => {
    const uri = await c.open(ws.path('agent/hooks/a.py'), GOOD_HOOKS);
    await c.waitFor(uri, (p) => p.version === 1);
    const seen = c.hooksChanged;
    await c.change(uri, [
      { text: GOOD_HOOKS + '\n\n@on_turn_started()\nasync def more(payload) -> None:\n    pass\n' },
    ]);
    await c.waitForHooksChanged(seen);
    const r = (await c.conn.sendRequest(HOOKS_REQUEST, {})) as HooksResult;
    assert.ok(r.agents[0]!.hooks.some((h) => h.handler === 'more'));
  });
});
