// Real-engine mode in the editor (#29): hooksmith.pythonPath names an interpreter where the cayu
// 0.3.0 release is importable (a venv whose .pth adds ../shared/engines/cayu-0.3.0), so Simulate
// Turn plays the Cayu example conversation through the installed runtime and the timeline says so
// ("Cayu played by cayu 0.3.0 runtime"), pictured. Skipped where the release is absent.
'use strict';
const assert = require('assert');
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('real-engine mode: the timeline names the cayu runtime', function () {
  this.timeout(240000);
  const config = () => vscode.workspace.getConfiguration('hooksmith');
  const release = path.resolve(e2e.config.repoRoot, '..', 'shared', 'engines', 'cayu-0.3.0');
  let scenario;
  let agent;
  before(async function () {
    if (!fs.existsSync(path.join(release, 'cayu'))) this.skip();
    await h.closeAll();
    await h.activate();
    const dir = h.scratch('cayu-real');
    const venv = path.join(dir, 'venv');
    // cayu needs pydantic: the first interpreter that has it (the editor's PATH may lack pyenv's).
    // (HOOKSMITH_CAYU_PYTHON names one; pyenv's versions are looked at directly: no shims on PATH.)
    const pyenv = path.join(process.env.PYENV_ROOT || path.join(os.homedir(), '.pyenv'), 'versions');
    const versions = fs.existsSync(pyenv)
      ? fs.readdirSync(pyenv).map((v) => path.join(pyenv, v, 'bin', 'python3'))
      : [];
    const base = [process.env.HOOKSMITH_CAYU_PYTHON, 'python3', ...versions]
      .filter(Boolean)
      .find((p) => spawnSync(p, ['-c', 'import pydantic'], { encoding: 'utf8' }).status === 0);
    if (!base) {
      console.log('[e2e] no interpreter with pydantic for the cayu release: real-engine e2e skipped');
      this.skip();
    }
    const made = spawnSync(base, ['-m', 'venv', '--without-pip', '--system-site-packages', venv], {
      encoding: 'utf8',
    });
    assert.strictEqual(made.status, 0, made.stderr);
    const python = path.join(venv, 'bin', 'python');
    const site = spawnSync(python, ['-c', 'import site; print(site.getsitepackages()[0])'], {
      encoding: 'utf8',
    }).stdout.trim();
    // cayu's imports need httpx and jsonschema: Debian's, where the interpreter lacks them.
    fs.writeFileSync(path.join(site, 'cayu-release.pth'), `${release}\n/usr/lib/python3/dist-packages\n`);
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
