// RuntimeHook.execution_profile_identity (cayu 0.3 and later, runtime/hooks.py:424-428) and
// RuntimeHook.name: hover on the overriding property and on `self.<property>`, completion of
// `def <prefix>` in a hook class body (with its @property) and of `self.` (#29 item 9). Over stdio.
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

const CAYU = `from cayu import BeforeToolCallDecision, ExecutionProfileBehaviorIdentity, RuntimeHook


class Guard(RuntimeHook):
    @property
    def execution_profile_identity(self):
        return ExecutionProfileBehaviorIdentity(name="guard", behavior_version="1", implementation_version="1.0.3")

    async def before_tool_call(self, context):
        if self.execution_profile_identity is None:
            return BeforeToolCallDecision(action="block", block_reason="no identity")
        return None


class Plain:
    def execution_profile_identity(self):
        return None
`;

describe('RuntimeHook properties: hover and completion', () => {
  const ws = workspace({ 'app/runtime_hooks.py': CAYU });
  let c: LspClient;
  let uri: string;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
    uri = await c.open(ws.path('app/runtime_hooks.py'), CAYU);
    await c.waitFor(uri, (p) => p.version === 1);
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  async function hoverAt(text: string, needle: string, from = 0): Promise<string> {
    const doc = TextDocument.create(uri, 'python', 1, text);
    const position = doc.positionAt(text.indexOf(needle, from) + 1);
    const h = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    return h ? (h.contents as MarkupContent).value : '';
  }

  async function complete(text: string, needle: string): Promise<CompletionItem[]> {
    const v = await c.change(uri, [{ text }]);
    await c.waitFor(uri, (p) => p.version === v);
    const doc = TextDocument.create(uri, 'python', 1, text);
    const r = await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: doc.positionAt(text.indexOf(needle) + needle.length),
    });
    return (Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[];
  }

  it('hovers the overriding property and self.execution_profile_identity; not in a class that is no hook', async () => {
    const def = await hoverAt(CAYU, 'execution_profile_identity(self)');
    assert.match(
      def,
      /\*\*RuntimeHook\.execution_profile_identity\*\*: `ExecutionProfileBehaviorIdentity \| None` — property \(cayu 0\.3 and later\)/,
    );
    assert.match(def, /when the hook is registered/);
    const use = await hoverAt(CAYU, 'execution_profile_identity is None');
    assert.match(use, /RuntimeHook\.execution_profile_identity/);
    const plain = await hoverAt(CAYU, 'execution_profile_identity(self)', CAYU.indexOf('class Plain'));
    assert.doesNotMatch(plain, /RuntimeHook\.execution_profile_identity/);
  });

  it('completes `def exe` in a hook class body with its @property, and `self.` in a hook method', async () => {
    const text = CAYU.replace(
      '    async def before_tool_call',
      '    def exe\n\n    async def before_tool_call',
    );
    const items = await complete(text, 'def exe');
    const item = items.find((i) => i.label === 'execution_profile_identity');
    assert.ok(item, JSON.stringify(items.map((i) => i.label)));
    assert.match(item.detail ?? '', /ExecutionProfileBehaviorIdentity \| None \(cayu 0\.3 and later\)/);
    const edit = item.textEdit as { newText: string };
    assert.match(edit.newText, /^@property\n {4}def execution_profile_identity\(self\):/);
    const selfText = CAYU.replace('if self.execution_profile_identity is None:', 'if self.exe');
    const selfItems = await complete(selfText, 'self.exe');
    assert.ok(
      selfItems.some((i) => i.label === 'execution_profile_identity'),
      JSON.stringify(selfItems.map((i) => i.label)),
    );
  });
});
