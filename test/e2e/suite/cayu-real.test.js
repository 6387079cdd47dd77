// Real-engine mode in the editor (#29): hooksmith.pythonPath names an interpreter with cayu 0.3.0
// installed (the tests' 'cayu-0.3' environment), so Simulate Turn plays the Cayu example
// conversation through the installed runtime and the timeline says so ("Cayu played by cayu 0.3.0
// runtime"), pictured. Skipped, with the reason, where that environment does not import it.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('real-engine mode: the timeline names the cayu runtime', function () {
  this.timeout(240000);
  const config = () => vscode.workspace.getConfiguration('hooksmith');
  let scenario;
  let agent;
  before(async function () {
    // The tests' 'cayu-0.3' environment (npm run test:env): used only where it imports cayu 0.3.0.
    const found = h
      .repoModule('test/python-envs.ts')
      .pythonWith(['cayu'], { envs: ['cayu-0.3'], onlyEnvs: true, version: { dist: 'cayu', is: '0.3.0' } });
    if (!found.python) {
      console.log(`[e2e] real-engine e2e skipped: ${found.skip}`);
      this.skip();
    }
    const python = found.python;
    await h.closeAll();
    await h.activate();
    agent = h.ws('cayu-agent');
    fs.cpSync(path.join(e2e.config.repoRoot, 'examples', 'cayu-agent'), agent, { recursive: true });
    scenario = path.join(agent, 'support.scenario.yaml');
    await config().update('pythonPath', python, vscode.ConfigurationTarget.Workspace);
  });
  after(async () => {
    await config().update('pythonPath', undefined, vscode.ConfigurationTarget.Workspace);
    // The copied agent sits inside the shared workspace's agent: later suites must not meet it.
    if (agent) fs.rmSync(agent, { recursive: true, force: true });
  });

  it('Simulate Turn: the runtime plays the conversation; the timeline names "cayu 0.3.0 runtime"', async () => {
    const result = await vscode.commands.executeCommand('hooksmith.simulateTurn', vscode.Uri.file(scenario));
    assert.ok(result, 'a SimulationResult');
    assert.strictEqual(result.playedBy, 'cayu 0.3.0 runtime');
    // The quota hook is one object for the app: the third call of the conversation is blocked.
    assert.deepStrictEqual(
      result.toolResults.map((t) => [t.turn, t.tool_name, t.event]),
      [
        [1, 'lookup_customer', 'tool.call.completed'],
        [2, 'list_orders', 'tool.call.completed'],
        [2, 'list_invoices', 'tool.call.blocked'],
      ],
    );
    const shown = await e2e.waitFor(
      async () => {
        const s = await vscode.commands.executeCommand('hooksmith.lastSimulation');
        return s && s.html && s.html.includes('data-turn="2"') ? s : undefined;
      },
      { timeout: h.LONG, what: 'the timeline of the conversation' },
    );
    assert.match(shown.html, /Cayu played by <b>cayu 0\.3\.0 runtime<\/b>/);
    await vscode.commands.executeCommand('workbench.action.joinAllGroups');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    if (!e2e.config.screenshots) return;
    const file = path.join(h.scratch('shots'), 'cayu-real-timeline.png');
    await new Promise((r) => setTimeout(r, 2500)); // the webview's HTML paints after the panel opens
    await e2e.waitFor(async () => (await e2e.screenshot(file)) && fs.statSync(file).size > 20000, {
      timeout: h.LONG,
      interval: 2000,
      what: 'a screenshot with the timeline',
    });
    console.log(`[e2e] real-engine timeline screenshot ${file} (${fs.statSync(file).size} bytes)`);
  });
});
