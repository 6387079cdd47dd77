// The Testing view and the "Fuzz hook" lens run hooks: in a workspace that is not trusted there
// is no Hooksmith test controller (its commands are not registered) and no fuzz lens.
'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('Testing view in restricted mode', function () {
  this.timeout(120000);
  before(async () => {
    await h.activate();
  });

  it('has no test controller and no Fuzz hook lens; the fuzz command runs nothing', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    const all = await vscode.commands.getCommands(true);
    assert.ok(!all.includes('hooksmith.testItems'), 'the test controller is not registered');
    assert.ok(!all.includes('hooksmith.lastTestRun'));
    assert.ok(!all.includes('hooksmith.openTestTimeline'));
    const file = h.ws('hooks/tool_hooks.py');
    const doc = await h.open(file);
    // The hooks of the file are known (their restricted-mode lens is there), yet no Fuzz lens.
    const lenses = await e2e.waitFor(
      async () => {
        const l = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri);
        return l && l.some((x) => x.command && /Trust this folder to run hooks/.test(x.command.title))
          ? l
          : undefined;
      },
      { timeout: h.LONG, interval: 500, what: "the hooks' restricted-mode lenses" },
    );
    assert.ok(!lenses.some((l) => l.command && l.command.title === 'Fuzz hook'));
    // Called anyway (a stale keybinding, another extension): no run, nothing written.
    const handler = doc.getText().match(/^async def (\w+)/m)[1];
    const report = await vscode.commands.executeCommand('hooksmith.fuzzHook', { file, handler, save: true });
    assert.strictEqual(report, undefined);
    assert.strictEqual(await vscode.commands.executeCommand('hooksmith.lastFuzzReport'), undefined);
    assert.ok(!fs.existsSync(h.ws('.hooksmith/payloads', `fuzz-${handler}.json`)));
  });
});
