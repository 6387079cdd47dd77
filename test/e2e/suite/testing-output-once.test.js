// Test Results after a Run All with failures, read as a user reads it (#45 item 5: "the failure
// text is sometimes printed twice in Test Results, glued"). The run's output holds each failed
// case's line and the CLI's failure block once, each line on its own; a failed case selected in
// the tree shows its own output (its line) beside the rows of its failure messages, not the block
// again. What is read is the terminal VS Code draws (its rows in the page), not what we sent.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

// Two failed expectations: the case's row in Test Results has two message rows under it (a case
// with one is drawn as one row with its message, and selecting it shows the message's diff).
// The example agent's require_grounding hook retries an answer without "according to".
const CONVERSATION = `name: look up an order
turns:
  - user: hi
    completions: [{ text: "According to our records: hello." }]
    expect: { transcript: { contains: Welcome } }
  - user: bye
    completions: [{ text: "According to our records: Goodbye!" }]
    expect: { transcript: { contains: Farewell } }
expect:
  status: completed
`;
const ONE_TURN = `name: order status
user: where is my order?
completions:
  - text: "According to our records it has shipped. Goodbye!"
expect:
  status: completed
  transcript: { contains: delivered }
`;
const FILES = { 'look-up.scenario.yaml': CONVERSATION, 'order-status.scenario.yaml': ONE_TURN };
const CASE_ID = 'look-up.scenario.yaml::case';

const shot = (name) =>
  h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', `${name}.png`), 1000);

/**
 * The text of the terminal in the Test Results panel, or null. Its rows are drawn only for the
 * visible part: `whole` says the last row is empty, so all of the text is on screen. A
 * soft-wrapped line reads as two rows.
 */
async function resultsTerminal() {
  const rows = await e2e.ui({
    op: 'eval',
    fn: String(() => {
      const term = [...document.querySelectorAll('.part.panel .xterm')].find((x) => x.offsetHeight > 0);
      return (
        term && [...term.querySelectorAll('.xterm-rows > div')].map((r) => r.textContent.replace(/\s+$/, ''))
      );
    }),
  });
  return rows && { text: rows.join('\n').trim(), whole: rows[rows.length - 1] === '' };
}

const count = (text, s) => text.split(s).length - 1;

const ours = (file) => Object.keys(FILES).some((f) => file === h.ws(f));
const testFiles = async () =>
  (await vscode.commands.executeCommand('hooksmith.testItems')).filter((i) => i.depth === 1).map((i) => i.id);

/**
 * Moves the workspace's other test files (earlier suites leave theirs) out of the way, so the
 * run's whole output fits on screen; returns how to put them back.
 */
async function setAside() {
  const away = h.scratch('output-once-aside');
  const moved = (await testFiles())
    .filter((f) => !ours(f) && fs.existsSync(f))
    .map((f) => {
      const to = path.join(away, path.relative(h.ws(), f));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.renameSync(f, to);
      return [f, to];
    });
  return () => {
    for (const [f, to] of moved) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.renameSync(to, f);
    }
  };
}

describe('Test Results shows a failure once, never glued to the next case (#45 item 5)', function () {
  this.timeout(240000);
  let last;
  let putBack = () => {};
  before(async () => {
    await h.closeAll();
    await h.activate();
    for (const [name, text] of Object.entries(FILES)) fs.writeFileSync(h.ws(name), text);
    await vscode.commands.executeCommand('testing.refreshTests');
    await e2e.waitFor(
      async () =>
        (await vscode.commands.executeCommand('hooksmith.testItems')).filter((i) =>
          Object.keys(FILES).some((f) => i.id.endsWith(`${f}::case`)),
        ).length === 2,
      { timeout: h.LONG, what: 'both scenarios in the Testing view' },
    );
    putBack = await setAside();
    await vscode.commands.executeCommand('testing.refreshTests');
    // Both of ours and nothing else: `every` alone holds for a tree caught mid-refresh (empty or
    // half-filled), and a Run All of that tree never reports both (CI: timed out after 180 s).
    await e2e.waitFor(
      async () => {
        const files = await testFiles();
        return files.length === Object.keys(FILES).length && files.every(ours);
      },
      { timeout: h.LONG, what: 'only the two scenarios left in the Testing view' },
    );
    await h.open(h.ws('look-up.scenario.yaml'));
    await vscode.commands.executeCommand('testing.runAll');
    last = await e2e
      .waitFor(
        async () => {
          const r = await vscode.commands.executeCommand('hooksmith.lastTestRun');
          const mine =
            r && Object.keys(r).filter((id) => Object.keys(FILES).some((f) => id.endsWith(`${f}::case`)));
          return mine && mine.length === 2 ? r : undefined;
        },
        { timeout: 180000, what: 'the results of both scenarios' },
      )
      .catch(async (err) => {
        const items = (await vscode.commands.executeCommand('hooksmith.testItems')).map((i) => i.id);
        const ran = Object.keys((await vscode.commands.executeCommand('hooksmith.lastTestRun')) || {});
        throw new Error(
          `${err.message}; the Testing view held ${JSON.stringify(items)}; reported: ${JSON.stringify(ran)}`,
        );
      });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('closeReferenceSearch');
    await h.closeAll();
    for (const name of Object.keys(FILES)) fs.rmSync(h.ws(name), { force: true });
    putBack();
    await vscode.commands.executeCommand('testing.refreshTests');
  });

  it('the run: each case on a line of its own, each failure block once', async function () {
    const byEnd = (s) => (Object.entries(last).find(([id]) => id.endsWith(s)) || [])[1];
    const c = byEnd(CASE_ID);
    assert.strictEqual(c.state, 'failed');
    assert.strictEqual(c.messages.length, 2, JSON.stringify(c.messages));
    // What the run's output got for the case: its line, then the CLI's block; its own part: the line.
    assert.match(
      c.output,
      /^FAILED look-up\.scenario\.yaml::look up an order \(\d+ ms\)[^\r\n]*\r\n--- look-up/,
    );
    assert.match(c.output, /actual: {3}According to our records: Goodbye!\r\n\r\n$/);
    assert.match(c.itemOutput, /^FAILED look-up\.scenario\.yaml::look up an order \(\d+ ms\)[^\r\n]*\r\n$/);
    if (!e2e.canDriveUi()) return;
    await vscode.commands.executeCommand('testing.showMostRecentOutput');
    // The whole run's output on screen: the panel maximized, the terminal's font small.
    const terminal = vscode.workspace.getConfiguration('terminal.integrated');
    await terminal.update('fontSize', 7, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedPanel');
    let seen;
    const text = await e2e
      .waitFor(
        async () => {
          seen = await resultsTerminal();
          const t = seen && seen.whole && seen.text;
          return t && t.includes('--- order-status.scenario.yaml::order status') && t.includes('--- look-up')
            ? t
            : undefined;
        },
        { timeout: h.LONG, what: "both failure blocks in the run's output (Test Results)" },
      )
      .catch((err) => {
        throw new Error(`${err.message}; the terminal read: ${JSON.stringify(seen)}`);
      })
      .finally(async () => {
        await shot('testing-output-once-run');
        await terminal.update('fontSize', undefined, vscode.ConfigurationTarget.Global);
        await vscode.commands.executeCommand('workbench.action.toggleMaximizedPanel');
      });
    assert.strictEqual(count(text, '--- look-up.scenario.yaml::look up an order'), 1, text);
    assert.strictEqual(count(text, '--- order-status.scenario.yaml::order status'), 1, text);
    assert.strictEqual(count(text, 'expected: contains "Farewell"'), 1, text);
    // A case's line starts a row; nothing is glued to what came before it ("…Goodbye!FAILED …").
    assert.doesNotMatch(text, /\S(FAILED|PASSED|SKIPPED|ERROR) +[\w./-]+\.(ya?ml|json)::/, text);
    assert.match(text, /^FAILED look-up\.scenario\.yaml::look up an order /m, text);
    assert.match(text, /actual: {3}According to our records: Goodbye!$/m, text);
  });

  it('a failed case selected: its line beside its message rows, not the failure again', async function () {
    if (!e2e.canDriveUi()) return this.skip();
    await vscode.commands.executeCommand('testing.showMostRecentOutput');
    await e2e.ui({
      op: 'click',
      selector: '.part.panel .test-output-peek-tree .monaco-list-row[aria-label="look up an order"]',
    });
    const text = await e2e.waitFor(
      async () => {
        const t = (await resultsTerminal())?.text;
        // The run's output holds other cases' lines; the case's own output only its own.
        return t && t.includes('look-up.scenario.yaml::look up an order') && !/order-status|PASSED/.test(t)
          ? t
          : undefined;
      },
      { timeout: h.LONG, what: "the case's own output in Test Results" },
    );
    const rows = await e2e.ui({
      op: 'eval',
      fn: String(() =>
        [...document.querySelectorAll('.part.panel .test-output-peek-tree .monaco-list-row')].map((r) =>
          r.getAttribute('aria-label'),
        ),
      ),
    });
    await shot('testing-output-once-case');
    // The failure, once: in the message rows (and their diffs), not in the terminal beside them.
    assert.ok(rows.includes('turn 2: transcript: expected contains "Farewell"'), JSON.stringify(rows));
    assert.match(text, /^FAILED look-up\.scenario\.yaml::look up an order \(\d+ ms\)/, text);
    assert.doesNotMatch(text, /Farewell|Goodbye|--- look-up/, text);
  });
});
