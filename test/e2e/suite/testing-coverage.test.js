// Run with Coverage (#32) in a real VS Code: the Testing view's Coverage profile runs the example
// agent's cases with coverage.py on, hands each hook module to VS Code's coverage API (the editor
// asks the details of an open file: its covered and missed lines are drawn in the gutter), and
// Test Results holds the hook and line tables. hooksmith.pythonPath points at an interpreter with
// coverage.py (the tests' 'tools' environment, else python3: decided by importing); none: skipped.
'use strict';
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

// The tests' 'tools' environment (npm run test:env), else python3: decided by importing.
const python = h.repoModule('test/python-envs.ts').pythonWith(['coverage'], { envs: ['tools'] }).python;

describe('Run with Coverage from the Testing view', function () {
  this.timeout(300000);
  before(async function () {
    if (!python) {
      console.log('[e2e] coverage: skipped: no Python with coverage.py (npm run test:env makes one)');
      this.skip();
    }
    await h.closeAll();
    await h.activate();
    await vscode.workspace
      .getConfiguration('hooksmith')
      .update('pythonPath', python, vscode.ConfigurationTarget.Workspace);
  });
  after(async () => {
    await vscode.commands.executeCommand('testing.coverage.close').then(undefined, () => undefined);
    await vscode.workspace
      .getConfiguration('hooksmith')
      .update('pythonPath', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await h.closeAll();
  });

  it("runs the cases with coverage: each hook module's covered and missed lines reach the editor", async () => {
    const file = h.ws('hooks/tool_hooks.py');
    await e2e.waitFor(async () => (await vscode.commands.executeCommand('hooksmith.testItems')).length > 0, {
      timeout: h.LONG,
      what: 'the cases in the Testing view',
    });
    await h.open(file);
    await vscode.commands.executeCommand('testing.coverageAll');
    const report = await e2e.waitFor(() => vscode.commands.executeCommand('hooksmith.lastCoverage'), {
      timeout: 240000,
      what: 'the coverage run',
    });
    assert.deepStrictEqual(report.problems, [], 'coverage.py measured');
    const tool = report.files.find((f) => f.file === file);
    assert.ok(tool, report.files.map((f) => f.file).join(', '));
    // guard_orders' first test line ran (the example's tool_call cases reach it).
    assert.ok(tool.covered.includes(26), `covered: ${tool.covered}`);
    assert.ok(tool.branches.total > 0, 'branches counted');
    // redact_pii's plain-text branch: no example case returns a non-JSON customer record.
    assert.ok(tool.missed.includes(46), `missed: ${tool.missed}`);
    // Only the agent's own files are measured: never Hooksmith's host or its shims.
    assert.ok(
      report.files.every((f) => f.file.startsWith(e2e.workspacePath())),
      JSON.stringify(report.files),
    );
    assert.ok(
      report.hooks.some((a) =>
        a.hooks.some((x) => x.hook === 'hooks/tool_hooks.py::guard_orders' && x.cases > 0),
      ),
    );
    // The hooks explorer marks exactly the hooks no case ran.
    const unexercised = report.hooks.flatMap((a) => a.hooks.filter((x) => !x.cases));
    const items = await e2e.waitFor(
      async () => {
        const all = await vscode.commands.executeCommand('hooksmith.explorer.hookItems');
        const marked = all.filter((i) => /Not(\s|&nbsp;)exercised/.test(i.tooltip));
        return marked.length === unexercised.length ? all : undefined;
      },
      { timeout: h.LONG, what: `${unexercised.length} hooks marked not exercised in the explorer` },
    );
    assert.ok(items.length > unexercised.length);
    if (!e2e.canDriveUi()) return;
    const editor = vscode.window.activeTextEditor;
    editor.revealRange(new vscode.Range(38, 0, 50, 0), vscode.TextEditorRevealType.InCenter);
    // VS Code asked the file's details (loadDetailedCoverage) and drew them in the gutter.
    const marks = await e2e.waitFor(
      () =>
        e2e.ui({
          op: 'eval',
          fn: '() => { const m = [...document.querySelectorAll(\'.monaco-editor .margin-view-overlays [class*="coverage"]\')].map((e) => e.className); return m.some((c) => /miss/.test(c)) && m.some((c) => /hit/.test(c)) ? m : null; }',
        }),
      { timeout: h.LONG, what: 'covered and missed marks in the gutter' },
    );
    console.log(`[e2e] coverage marks: ${JSON.stringify([...new Set(marks)])}`);
    assert.ok(marks.length > 0);
    await h.settledScreenshot(
      path.join(e2e.config.repoRoot, 'test-output', 'testing-coverage-gutter.png'),
      2000,
    );
  });

  it('a run of one payload case: the hooks it did not run are marked not exercised in the explorer', async () => {
    const before = await vscode.commands.executeCommand('hooksmith.lastCoverage');
    await h.open(h.ws('.hooksmith/payloads/tool_call.json'));
    await vscode.commands.executeCommand('testing.coverageCurrentFile');
    const report = await e2e.waitFor(
      async () => {
        const r = await vscode.commands.executeCommand('hooksmith.lastCoverage');
        return r && r !== before && r.hooks.length ? r : undefined;
      },
      { timeout: 120000, what: 'the coverage run of tool_call.json' },
    );
    const rows = report.hooks.flatMap((a) => a.hooks);
    assert.deepStrictEqual(
      rows.filter((x) => x.cases).map((x) => x.hook),
      ['hooks/tool_hooks.py::guard_orders'],
    );
    const unexercised = rows.filter((x) => !x.cases).map((x) => x.hook.split('::')[1]);
    assert.ok(unexercised.includes('redact_pii'), JSON.stringify(unexercised));
    let seen = [];
    const marked = await e2e
      .waitFor(
        async () => {
          const all = await vscode.commands.executeCommand('hooksmith.explorer.hookItems');
          seen = all.filter((i) => /Not(\s|&nbsp;)exercised/.test(i.tooltip)).map((i) => i.label);
          return seen.length === unexercised.length ? seen : undefined;
        },
        { timeout: 20000, what: `${unexercised.length} hooks marked not exercised in the explorer` },
      )
      .catch((err) => {
        throw new Error(
          `${err.message}: marked ${JSON.stringify(seen)}; not run ${JSON.stringify(unexercised)}`,
        );
      });
    assert.ok(marked.includes('redact_pii') && !marked.includes('guard_orders'), JSON.stringify(marked));
  });
});
