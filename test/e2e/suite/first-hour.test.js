// A new user's first hour, round 2 (#31): the walk that tripped people in a real VS Code —
// Scaffold Hook right after a snippet, the Run panel on a payload that is a unit test, the
// recording's save dialog, Simulate Turn with a Mantle eval file open. Screenshots go to
// $HOOKSMITH_SHOTS (else test-output/) as first-hour-<step>.png.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const SHOTS = process.env.HOOKSMITH_SHOTS || path.join(e2e.config.repoRoot, 'test-output');
const shot = (name) => h.settledScreenshot(path.join(SHOTS, `first-hour-${name}.png`));

/** The snippet of `name` (snippets/python.json), as the completion list inserts it. */
function snippetBody(name) {
  const all = JSON.parse(fs.readFileSync(path.join(e2e.config.repoRoot, 'snippets', 'python.json'), 'utf8'));
  return all[name].body.join('\n');
}

/** Opens the Run panel's "Payload fields" (for the pictures); a no-op where the UI cannot be driven. */
async function openFields(title) {
  if (!e2e.canDriveUi()) return;
  await e2e
    .waitFor(
      () =>
        e2e
          .ui({
            op: 'eval',
            webview: title,
            fn: String(() => {
              const d = document.querySelector('details');
              if (d) d.open = true;
              return !!d;
            }),
          })
          .catch(() => false),
      { timeout: 15000, what: `the fields of ${title}` },
    )
    .catch(() => undefined);
}

describe('the first hour (#31)', function () {
  this.timeout(180000);
  let api;
  before(async () => {
    await h.closeAll();
    api = await h.activate();
    await h.waitForHooks(api, (r) => r.agents.some((a) => a.hooks.length));
  });
  after(() => h.closeAll());

  // Item 1: the snippet's name placeholder is still selected (its snippet session live) when the
  // user runs Scaffold Hook: the new hook went inside the snippet's function, indented.
  it('Scaffold Hook right after a snippet inserts at module level, after the snippet’s function', async () => {
    const file = h.ws('hooks', 'audit_hooks.py');
    fs.writeFileSync(file, '"""Audit hooks."""\n');
    const doc = await h.open(file);
    const editor = vscode.window.activeTextEditor;
    const end = new vscode.Position(doc.lineCount - 1, 0);
    editor.selection = new vscode.Selection(end, end);
    assert.ok(
      await editor.insertSnippet(new vscode.SnippetString(snippetBody('Mantle @on_turn_started()')), end),
    );
    // The name placeholder is selected, as after accepting the completion.
    assert.strictEqual(doc.getText(editor.selection), 'audit_turn_started');
    await vscode.commands.executeCommand('hooksmith.scaffoldHook', {
      target: 'on_turn_finished',
      force: true,
    });
    const text = await e2e.waitFor(
      () => (/on_turn_finished\(\)/.test(doc.getText()) ? doc.getText() : undefined),
      {
        timeout: h.LONG,
        what: 'the scaffolded hook in the file',
      },
    );
    await shot('scaffold-after-snippet');
    assert.match(text, /^@on_turn_finished\(\)\nasync def \w+\(payload: TurnFinishedPayload\)/m, text);
    assert.doesNotMatch(text, /^[ \t]+@on_turn_finished/m, 'not indented inside the previous function');
    await doc.save();
    await h.waitForHooks(
      api,
      (r) => r.agents.some((a) => a.hooks.filter((x) => path.resolve(x.file) === file).length === 2),
      { what: 'both hooks of audit_hooks.py in the server’s list' },
    );
  });

  // Item 2: the saved tool_result payload is a unit test (`expect`); a field edit in the Run panel
  // rewrote it in place (the test then failed), and `$schema`/`hook` were offered as fields.
  it('the Run panel on a test payload: no case keys as fields; an edit goes to a new sample, the test is untouched', async () => {
    const testFile = h.ws('.hooksmith', 'payloads', 'tool_result.json');
    const before = fs.readFileSync(testFile, 'utf8');
    assert.match(before, /"expect"/);
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file: h.ws('hooks', 'tool_hooks.py'),
      handler: 'redact_pii',
      payloadFile: testFile,
    });
    assert.strictEqual(result && result.outcome, 'returned');
    await openFields('redact_pii — run');
    await shot('run-panel-test-payload');
    const html = await vscode.commands.executeCommand('hooksmith.runPanelHtml');
    assert.doesNotMatch(
      html,
      /data-key="(\$schema|hook|expect)"/,
      'the file’s own keys are no payload fields',
    );
    assert.match(html, /data-key="tool_name"/);
    // Item 6: `lookup_customer` read "lookup customer": the input's line box clipped the underscore.
    if (e2e.canDriveUi()) {
      const fit = await e2e.ui({
        op: 'eval',
        webview: 'redact_pii — run',
        fn: String(() => {
          const input = document.querySelector('input[data-key="tool_name"]');
          const cs = getComputedStyle(input);
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = cs.font;
          const m = ctx.measureText(input.value);
          const font = m.fontBoundingBoxAscent + m.fontBoundingBoxDescent;
          const lineBox = cs.lineHeight === 'normal' ? font : parseFloat(cs.lineHeight);
          // The text sits centred in its line box, which clips it: the underscore's bottom must fit.
          const bottom = (lineBox - font) / 2 + m.fontBoundingBoxAscent + m.actualBoundingBoxDescent;
          return { value: input.value, lineBox, bottom, font: cs.font };
        }),
      });
      assert.ok(fit.bottom <= fit.lineBox, `the underscore of ${JSON.stringify(fit)} is clipped`);
    }
    const edited = await vscode.commands.executeCommand('hooksmith.runPanelMessage', {
      type: 'editField',
      key: 'tool_name',
      value: 'lookup_order',
    });
    await openFields('redact_pii — run');
    await shot('run-panel-edited-copy');
    assert.ok(edited, 'the hook re-ran');
    assert.strictEqual(edited.inputPayload.tool_name, 'lookup_order');
    assert.strictEqual(fs.readFileSync(testFile, 'utf8'), before, 'the test payload is unchanged');
    const last = await vscode.commands.executeCommand('hooksmith.lastHookRun');
    assert.notStrictEqual(last.payloadFile, testFile);
    const copy = JSON.parse(fs.readFileSync(last.payloadFile, 'utf8'));
    assert.strictEqual(copy.tool_name, 'lookup_order');
    assert.ok(!('expect' in copy) && !('hook' in copy), 'the copy is a plain sample');
  });

  // Items 3, 4: accepting the save dialog's default wrote chat.scenario.yaml.scenario.yaml, and
  // the scenario had no expect: (it passed with nothing checked).
  it('New Scenario from Recorded Conversation: the dialog’s default is the file written; its turns expect the recorded texts', async function () {
    if (!e2e.canDriveUi()) this.skip();
    const dir = h.ws('recorded');
    fs.mkdirSync(dir, { recursive: true });
    const recording = path.join(dir, 'chat.json');
    fs.writeFileSync(
      recording,
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'bye' },
        { role: 'assistant', content: 'Bye' },
      ]),
    );
    const pending = vscode.commands.executeCommand('hooksmith.newScenarioFromRecording', { file: recording });
    const dialog = () =>
      e2e.ui({
        op: 'eval',
        fn: String(() => {
          const w = document.querySelector('.quick-input-widget');
          if (!w || w.style.display === 'none') return null;
          const box = w.querySelector('input');
          return box ? box.value : null;
        }),
      });
    // The dialog fills its input once it has read the folder.
    const shown = await e2e.waitFor(async () => ((await dialog()) || '').match(/\.yaml$/)?.input, {
      timeout: h.LONG,
      what: 'the save dialog',
    });
    assert.match(shown, /chat\.scenario\.yaml$/);
    // #45 item 5: the dialog says what it saves.
    const title = await e2e.ui({
      op: 'eval',
      fn: String(
        () => (document.querySelector('.quick-input-widget .quick-input-title') || {}).textContent || '',
      ),
    });
    assert.match(title, /Save the Recording as a Scenario/);
    await shot('recording-save-dialog');
    await e2e.ui({ op: 'press', key: 'Enter' });
    const written = await pending;
    await shot('recording-written');
    assert.strictEqual(written, path.join(dir, 'chat.scenario.yaml'));
    assert.deepStrictEqual(fs.readdirSync(dir).sort(), ['chat.json', 'chat.scenario.yaml']);
    const text = fs.readFileSync(written, 'utf8');
    assert.match(text, /expect:\n {6}transcript:\n {8}snapshot: Hello\n/);
    assert.doesNotMatch(text, /tools: \{\}|text: null/);
  });

  // Item 8: Simulate Turn from the palette with a Mantle eval file open offered a pick that left
  // the file out, saying nothing; only the file passed directly got the clear refusal.
  it('Simulate Turn from the palette: the open eval file is played (the clear refusal); the pick lists it, saying why', async function () {
    const evalFile = h.ws('eval', 'scenarios', 'order_pizza.yml');
    fs.mkdirSync(path.dirname(evalFile), { recursive: true });
    fs.writeFileSync(
      evalFile,
      'scenario:\n  name: order a pizza\n  simulation_context: A hungry user orders a large pizza.\n  goals:\n    criteria:\n      - The pizza is ordered\n',
    );
    await h.closeAll();
    await h.open(evalFile);
    const played = await vscode.commands.executeCommand('hooksmith.simulateTurn');
    assert.strictEqual(played, undefined, 'nothing played');
    const last = await vscode.commands.executeCommand('hooksmith.lastSimulation');
    assert.strictEqual(last && last.file, evalFile, 'the open eval file was the one asked for');
    assert.match(
      JSON.stringify(last.refusal),
      /needs a model: an LLM plays the user from simulation_context/,
    );
    await shot('simulate-open-eval-file');
    if (!e2e.canDriveUi()) return;
    await h.closeAll();
    const pending = vscode.commands.executeCommand('hooksmith.simulateTurn');
    const rows = await e2e.waitFor(
      async () => {
        const r = await e2e.ui({
          op: 'eval',
          fn: String(() => {
            const w = document.querySelector('.quick-input-widget');
            if (!w || w.style.display === 'none') return null;
            const list = [...w.querySelectorAll('.monaco-list-row')].map((x) =>
              x.innerText.replace(/\s+/g, ' '),
            );
            return list.some((x) => /\.ya?ml/.test(x)) ? list : null;
          }),
        });
        return r || undefined;
      },
      { timeout: h.LONG, what: 'the scenario pick' },
    );
    await shot('simulate-pick');
    await e2e.ui({ op: 'press', key: 'Escape' });
    await pending;
    const row = rows.find((r) => r.includes('order_pizza.yml'));
    assert.ok(row, JSON.stringify(rows));
    assert.match(row, /needs a model/);
  });
});
