// Hovers in Cayu hook code as Mantle payload fields have them (issue #23 item 8), and the
// Mantle model_copy(update={…}) keys: over stdio, on real modules.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CompletionRequest,
  HoverRequest,
  type CompletionItem,
  type MarkupContent,
} from 'vscode-languageserver-protocol';
import { LspClient, workspace } from './lsp-client';

const CAYU = `from cayu.observability import (
    AfterToolCallDecision,
    BeforeToolCallDecision,
    BeforeToolCallHookContext,
    RuntimeHook,
    ToolCallHookContext,
    ToolResult,
)


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        if context.tool_name == "delete_account" and context.arguments:
            return BeforeToolCallDecision(action="block", block_reason="needs a human")
        return None

    async def after_tool_call(self, context: ToolCallHookContext) -> AfterToolCallDecision | None:
        if context.result.is_error:
            return AfterToolCallDecision(action="modify", modified_result=ToolResult(content="later"))
        return None
`;

const MANTLE = `from rasa.mantle.hooks import ModelResponsePayload, modify_model_response


@modify_model_response()
async def tidy(payload: ModelResponsePayload) -> ModelResponsePayload:
    return payload.model_copy(update={"text": "hi"})
`;

describe('Cayu hovers and completions, model_copy keys', () => {
  const ws = workspace({ 'app/guard.py': CAYU, 'agent/hooks.py': MANTLE });
  let c: LspClient;
  let cayu: string;
  let mantle: string;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
    cayu = await c.open(ws.path('app/guard.py'), CAYU);
    mantle = await c.open(ws.path('agent/hooks.py'), MANTLE);
    await c.waitFor(cayu, (p) => p.version === 1);
    await c.waitFor(mantle, (p) => p.version === 1);
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  async function hoverAt(uri: string, text: string, needle: string, shift = 1): Promise<string> {
    const doc = TextDocument.create(uri, 'python', 1, text);
    const position = doc.positionAt(text.indexOf(needle) + shift);
    const h = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    return h ? (h.contents as MarkupContent).value : '';
  }

  it('context.tool_name and context.arguments: the property, its type and what it holds', async () => {
    const name = await hoverAt(cayu, CAYU, 'tool_name ==');
    assert.match(name, /\*\*BeforeToolCallHookContext\.tool_name\*\*: `str` — read-only/);
    assert.match(name, /name of the tool/);
    const args = await hoverAt(cayu, CAYU, 'arguments:');
    assert.match(args, /BeforeToolCallHookContext\.arguments\*\*: `dict\[str, Any\]`/);
    assert.match(args, /no-op/);
    assert.match(await hoverAt(cayu, CAYU, 'is_error'), /\*\*ToolResult\.is_error\*\*: `bool = False`/);
  });

  it('action= values and the companion keywords of a decision', async () => {
    const block = await hoverAt(cayu, CAYU, '"block"', 2);
    assert.match(block, /"block"`\*\* — BeforeToolCallDecision/);
    assert.match(block, /Requires `block_reason`/);
    const reason = await hoverAt(cayu, CAYU, 'block_reason=');
    assert.match(reason, /BeforeToolCallDecision\.block_reason\*\*: `str \| None`/);
    assert.match(reason, /action="block"/);
    const modified = await hoverAt(cayu, CAYU, 'modified_result=');
    assert.match(modified, /AfterToolCallDecision\.modified_result\*\*: `ToolResult \| None`/);
    assert.match(await hoverAt(cayu, CAYU, 'action="modify"'), /pass_through.*\n.*modify/s);
  });

  it('completion after `context.` lists the properties with their docs', async () => {
    const text = CAYU.replace('if context.tool_name ==', 'if context.t');
    const v = await c.change(cayu, [{ text }]);
    await c.waitFor(cayu, (p) => p.version === v);
    const doc = TextDocument.create(cayu, 'python', 1, text);
    const r = await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri: cayu },
      position: doc.positionAt(text.indexOf('context.t') + 'context.t'.length),
    });
    const items = (Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[];
    const tool = items.find((i) => i.label === 'tool_name');
    assert.ok(tool, JSON.stringify(items.map((i) => i.label)));
    assert.match(String(tool.documentation), /name of the tool/);
  });

  it('a model_copy(update={…}) key hovers as the payload field it updates', async () => {
    const text = await hoverAt(mantle, MANTLE, '"text"', 2);
    assert.match(text, /\*\*ModelResponsePayload\.text\*\*/);
  });
});
