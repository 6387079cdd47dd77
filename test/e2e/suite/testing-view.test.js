// The Testing view in a real VS Code: the workspace's scenarios and payload cases are discovered
// as agents → files → case → expectations (with their lines); Run All from the Testing view
// (the workbench's own testing.runAll) runs them over real python3; a failing expectation added
// to a scenario shows up failed at its line with expected vs actual; its timeline opens.
'use strict';
const assert = require('assert');
const fs = require('fs');
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
goals:
  assertions:
    - skill_completed: { skill_id: close_account } # a Mantle check a hook simulation cannot make
`;

describe('Testing view', function () {
  this.timeout(240000);
  before(async () => {
    await h.closeAll();
    await h.activate();
  });

  it('discovers agents → files → cases → expectations, each with its line', async () => {
    const items = await e2e.waitFor(
      async () => {
        const list = await vscode.commands.executeCommand('hooksmith.testItems');
        return list &&
          list.some((i) => i.label === 'order a pizza') &&
          list.some((i) => i.label === 'tool_result.json')
          ? list
          : undefined;
      },
      {
        timeout: h.LONG,
        what: 'the order-pizza scenario and the tool_result payload case in the Testing view',
      },
    );
    const pizza = items.find((i) => i.label === 'order a pizza');
    assert.strictEqual(pizza.depth, 2, 'agent → file → case');
    const text = fs.readFileSync(h.ws('order-pizza.scenario.yaml'), 'utf8').split('\n');
    const expectLine = text.findIndex((l) => l.startsWith('expect:')) + 1;
    assert.strictEqual(pizza.line, expectLine);
    const status = items.find((i) => i.label === 'status: completed' && i.id.includes('order-pizza'));
    assert.ok(status, items.map((i) => i.label).join(', '));
    assert.strictEqual(status.depth, 3);
    assert.strictEqual(text[status.line - 1].trim(), 'status: completed');
    assert.ok(
      items.some((i) => i.label.startsWith('tool_result.json')),
      'payload files are listed',
    );
  });

  it('Run All from the Testing view runs every case; a failure shows at its line', async () => {
    const file = h.ws('guard-delete.scenario.yaml');
    fs.writeFileSync(file, FAILING);
    await e2e.waitFor(
      async () =>
        // By its file: another suite's scenario may carry the same name.
        (await vscode.commands.executeCommand('hooksmith.testItems')).some((i) =>
          i.id.endsWith('guard-delete.scenario.yaml::case'),
        ),
      { timeout: h.LONG, what: 'the new scenario discovered by the file watcher' },
    );
    await vscode.commands.executeCommand('testing.runAll');
    const last = await e2e.waitFor(
      async () => {
        const r = await vscode.commands.executeCommand('hooksmith.lastTestRun');
        const ids = Object.keys(r || {});
        return ids.some((id) => id.endsWith('guard-delete.scenario.yaml::case')) &&
          ids.some((id) => id.endsWith('order-pizza.scenario.yaml::case'))
          ? r
          : undefined;
      },
      { timeout: 180000, what: 'the results of Run All' },
    );
    const byEnd = (s) => Object.entries(last).find(([id]) => id.endsWith(s))[1];
    assert.strictEqual(byEnd('order-pizza.scenario.yaml::case').state, 'passed');
    assert.strictEqual(byEnd('tool_result.json::case').state, 'passed');
    assert.strictEqual(byEnd('guard-delete.scenario.yaml::case').state, 'failed');
    const failed = byEnd('guard-delete.scenario.yaml::case/expect/tool_called');
    assert.strictEqual(failed.state, 'failed');
    assert.strictEqual(failed.line, 10, 'the line of tool_called in the file');
    assert.strictEqual(failed.expected, 'delete_account runs');
    assert.match(failed.actual, /no tool ran/);
    assert.strictEqual(byEnd('guard-delete.scenario.yaml::case/expect/status').state, 'passed');
    const unchecked = byEnd('guard-delete.scenario.yaml::case/goals/assertions/0/skill_completed');
    assert.strictEqual(unchecked.state, 'skipped', 'shown skipped, neither passed nor failed');
    assert.strictEqual(unchecked.line, 13);
    assert.match(unchecked.message, /^not checked by hooksmith \(needs the Mantle engine\)/);
  });

  it("a failed scenario's timeline shows that run's own result, not a new play", async () => {
    const file = h.ws('guard-delete.scenario.yaml');
    // A play now would differ from the run that failed: its bot text is changed on disk.
    fs.writeFileSync(file, FAILING.replace('According to our records, done.', 'PLAYED AGAIN'));
    await vscode.commands.executeCommand('hooksmith.openTestTimeline', { uri: vscode.Uri.file(file) });
    const tab = await e2e.waitFor(
      () =>
        h
          .webviewTabs('hooksmith.timeline')
          .find((t) => t.label === 'Turn: guard-delete.scenario.yaml (test run)'),
      { timeout: h.LONG, what: 'the timeline of the failed run of guard-delete.scenario.yaml' },
    );
    assert.ok(tab);
    const shown = await vscode.commands.executeCommand('hooksmith.lastSimulation');
    assert.strictEqual(shown.file, file);
    const bot = shown.result.transcript.filter((t) => t.role === 'bot').map((t) => t.text);
    assert.deepStrictEqual(bot, ['According to our records, done.'], 'the failed run, as recorded');
    assert.ok(!shown.result.tools || !shown.result.tools.some((t) => t.tool_name === 'delete_account'));
    fs.writeFileSync(file, FAILING);
  });
});
