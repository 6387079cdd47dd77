// Proves the harness: a real VS Code (>= 1.139), the workspace open, and the
// Hooksmith extension activating when its build exists.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');

/** Compares dotted versions numerically: '1.139.1' >= '1.139'. */
function atLeast(version, min) {
  const a = version.split(/[.-]/).map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < b.length; i++) {
    if ((a[i] || 0) !== b[i]) return (a[i] || 0) > b[i];
  }
  return true;
}

describe('e2e harness smoke', () => {
  it('runs in a real VS Code >= 1.139', () => {
    assert.ok(atLeast(vscode.version, '1.139'), `vscode.version is ${vscode.version}`);
  });

  it('has the workspace folder open', () => {
    const folders = vscode.workspace.workspaceFolders || [];
    assert.strictEqual(folders.length, 1, 'exactly one workspace folder');
    const dir = folders[0].uri.fsPath;
    assert.ok(fs.statSync(dir).isDirectory(), `${dir} is a folder on disk`);
    if (e2e.config.runDir) {
      assert.strictEqual(
        path.dirname(dir),
        e2e.config.runDir,
        'the launcher opened its own copy of the workspace',
      );
    }
  });

  it('matches the workspace trust the launcher asked for', () => {
    assert.strictEqual(vscode.workspace.isTrusted, e2e.config.pass !== 'untrusted');
  });

  it('takes a page screenshot on request (code-server launcher)', async function () {
    if (!e2e.config.screenshots) return this.skip();
    const file = path.join(e2e.config.runDir, 'smoke.png');
    assert.strictEqual(await e2e.screenshot(file), true);
    const png = fs.readFileSync(file);
    assert.strictEqual(png.subarray(1, 4).toString(), 'PNG');
    assert.ok(png.length > 10000, `a real picture, not a blank one (${png.length} bytes)`);
  });

  it('activates the Hooksmith extension when it is built', async function () {
    const ext = e2e.extension();
    if (e2e.config.extensionMode === 'vsix') {
      assert.ok(ext, `${e2e.config.extensionId} is installed from the .vsix`);
      assert.notStrictEqual(
        path.resolve(ext.extensionPath),
        path.resolve(e2e.config.repoRoot),
        'the extension comes from the installed .vsix, not the repo folder',
      );
    }
    if (!ext) return this.skip(); // dev mode without a package.json at the repo root: nothing to activate
    const main = ext.packageJSON.main && path.join(ext.extensionPath, ext.packageJSON.main);
    if (main && !fs.existsSync(main) && !fs.existsSync(main + '.js')) {
      console.log(`[e2e] ${main} is not built yet; not activating`);
      return this.skip();
    }
    await ext.activate();
    assert.ok(ext.isActive, `${e2e.config.extensionId} is active`);
  });
});
