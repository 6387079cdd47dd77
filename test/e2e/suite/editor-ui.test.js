// Issue 14, item 10: the explorer and the status bar use the diagnostics' own severity — a
// duplicate modify hook is an error in the explorer as in the editor, other errors mark their
// hook too, and the status bar never shows a check mark beside errors.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const DUP_A = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def first_guard(call: ToolCallPayload) -> ToolCallPayload:
    return call
`;
const DUP_B = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call, on_turn_started


@modify_tool_call()
async def second_guard(call: ToolCallPayload) -> ToolCallPayload:
    return call


@on_turn_started()
def editor_ui_started(payload) -> None:
    pass
`;

describe('issue 14: explorer and status bar follow the diagnostics’ severity', function () {
  this.timeout(180000);
  let api;
  const dir = () => h.ws('editor-ui');
  before(async () => {
    await h.closeAll();
    api = await h.activate();
    fs.mkdirSync(path.join(dir(), 'hooks'), { recursive: true });
  });
  after(async () => {
    await h.closeAll();
    fs.rmSync(dir(), { recursive: true, force: true });
  });

  it('duplicate modify hooks and a sync handler are errors in the explorer; the status bar shows the error icon', async () => {
    await h.writeFile(path.join(dir(), 'hooks', 'a.py'), DUP_A);
    await h.writeFile(path.join(dir(), 'hooks', 'b.py'), DUP_B);
    // Both open: the server knows them from the editor, whenever the file watcher reports the new
    // folder (watcher-driven discovery has its own test in duplicates.test.js).
    await h.open(path.join(dir(), 'hooks', 'a.py'));
    const doc = await h.open(path.join(dir(), 'hooks', 'b.py'));
    await h.waitForOurs(doc.uri, (d) =>
      ['duplicate-modify-hook', 'sync-handler'].every((c) => d.some((x) => h.codeOf(x) === c)),
    );
    await h.waitForHooks(api, (r) =>
      r.agents.some((a) => a.hooks.some((x) => x.handler === 'editor_ui_started')),
    );
    await vscode.commands.executeCommand('workbench.view.extension.hooksmith');
    const items = await e2e
      .waitFor(
        async () => {
          const all = (await vscode.commands.executeCommand('hooksmith.explorer.hookItems')) || [];
          const mine = all.filter((i) =>
            ['first_guard', 'second_guard', 'editor_ui_started'].includes(i.label),
          );
          return mine.length === 3 && mine.every((i) => i.icon === 'error') ? mine : undefined;
        },
        { timeout: h.LONG, what: 'error marks on first_guard, second_guard and editor_ui_started' },
      )
      .catch(async (err) => {
        console.log(JSON.stringify(await vscode.commands.executeCommand('hooksmith.explorer.hookItems')));
        throw err;
      });
    for (const i of items) assert.strictEqual(i.color, 'list.errorForeground', JSON.stringify(i));
    const tip = items
      .find((i) => i.label === 'editor_ui_started')
      .tooltip.replace(/&nbsp;/g, ' ')
      .replace(/\\/g, '');
    assert.match(tip, /Error \(line 10\): .*async/);
    // A hook without problems keeps its lane icon.
    const clean = ((await vscode.commands.executeCommand('hooksmith.explorer.hookItems')) || []).find(
      (i) => i.label === 'redact_pii',
    );
    assert.ok(clean && clean.icon === 'edit', JSON.stringify(clean));
    const status = await e2e.waitFor(
      () => {
        const s = api.statusBar();
        return /errors?/.test(s.text) ? s : undefined;
      },
      { timeout: h.LONG, what: 'the status bar counting errors' },
    );
    assert.match(status.text, /^\$\(error\) Hooksmith: \d+ hooks · \d+ errors?/, status.text);
    assert.ok(!status.text.includes('$(check)'));
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'editor-explorer-severity.png'));
  });

  it('the timeline: change markers and tool names on collapsed rows, filters, jump to the first problem, hook links', async () => {
    const result = await vscode.commands.executeCommand(
      'hooksmith.simulateTurn',
      vscode.Uri.file(h.ws('order-pizza.scenario.yaml')),
    );
    assert.ok(result && result.events.length, 'a SimulationResult');
    const html = h
      .repoModule('runtime/ui/timeline-html.ts')
      .renderTimelineHtml(result, { nonce: 'n', cspSource: 'c', rerun: true });
    assert.match(html, /tool_call <span class="toolname" title="tool">place_order<\/span>/);
    assert.match(html, /<span class="chg"[^>]*>Δ \d+ changed<\/span>/);
    assert.match(html, /class="hooklink" data-hook="hooks\/tool_hooks\.py::guard_orders"/);
    assert.match(html, /id="f-problems"/);
    assert.match(html, /id="f-changed"/);
    assert.match(html, /<select id="f-hook">/);
    await e2e.waitFor(
      () => h.webviewTabs('hooksmith.timeline').find((t) => t.label === 'Turn: order-pizza.scenario.yaml'),
      { timeout: h.LONG, what: 'the timeline panel' },
    );
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'editor-timeline.png'));
  });
});
