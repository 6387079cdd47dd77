// A failed test in a real VS Code, as a user meets it: the run's output (Test Results) holds the
// CLI's failure text, each failed expectation has a message with expected / actual (a diff) at its
// line of the scenario, and the failure opens the peek in the editor.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const FAILING = `name: guard on delete
user: delete my account
completions:
  - tool_calls: [{ tool_name: delete_account, tool_args: {} }]
  - text: According to our records, done.
tools:
  delete_account: { value: { deleted: true } }
expect:
  status: completed
  tool_called: { tool_name: delete_account } # ToolGuard (runtime_hooks.py) blocks it: fails
`;

const shot = (name) =>
  h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', `${name}.png`), 2000);

describe('a failed test: its output, its message, the peek', function () {
  this.timeout(240000);
  let file;
  let last;
  // Leaves the window as the next suite expects it: no peek, no panel, no editor.
  after(async () => {
    await vscode.commands.executeCommand('closeReferenceSearch');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await h.closeAll();
  });
  before(async () => {
    await h.closeAll();
    await h.activate();
    file = h.ws('guard-failure.scenario.yaml');
    fs.writeFileSync(file, FAILING);
    await vscode.commands.executeCommand('testing.refreshTests');
    await e2e.waitFor(
      async () =>
        (await vscode.commands.executeCommand('hooksmith.testItems')).some((i) =>
          i.id.endsWith('guard-failure.scenario.yaml::case'),
        ),
      { timeout: h.LONG, what: 'guard-failure.scenario.yaml in the Testing view' },
    );
    await h.open(file);
    // Run All, not Run Tests in Current File: the latter sometimes never started after an earlier
    // suite's run in the same window (cause not found); this test is about what a run shows.
    await vscode.commands.executeCommand('testing.runAll');
    last = await e2e.waitFor(
      async () => {
        const r = await vscode.commands.executeCommand('hooksmith.lastTestRun');
        return r && Object.keys(r).some((id) => id.endsWith('guard-failure.scenario.yaml::case'))
          ? r
          : undefined;
      },
      { timeout: 180000, what: 'the result of the failing scenario' },
    );
  });

  it("opens the peek on the failure in the scenario's editor", async function () {
    if (!e2e.canDriveUi()) return this.skip();
    const peek = await e2e.waitFor(
      () =>
        e2e.ui({
          op: 'eval',
          fn: "() => { const p = document.querySelector('.test-output-peek'); return p && p.offsetHeight > 0 ? p.innerText : ''; }",
        }),
      { timeout: h.LONG, what: 'the test peek in the editor' },
    );
    assert.match(peek, /tool_called delete_account/);
    assert.strictEqual(vscode.window.activeTextEditor.document.uri.fsPath, file);
    assert.strictEqual(vscode.window.activeTextEditor.selection.active.line, 9, 'at line 10');
  });

  it('shows the failure in the Testing view and Test Results (screenshots)', async function () {
    if (!e2e.config.screenshots) return this.skip();
    await vscode.commands.executeCommand('workbench.view.extension.test');
    await shot('testing-failure-view');
    await vscode.commands.executeCommand('testing.showMostRecentOutput');
    await shot('testing-failure-results');
    if (!e2e.canDriveUi()) return;
    // The editor shows the failure once (its message, in the peek); the run's output is not also drawn
    // at the line (#31 item 5: output appended with a location was, "FAILED …" glued after the line).
    const inline = await e2e.ui({
      op: 'eval',
      fn: '() => [...document.querySelectorAll(\'.monaco-editor .view-lines [class*="test-message-inline"], .monaco-editor [class*="test-message-inline"]\')].map((e) => e.textContent)',
    });
    assert.ok(!inline.some((t) => /FAILED/.test(t)), JSON.stringify(inline));
  });

  it("the run's output holds the CLI's failure text, right under the case's line", async () => {
    const byEnd = (s) => (Object.entries(last).find(([id]) => id.endsWith(s)) || [])[1];
    const c = byEnd('guard-failure.scenario.yaml::case');
    assert.strictEqual(c.state, 'failed');
    assert.ok(c.output, 'output appended to the run');
    assert.match(c.output, /--- guard-failure\.scenario\.yaml::guard on delete\r\n/);
    assert.match(c.output, /guard-failure\.scenario\.yaml:10: tool_called delete_account\r\n/);
    assert.match(c.output, /expected: delete_account runs\r\n/);
    assert.match(c.output, /actual: {3}.*no tool ran/);
    assert.ok(!/[^\r]\n/.test(c.output), 'CRLF line endings');
  });

  it("the case's failure message has expected / actual at the expectation's line", async () => {
    const byEnd = (s) => (Object.entries(last).find(([id]) => id.endsWith(s)) || [])[1];
    const c = byEnd('guard-failure.scenario.yaml::case');
    assert.strictEqual(c.messages.length, 1, JSON.stringify(c.messages));
    const [m] = c.messages;
    assert.strictEqual(m.line, 10, 'the line of tool_called');
    assert.strictEqual(m.file, file);
    assert.strictEqual(m.expected, 'delete_account runs');
    assert.match(m.actual, /no tool ran/);
    assert.match(m.message, /tool_called delete_account/);
  });

  it('the status bar counts the failing tests; clicking opens the Testing view; gone once they pass', async () => {
    const api = await h.activate();
    const s = api.testStatusBar();
    // Other suites of the same window may have left failing cases of their own: counted too.
    const count = (t) => Number((/^\$\(testing-failed-icon\) (\d+) failing$/.exec(t) || [])[1]);
    assert.ok(count(s.text) >= 1, s.text);
    assert.deepStrictEqual([s.command, s.visible], ['workbench.view.extension.test', true]);
    assert.match(s.tooltip, /guard on delete \(guard-failure\.scenario\.yaml\)/);
    assert.match(s.tooltip, /\[Re-run failed\]\(command:testing\.reRunFailTests\)/);
    if (e2e.canDriveUi()) {
      await vscode.commands.executeCommand('workbench.view.explorer');
      await e2e.ui({ op: 'click', selector: '[id="hooksmith.hooksmith.hooksmith.tests"] a' });
      const title = await e2e.waitFor(
        () =>
          e2e.ui({
            op: 'eval',
            fn: "() => { const t = document.querySelector('.part.sidebar .composite.title h2'); return t && /testing/i.test(t.textContent) ? t.textContent : ''; }",
          }),
        { timeout: h.LONG, what: 'the Testing view after the status-bar click' },
      );
      assert.match(title, /testing/i);
    }
    fs.writeFileSync(file, FAILING.replace(/^ {2}tool_called:.*\n/m, ''));
    await h.open(file);
    // Run All, as before(): after another suite's Debug run from the Testing view, Run Current
    // File in code-server started no run (seen only in that order; noted in the wave's note).
    await vscode.commands.executeCommand('testing.runAll');
    await e2e
      .waitFor(() => !/guard on delete/.test(api.testStatusBar().tooltip), {
        timeout: 180000,
        what: 'the passed scenario gone from the failing tests',
      })
      .catch(async (err) => {
        const r = await vscode.commands.executeCommand('hooksmith.lastTestRun');
        const mine = Object.entries(r || {}).filter(([id]) => id.includes('guard-failure'));
        throw new Error(
          `${err.message}; last run: ${JSON.stringify(mine)}; bar: ${api.testStatusBar().tooltip}`,
        );
      });
    const after = api.testStatusBar();
    if (count(s.text) === 1) assert.strictEqual(after.visible, false, 'no failing test: the item is hidden');
    else assert.strictEqual(count(after.text), count(s.text) - 1, after.text);
    const r = await vscode.commands.executeCommand('hooksmith.lastTestRun');
    const c = Object.entries(r).find(([id]) => id.endsWith('guard-failure.scenario.yaml::case'))[1];
    assert.strictEqual(c.state, 'passed');
    assert.match(
      c.output,
      /^PASSED guard-failure\.scenario\.yaml::guard on delete \(\d+ ms\)( \[[^\]\r\n]+\])?\r\n$/,
    );
  });
});
