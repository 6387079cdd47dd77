// A hook module that fails to load (#23 item 4), in a real VS Code over real python3: the run
// panel shows the exception and its traceback a frame a line (the user's frames linked, Python's
// dimmed), a frame link opens the file at its line, and a "hooksmith" load-error diagnostic sits
// on the failing line (and on the hook file's import of it) until the module loads again.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const HOOKS = [
  'from rasa.mantle.hooks import ToolCallPayload, on_tool_call',
  'import agent_settings',
  '',
  '',
  '@on_tool_call()',
  'async def audit_settings(call: ToolCallPayload) -> None:',
  '    return None',
  '',
].join('\n');

describe('a hook module that fails to load', function () {
  this.timeout(180000);
  let root;
  before(async () => {
    await h.closeAll();
    await h.activate();
    root = h.copyExample('buggy-agent', 'load-error');
    fs.writeFileSync(
      path.join(root, 'agent_settings.py'),
      'import os\n\nTOKEN = os.environ["HOOKSMITH_NO_SUCH_VARIABLE"]\n',
    );
    fs.writeFileSync(path.join(root, 'hooks', 'settings_hooks.py'), HOOKS);
  });
  after(async () => {
    await h.closeAll();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('formats the traceback, links its frames, marks the failing line, and clears the mark once it loads', async () => {
    const file = path.join(root, 'hooks', 'settings_hooks.py');
    const settings = path.join(root, 'agent_settings.py');
    await h.open(file);
    const payload = JSON.parse(fs.readFileSync(h.ws('.hooksmith/payloads/tool_call.json'), 'utf8'));
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'audit_settings',
      payload,
    });
    assert.strictEqual(result, undefined, 'a module that fails to load gives no result');
    const last = await vscode.commands.executeCommand('hooksmith.lastHookRun');
    assert.strictEqual(last.refusal.loadError.type, 'KeyError');
    const html = await vscode.commands.executeCommand('hooksmith.runPanelHtml');
    assert.match(html, /<code class="tone-error">KeyError: &#39;HOOKSMITH_NO_SUCH_VARIABLE&#39;<\/code>/);
    assert.match(
      html,
      /<li class="user"><a href="#" class="frame mono" data-file="[^"]*agent_settings\.py" data-line="3"/,
    );
    assert.match(html, /<li class="lib">/);

    const marks = await e2e.waitFor(
      () => {
        const d = vscode.languages
          .getDiagnostics(vscode.Uri.file(settings))
          .filter((x) => x.code === 'load-error');
        return d.length ? d : undefined;
      },
      { timeout: h.LONG, what: 'the load-error diagnostic in agent_settings.py' },
    );
    assert.strictEqual(marks[0].source, 'hooksmith');
    assert.strictEqual(marks[0].range.start.line, 2);
    assert.strictEqual(marks[0].severity, vscode.DiagnosticSeverity.Error);
    assert.match(marks[0].message, /^KeyError: 'HOOKSMITH_NO_SUCH_VARIABLE' — the module fails to load here/);
    const own = vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((x) => x.code === 'load-error');
    assert.strictEqual(own.length, 1, 'the hook file marks its import of the failing module');
    assert.strictEqual(own[0].range.start.line, 1);

    // A frame link opens the file at its line.
    await vscode.commands.executeCommand('hooksmith.runPanelMessage', {
      type: 'open',
      file: settings,
      line: 3,
    });
    const editor = await e2e.waitFor(
      () => vscode.window.visibleTextEditors.find((ed) => ed.document.uri.fsPath === settings),
      { timeout: h.LONG, what: 'agent_settings.py open' },
    );
    assert.strictEqual(editor.selection.active.line, 2);
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'load-error.png'));

    // Fixed, the module loads: the marks go.
    fs.writeFileSync(settings, 'import os\n\nTOKEN = os.environ.get("HOOKSMITH_NO_SUCH_VARIABLE", "")\n');
    const again = await vscode.commands.executeCommand('hooksmith.rerunLastHook');
    assert.ok(again, JSON.stringify((await vscode.commands.executeCommand('hooksmith.lastHookRun')).refusal));
    assert.strictEqual(again.outcome, 'returned');
    assert.strictEqual(
      vscode.languages.getDiagnostics(vscode.Uri.file(settings)).filter((x) => x.code === 'load-error')
        .length,
      0,
    );
    assert.strictEqual(
      vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((x) => x.code === 'load-error').length,
      0,
    );
  });
});
