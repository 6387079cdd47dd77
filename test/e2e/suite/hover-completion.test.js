// Hover and completion through VS Code's provider commands, on the clean example agent.
'use strict';
const assert = require('assert');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

/** Position of the first `needle` in `doc` (+ `delta` characters). */
function at(doc, needle, delta = 0) {
  const i = doc.getText().indexOf(needle);
  assert.ok(i >= 0, `"${needle}" in ${doc.uri.fsPath}`);
  return doc.positionAt(i + delta);
}

describe('hover and completion', function () {
  this.timeout(180000);
  let api;
  before(async () => {
    api = await h.activate();
  });
  after(() => h.closeAll());

  it('hover on @modify_tool_call shows its point, lane, fail policy and timeout', async () => {
    const doc = await h.open(h.ws('hooks/tool_hooks.py'));
    const pos = at(doc, '@modify_tool_call()', 3);
    const text = await e2e.waitFor(
      async () => {
        const t = h.hoverText(
          await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, pos),
        );
        return t.includes('modify_tool_call') ? t : undefined;
      },
      { timeout: h.LONG, what: 'a Hooksmith hover on @modify_tool_call' },
    );
    assert.match(text, /\*\*@modify_tool_call\*\*/);
    assert.match(text, /\| Point \| `tool_call` \|/);
    assert.match(text, /modify lane/);
    assert.match(text, /\| Timeout \| \d+ ms \(default\) \|/);
    assert.match(text, /\| Fail policy \| fail-/);
  });

  it('completion after @ offers the decorators', async () => {
    const file = h.ws('hooks/complete_me.py');
    await h.writeFile(file, 'from rasa.mantle.hooks import *\n\n\n@\n');
    const doc = await h.open(file);
    const pos = new vscode.Position(3, 1);
    const got = await e2e.waitFor(
      async () => {
        const l = h.labels(
          await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', doc.uri, pos, '@'),
        );
        return l.includes('modify_tool_call') ? l : undefined;
      },
      { timeout: h.LONG, what: 'modify_tool_call among the completions after @' },
    );
    for (const name of ['modify_tool_call', 'on_tool_call', 'modify_model_request', 'on_turn_started']) {
      assert.ok(got.includes(name), `${name} offered; got ${got.slice(0, 40).join(', ')}`);
    }
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.fs.delete(vscode.Uri.file(file));
  });

  it('completion after `call.` offers the payload fields of ToolCallPayload', async () => {
    const file = h.ws('hooks/complete_fields.py');
    const text = [
      'from rasa.mantle.hooks import ToolCallPayload, on_tool_call',
      '',
      '',
      '@on_tool_call()',
      'async def peek(call: ToolCallPayload) -> None:',
      '    call.',
      '',
    ].join('\n');
    await h.writeFile(file, text);
    const doc = await h.open(file);
    const pos = new vscode.Position(5, 9);
    const got = await e2e.waitFor(
      async () => {
        const l = h.labels(
          await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', doc.uri, pos, '.'),
        );
        return l.includes('tool_name') ? l : undefined;
      },
      { timeout: h.LONG, what: 'tool_name among the completions after call.' },
    );
    for (const f of ['tool_name', 'arguments', 'sender_id', 'model_copy'])
      assert.ok(got.includes(f), `${f} offered; got ${got.join(', ')}`);
    assert.ok(api.hooks(), 'the server answered the hooks list');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.fs.delete(vscode.Uri.file(file));
  });
});
