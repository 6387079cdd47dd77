// The Mantle API line in the editor (#25): hooksmith.pythonPath names a venv's interpreter whose
// rasa-pro (a fake, test/runtime/fixtures/fake-rasa-pro.ts) exports the newest docs' names. Run
// Hook, Simulate Turn and Scaffold Hook speak them as the language server does: a
// @modify_outgoing_message() hook runs (not refused as unknown imports), the simulated turn names
// the point outgoing_message, the scaffold writes the new decorator; hooksmith.mantle.apiLine
// rasa-pro-3.21 turns it around.
'use strict';
const assert = require('assert');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const NEW_HOOK = `from rasa.mantle.hooks import OutgoingMessagePayload, modify_outgoing_message


@modify_outgoing_message()
async def shout(payload: OutgoingMessagePayload) -> OutgoingMessagePayload:
    return payload.model_copy(update={"text": payload.text.upper()})
`;

describe('the Mantle API line of the installed rasa-pro, in the editor', function () {
  this.timeout(240000);
  const config = () => vscode.workspace.getConfiguration('hooksmith');
  let api;
  before(async () => {
    await h.closeAll();
    api = await h.activate();
    const dir = h.scratch('engine-line');
    // The interpreter with rasa-pro installed: a venv whose site-packages holds the fake.
    const venv = path.join(dir, 'venv');
    const made = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { encoding: 'utf8' });
    assert.strictEqual(made.status, 0, made.stderr);
    const python = path.join(venv, 'bin', 'python');
    const site = spawnSync(python, ['-c', 'import site; print(site.getsitepackages()[0])'], {
      encoding: 'utf8',
    });
    h.repoModule('test/runtime/fixtures/fake-rasa-pro.ts').makeFakeRasaPro(
      site.stdout.trim(),
      '3.23.0',
      'newest',
    );
    fs.mkdirSync(h.ws('line-agent'), { recursive: true });
    fs.writeFileSync(h.ws('line-agent/payload.json'), JSON.stringify({ text: 'hi', sender_id: 'u1' }));
    fs.writeFileSync(
      h.ws('line-agent/turn.scenario.yaml'),
      'user: hello\ncompletions:\n  - text: all done\n',
    );
    await h.writeFile(h.ws('line-agent/hooks.py'), NEW_HOOK);
    await config().update('pythonPath', python, vscode.ConfigurationTarget.Workspace);
  });
  after(async () => {
    await config().update('pythonPath', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('mantle.apiLine', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('the server, Run Hook and Simulate Turn accept @modify_outgoing_message() and run it', async () => {
    const file = h.ws('line-agent/hooks.py');
    // Opened: the server reads it now (a watcher's create event may come late in code-server).
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    await h.waitForHooks(
      api,
      (r) => r.agents.some((a) => a.hooks.some((x) => x.file === file && x.handler === 'shout')),
      {
        what: 'the shout hook in the hooks list',
      },
    );
    // The server judges by the interpreter's line: no unknown-import for the new names.
    await e2e.waitFor(
      () =>
        !vscode.languages.getDiagnostics(vscode.Uri.file(file)).some((d) => h.codeOf(d) === 'unknown-import'),
      { timeout: h.LONG, what: 'no unknown-import on the new names' },
    );
    // The CodeLens names the point as the line does.
    const lenses = await e2e.waitFor(
      async () => {
        const all = await vscode.commands.executeCommand(
          'vscode.executeCodeLensProvider',
          vscode.Uri.file(file),
        );
        return all.some((l) => l.command && /· modify/.test(l.command.title)) && all;
      },
      { timeout: h.LONG, what: 'the CodeLens of shout' },
    );
    const facts = lenses.map((l) => l.command && l.command.title).find((t) => /· modify/.test(t));
    assert.match(facts, /^outgoing_message · modify · 500 ms$/);
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'shout',
      payloadFile: h.ws('line-agent/payload.json'),
    });
    assert.ok(result, 'the command returned a RunResult (not refused)');
    assert.strictEqual(result.outcome, 'returned', JSON.stringify(result.error));
    assert.strictEqual(result.payload.text, 'HI');
    assert.strictEqual(result.point, 'outgoing_message', 'the point as the line names it');
    const sim = await vscode.commands.executeCommand(
      'hooksmith.simulateTurn',
      vscode.Uri.file(h.ws('line-agent/turn.scenario.yaml')),
    );
    assert.ok(sim, 'the turn was simulated');
    const fired = sim.events.find((e) => e.point === 'outgoing_message' && e.hook);
    assert.ok(fired, `an outgoing_message event ran shout: ${sim.events.map((e) => e.point).join(', ')}`);
    assert.strictEqual(fired.outcome, 'returned');
    assert.match(JSON.stringify(sim.transcript), /ALL DONE/);
    if (e2e.config.screenshots)
      await h.settledScreenshot(path.join(h.scratch('shots'), 'engine-line-simulate.png'));
  });

  it('Scaffold Hook writes the line’s decorator and payload class', async () => {
    const file = h.ws('line-agent/scaffolded.py');
    fs.writeFileSync(file, '');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await vscode.commands.executeCommand('hooksmith.scaffoldHook', {
      target: 'modify_outgoing_message',
      force: true,
    });
    const text = editor.document.getText();
    assert.match(text, /@modify_outgoing_message\(\)/);
    assert.match(text, /OutgoingMessagePayload/);
    assert.doesNotMatch(text, /outgoing_text|OutgoingTextPayload/);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await h.closeAll();
  });

  it("hooksmith.mantle.apiLine rasa-pro-3.21 overrides the interpreter's line: Run Hook refuses the new names", async () => {
    await config().update('mantle.apiLine', 'rasa-pro-3.21', vscode.ConfigurationTarget.Workspace);
    const file = h.ws('line-agent/hooks.py');
    const result = await vscode.commands
      .executeCommand('hooksmith.runHook', {
        file,
        handler: 'shout',
        payloadFile: h.ws('line-agent/payload.json'),
      })
      .then(
        (r) => r,
        (err) => err,
      );
    assert.ok(!result || result instanceof Error || result.outcome !== 'returned', JSON.stringify(result));
    await config().update('mantle.apiLine', undefined, vscode.ConfigurationTarget.Workspace);
    const again = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'shout',
      payloadFile: h.ws('line-agent/payload.json'),
    });
    assert.strictEqual(again && again.outcome, 'returned', 'back on the installed line, it runs again');
  });
});
