// Untrusted workspace: the workspace values of restricted settings are not used
// (package.json restrictedConfigurations). hooksmith.extraAgentRoots could point discovery at
// `/` (a minute of scanning, a gigabyte of memory); hooksmith.pythonPath names what would run.
'use strict';
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const h = require('./helpers');

describe('restricted settings (untrusted workspace)', function () {
  this.timeout(180000);
  before(() => h.activate());

  it('ignores workspace values of hooksmith.extraAgentRoots and hooksmith.pythonPath', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    // Outside the workspace, where no file watcher looks: only an extra root would make the server
    // read this module (a dot-folder inside it could still reach the server through a watcher event).
    const extraRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hooksmith-extra-agent-'));
    const file = path.join(extraRoot, 'hooks.py');
    await h.writeFile(
      file,
      'from rasa.mantle.hooks import on_turn_started\n\n\n@on_turn_started\nasync def no_parens(payload) -> None:\n    return None\n',
    );
    // The workspace's own settings file, as a cloned repository would bring it; hooksmith.rules
    // beside them (not restricted) shows the file was read.
    const settingsFile = h.ws('.vscode', 'settings.json');
    const changed = new Promise((resolve) => {
      const sub = vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hooksmith')) resolve(sub.dispose());
      });
    });
    await h.writeFile(
      settingsFile,
      JSON.stringify({
        'hooksmith.extraAgentRoots': [extraRoot],
        'hooksmith.pythonPath': '/nowhere/python3',
        'hooksmith.rules': { 'not-wired': false },
      }),
    );
    try {
      await Promise.race([changed, new Promise((r) => setTimeout(r, 20000))]);
      const now = vscode.workspace.getConfiguration('hooksmith');
      assert.deepStrictEqual(now.get('rules'), { 'not-wired': false }, 'the workspace settings were read');
      assert.deepStrictEqual(now.get('extraAgentRoots'), []);
      assert.strictEqual(now.get('pythonPath'), '');
      // The server re-read its settings after the change and rescanned: nothing for the module.
      await new Promise((r) => setTimeout(r, 8000));
      assert.deepStrictEqual(h.codeLines(h.ours(vscode.Uri.file(file))), []);
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.file(settingsFile));
      fs.rmSync(extraRoot, { recursive: true, force: true });
    }
  });
});
