// Issue 14, item 6: restricted mode explains itself — the status bar says "restricted" and
// offers to trust the folder, and where "▶ Run hook" would be the lens says
// "Trust this folder to run hooks".
'use strict';
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('issue 14: restricted mode', function () {
  this.timeout(180000);
  let api;
  before(async () => {
    api = await h.activate();
  });

  it('the status bar shows restricted mode and the lens offers to trust the folder', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    const doc = await h.open(h.ws('hooks/tool_hooks.py'));
    await h.waitForHooks(api, (r) => r.agents.some((a) => a.hooks.some((x) => x.handler === 'guard_orders')));
    const status = await e2e.waitFor(
      () => {
        const s = api.statusBar();
        return s.text.includes('restricted') ? s : undefined;
      },
      { timeout: h.LONG, what: 'the restricted status' },
    );
    assert.match(status.text, /^\$\(shield\) Hooksmith: \d+ hooks · restricted$/);
    assert.match(status.tooltip, /needs a trusted folder/);
    assert.strictEqual(status.command, 'workbench.trust.manage');
    const lenses = await e2e.waitFor(
      async () => {
        const l = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri)) || [];
        return l.length ? l : undefined;
      },
      { timeout: h.LONG, what: 'lenses in an untrusted folder' },
    );
    const titles = lenses.map((l) => l.command && l.command.title);
    assert.ok(titles.includes('$(shield) Trust this folder to run hooks'), JSON.stringify(titles));
    assert.ok(!titles.includes('▶ Run hook'), JSON.stringify(titles));
    assert.ok(!titles.includes('$(debug-alt) Debug hook'), 'no Debug lens without trust');
    const trust = lenses.find((l) => l.command.title.includes('Trust'));
    assert.strictEqual(trust.command.command, 'workbench.trust.manage');
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'editor-restricted.png'));
  });
});
