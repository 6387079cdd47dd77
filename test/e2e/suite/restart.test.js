// "Hooksmith: Restart Language Server": a new client comes up and answers again.
'use strict';
const assert = require('assert');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('restart the language server', function () {
  this.timeout(180000);

  it('brings a new client back that answers hooksmith/hooks and publishes diagnostics', async () => {
    const api = await h.activate();
    await h.waitForHooks(api);
    const before = api.client;
    assert.ok(before && before.isRunning(), 'a running client before');
    await vscode.commands.executeCommand('hooksmith.restartServer');
    const after = await e2e.waitFor(
      () => (api.client && api.client !== before && api.client.isRunning() ? api.client : undefined),
      { timeout: h.LONG, what: 'a new running language client' },
    );
    assert.strictEqual(before.isRunning(), false, 'the old client stopped');
    const answer = await after.sendRequest('hooksmith/hooks', {});
    const handlers = answer.agents.flatMap((a) => a.hooks.map((x) => x.handler));
    assert.ok(handlers.includes('guard_orders'), `the new server lists the agent's hooks: ${handlers}`);
    await h.waitForHooks(api, (r) => r.agents.some((a) => a.hooks.some((x) => x.handler === 'guard_orders')));
    // And it validates: a fresh problem in an open file is reported by the new server.
    const file = h.ws('hooks/after_restart.py');
    await h.writeFile(
      file,
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n@on_turn_started()\ndef sync_after_restart(payload: TurnStartedPayload) -> None:\n    return None\n',
    );
    const doc = await h.open(file);
    const diags = await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'sync-handler'));
    assert.deepStrictEqual(h.codeLines(diags), ['sync-handler@5']);
    // Leave the agent clean for the tests after this one (a sync handler stops a simulation).
    await h.closeAll();
    await vscode.workspace.fs.delete(vscode.Uri.file(file));
  });
});
