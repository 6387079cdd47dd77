// Runs in the untrusted pass (workspace trust left on, the folder not trusted):
// proves that pass really is untrusted, and that Hooksmith still activates there
// (it declares limited support for untrusted workspaces).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');

describe('e2e harness smoke (untrusted workspace)', () => {
  it('opens the workspace untrusted', () => {
    assert.strictEqual(e2e.config.pass, 'untrusted');
    assert.strictEqual(vscode.workspace.isTrusted, false);
    assert.strictEqual((vscode.workspace.workspaceFolders || []).length, 1);
  });

  it('still activates the Hooksmith extension when it is built', async function () {
    const ext = e2e.extension();
    const main = ext && ext.packageJSON.main && path.join(ext.extensionPath, ext.packageJSON.main);
    if (!ext || (main && !fs.existsSync(main) && !fs.existsSync(main + '.js'))) return this.skip();
    await ext.activate();
    assert.ok(ext.isActive);
  });
});
