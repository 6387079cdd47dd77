// The Testing view and the "Fuzz hook" lens run hooks: in a workspace that is not trusted there
// is no Hooksmith test controller (its commands are not registered) and no fuzz lens.
'use strict';
const assert = require('assert');
const vscode = require('vscode');
const h = require('./helpers');

describe('Testing view in restricted mode', function () {
  this.timeout(120000);
  before(async () => {
    await h.activate();
  });

  it('has no test controller and no Fuzz hook lens', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    const all = await vscode.commands.getCommands(true);
    assert.ok(!all.includes('hooksmith.testItems'), 'the test controller is not registered');
    assert.ok(!all.includes('hooksmith.lastTestRun'));
    const doc = await h.open(h.ws('hooks/tool_hooks.py'));
    const lenses = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri);
    assert.ok(!lenses.some((l) => l.command && l.command.title === 'Fuzz hook'));
  });
});
