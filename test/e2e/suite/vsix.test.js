// The packaged extension (launcher `--vsix hooksmith.vsix`): installed into the run's
// extensions folder, it activates from there (not the repo) and its bundled server works.
// Skipped when the suite tests the repo folder (the default).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const e2e = require('./harness');
const h = require('./helpers');

describe('packaged .vsix', function () {
  this.timeout(180000);
  before(function () {
    if (e2e.config.extensionMode !== 'vsix') this.skip();
  });

  it('activates from the extensions folder, not the repo', async () => {
    const ext = e2e.extension();
    assert.ok(ext, `${e2e.config.extensionId} is installed`);
    const dir = path.resolve(ext.extensionPath);
    assert.notStrictEqual(dir, path.resolve(e2e.config.repoRoot), 'not the repo folder');
    // `code --install-extension` unpacks it as <extensions dir>/<publisher>.<name>-<version>.
    assert.strictEqual(path.basename(path.dirname(dir)), 'extensions', `${dir} is in an extensions folder`);
    assert.ok(
      path.basename(dir).startsWith(`${e2e.config.extensionId}-${ext.packageJSON.version}`),
      `${dir} is the installed package`,
    );
    assert.ok(
      fs.existsSync(path.join(dir, 'dist/extension.js')) && fs.existsSync(path.join(dir, 'dist/server.js')),
      'the bundles are in the package',
    );
    const api = await h.activate();
    assert.ok(ext.isActive);
    assert.ok(api.client && api.client.isRunning(), 'its language server runs');
  });

  it('produces a diagnostic for a faulty module', async () => {
    const root = h.copyExampleOutside('faulty-agent', 'faulty-vsix');
    const doc = await h.open(path.join(root, 'hooks/registration.py'));
    const diags = await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'missing-parentheses'));
    assert.ok(h.codeLines(diags).includes('missing-parentheses@22'), h.codeLines(diags).join());
  });
});
