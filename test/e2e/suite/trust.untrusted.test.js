// Untrusted workspace: diagnostics still work (they run no user code), but running a hook
// or simulating a turn does not happen: no result, no panel.
'use strict';
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const h = require('./helpers');

describe('untrusted workspace', function () {
  this.timeout(180000);
  before(() => h.activate());

  it('still reports diagnostics for a faulty module', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    const root = h.copyExampleOutside('faulty-agent', 'faulty-untrusted');
    const doc = await h.open(path.join(root, 'hooks/registration.py'));
    // (no not-wired by default: rasa-pro 3.21 invokes every point)
    const want = [
      'invalid-timeout@37',
      'missing-parentheses@22',
      'sync-handler@28',
      'unknown-hook-point@17',
      'wrong-arity@33',
    ];
    await h
      .waitForOurs(doc.uri, (d) => h.codeLines(d).join() === want.join())
      .catch((err) => {
        assert.deepStrictEqual(h.codeLines(h.ours(doc.uri)), want);
        throw err;
      });
  });

  it('does not run a hook (hooksmith.runHook returns nothing, opens no panel)', async () => {
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file: h.ws('hooks/tool_hooks.py'),
      handler: 'guard_orders',
      payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
    });
    assert.strictEqual(result, undefined);
    assert.strictEqual(
      await vscode.commands.executeCommand('hooksmith.lastHookRun'),
      undefined,
      'no run was recorded',
    );
    assert.strictEqual(h.webviewTabs('hooksmith.runResult').length, 0);
  });

  it('does not simulate a turn (hooksmith.simulateTurn returns nothing, opens no panel)', async () => {
    const result = await vscode.commands.executeCommand(
      'hooksmith.simulateTurn',
      vscode.Uri.file(h.ws('order-pizza.scenario.yaml')),
    );
    assert.strictEqual(result, undefined);
    assert.strictEqual(h.webviewTabs('hooksmith.timeline').length, 0);
  });
});
