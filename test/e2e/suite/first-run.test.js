// The first "Run Hook" of a hook whose point has no saved payload (#23 item 5): Hooksmith writes
// the catalogue's sample and says so in the run panel, opens the payload beside it, lists the
// point's saved payloads to re-run with, and edits a top-level field from the panel.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const shot = (name) => path.join(e2e.config.repoRoot, 'test-output', `first-run-${name}.png`);

describe('the first Run Hook of a point with no saved payload', function () {
  this.timeout(180000);
  let root;
  before(async () => {
    await h.closeAll();
    await h.activate();
    // buggy-agent's guard_delete (a tool_call guard) and no saved tool_call payload.
    root = h.copyExample('buggy-agent', 'first-run');
  });
  after(async () => {
    await h.closeAll();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('says it ran the catalogue sample, opens it beside the panel, re-runs with a picked or edited payload', async () => {
    const file = path.join(root, 'hooks', 'tool_hooks.py');
    await h.open(file);
    const sample = path.join(root, '.hooksmith', 'payloads', 'tool_call.json');
    assert.ok(!fs.existsSync(sample), 'no tool_call sample yet');
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'guard_delete',
    });
    assert.ok(result, 'the command returned a RunResult');
    assert.ok(fs.existsSync(sample), 'the catalogue sample was written');
    await h.settledScreenshot(shot('sample'));
    const panel = await vscode.commands.executeCommand('hooksmith.runPanelHtml');
    assert.match(panel, /Ran with the catalogue's sample payload/);
    assert.match(panel, /edit it to match your hook/);
    assert.match(panel, /data-action="editPayload"/);
    // The payload is open beside the panel.
    const opened = await e2e.waitFor(
      () => vscode.window.visibleTextEditors.find((ed) => ed.document.uri.fsPath === sample),
      { timeout: h.LONG, what: 'tool_call.json open in an editor' },
    );
    assert.ok(opened);

    // A second saved payload is offered in the panel; picking it re-runs with it.
    const deleting = JSON.parse(fs.readFileSync(sample, 'utf8'));
    deleting.tool_name = 'delete_account';
    const other = path.join(root, '.hooksmith', 'payloads', 'tool_call-delete.json');
    fs.writeFileSync(other, JSON.stringify(deleting, null, 2));
    await vscode.commands.executeCommand('hooksmith.rerunLastHook');
    const html = await vscode.commands.executeCommand('hooksmith.runPanelHtml');
    assert.match(
      html,
      /<option value="[^"]*tool_call-delete\.json"/,
      'the panel lists the new saved payload',
    );
    assert.match(
      html,
      /catalogue's sample payload<\/strong>[^<]*<code>tool_call<\/code>[^<]*<code>[^<]*<\/code>, unedited/,
    );
    const picked = await vscode.commands.executeCommand('hooksmith.runPanelMessage', {
      type: 'pickPayload',
      file: other,
    });
    assert.strictEqual(picked.outcome, 'returned', JSON.stringify(picked.error));
    assert.strictEqual(picked.inputPayload.tool_name, 'delete_account');
    const pickedHtml = await vscode.commands.executeCommand('hooksmith.runPanelHtml');
    assert.doesNotMatch(pickedHtml, /catalogue's sample payload/, 'an edited payload is no catalogue sample');
    assert.match(pickedHtml, /<option value="[^"]*tool_call-delete\.json" selected>/);
    assert.match(pickedHtml, /data-key="tool_name" data-kind="string" value="delete_account"/);

    // An edited field is written to the file and the hook re-runs.
    const edited = await vscode.commands.executeCommand('hooksmith.runPanelMessage', {
      type: 'editField',
      key: 'tool_name',
      value: 'delete-account',
    });
    // The guard's misspelt name now matches: it asks the model to retry.
    assert.strictEqual(edited.outcome, 'retry-model', JSON.stringify(edited.error));
    assert.strictEqual(JSON.parse(fs.readFileSync(other, 'utf8')).tool_name, 'delete-account');
    await h.settledScreenshot(shot('edited'));

    // "Edit payload" opens the payload file.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('hooksmith.runPanelMessage', { type: 'editPayload' });
    await e2e.waitFor(() => vscode.window.visibleTextEditors.find((ed) => ed.document.uri.fsPath === other), {
      timeout: h.LONG,
      what: 'tool_call-delete.json open after Edit payload',
    });
  });
});
