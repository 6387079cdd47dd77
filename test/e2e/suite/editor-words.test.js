// The editor speaks the editor's language (#45), as a user sees it in the packaged extension:
// - a changed prompt stops with what changed, first in the timeline, with a Re-record button and a
//   toast offering it; nothing reaches the provider until Re-record is clicked (item 1);
// - the messages name the settings and the unset variable, never a CLI flag; a scenario that needs
//   a model offers "Set a model", not "Run again" (item 2);
// - Run with Coverage without coverage.py: a toast with "Install coverage" / "Choose Interpreter",
//   and the hook table in a list that fits the panel (item 3);
// - a stale "cannot run" leaves the status bar once a simulation runs; a Mantle eval file has a
//   Simulate lens (item 5);
// - "Run N times" from a test item's menu; a scripted scenario says every repeat is the same (item 6).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const KEY_ENV = 'HOOKSMITH_E2E_WORDS_KEY';
const KEY = 'sk-e2e-words-51c2';

/**
 * The notifications as a user reads them in the notification centre (opened: toasts are not drawn
 * while extension tests run): each one's text and its buttons' labels (code-server).
 */
async function toasts() {
  if (!e2e.canDriveUi()) return [];
  await vscode.commands.executeCommand('notifications.showList');
  return e2e.ui({
    op: 'eval',
    fn: String(() =>
      Array.from(
        document.querySelectorAll('.notification-toast, .notifications-center .monaco-list-row'),
      ).map(
        (t) =>
          `${t.innerText} ${Array.from(t.querySelectorAll('.monaco-button'))
            .map((b) => b.textContent)
            .join(' | ')} ${t.getAttribute('aria-label') || ''}`,
      ),
    ),
  });
}

/** The status bar's text (code-server). */
const statusBar = () =>
  e2e.ui({
    op: 'eval',
    fn: String(() => (document.querySelector('.part.statusbar') || {}).innerText || ''),
  });

async function shot(name) {
  if (!e2e.config.screenshots) return;
  const file = path.join(e2e.config.repoRoot, 'test-output', `words-${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await h.settledScreenshot(file, 2500);
  console.log(`[e2e] screenshot ${file}`);
}

const noFlag = (text, what) =>
  assert.doesNotMatch(text, /(^|\s|\()--[a-z]/, `${what} names a CLI flag: ${text}`);

describe('the editor speaks the editor (#45)', function () {
  this.timeout(240000);
  const config = () => vscode.workspace.getConfiguration('hooksmith');
  const { startChatServer } = h.repoModule('test/runtime/fixtures/chat-server.ts');
  let server;
  let agent;
  let scenario;
  let ciWas;

  const writeScenario = (rule) =>
    fs.writeFileSync(
      scenario,
      [
        'name: card status by a model',
        'user: is my card active?',
        `system_prompt: You are a bank assistant. ${rule}`,
        `model: { base_url: "${server.baseUrl}", model: fixture-model, api_key_env: ${KEY_ENV} }`,
        'expect:',
        '  status: completed',
        '',
      ].join('\n'),
    );

  before(async function () {
    await h.closeAll();
    await h.activate();
    await vscode.commands.executeCommand('notifications.clearAll');
    server = await startChatServer(() => ({ text: 'Yes, your card is active.' }));
    process.env[KEY_ENV] = KEY;
    // CI machines set CI, which makes `none` the default record mode (as on the CLI): this file
    // asserts the editor's default on a developer's machine, where VS Code does not run with CI set.
    ciWas = process.env.CI;
    delete process.env.CI;
    agent = h.ws('words-agent');
    fs.mkdirSync(agent, { recursive: true });
    fs.writeFileSync(path.join(agent, 'hooks.py'), 'from rasa.mantle.hooks import on_turn_started\n');
    scenario = path.join(agent, 'card.scenario.yaml');
    writeScenario('RULE-V1');
    fs.writeFileSync(
      path.join(agent, 'plain.scenario.yaml'),
      [
        'name: a plain turn',
        'user: hello',
        'completions:',
        '  - text: Hello!',
        'expect:',
        '  status: completed',
        '',
      ].join('\n'),
    );
  });
  after(async () => {
    for (const k of ['modelRecord', 'model', 'testing.repeat', 'pythonPath'])
      await config().update(k, undefined, vscode.ConfigurationTarget.Workspace);
    delete process.env[KEY_ENV];
    if (ciWas !== undefined) process.env.CI = ciWas;
    await server?.close();
    if (agent) fs.rmSync(agent, { recursive: true, force: true });
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('a changed prompt shows what changed first, calls no model, and records only on Re-record', async () => {
    const uri = vscode.Uri.file(scenario);
    // The key is set and hooksmith.modelRecord unset: the first run records what the cassette lacks.
    const first = await vscode.commands.executeCommand('hooksmith.simulateTurn', uri);
    assert.deepStrictEqual(
      first.models.exchanges.map((x) => x.source),
      ['called'],
      `the first run: ${JSON.stringify({ status: first.status, error: first.error, models: first.models }).slice(0, 1500)}`,
    );
    assert.strictEqual(server.seen.length, 1);

    writeScenario('RULE-V2');
    const changed = await vscode.commands.executeCommand('hooksmith.simulateTurn', uri);
    assert.strictEqual(server.seen.length, 1, 'the changed request never reached the provider');
    const failure = changed.models.failure;
    assert.match(
      failure,
      /messages\[0\]\.content: recorded "You are a bank assistant\. RULE-V1", now "You are a bank assistant\. RULE-V2"/,
    );
    assert.match(failure, /Re-record calls the model afresh/);
    noFlag(failure, 'the cassette failure');
    const shown = await vscode.commands.executeCommand('hooksmith.lastSimulation');
    const alert = shown.html.indexOf('role="alert"');
    assert.ok(
      alert > 0 && alert < shown.html.indexOf('id="tl-h"'),
      'the difference stands before the timeline',
    );
    assert.match(shown.html, /data-action="rerecord"/);
    assert.doesNotMatch(shown.html, /provider failed|connection/i);
    if (!e2e.canDriveUi()) return;
    const offered = await e2e.waitFor(
      async () => (await toasts()).find((t) => /the cassette cannot answer/.test(t) && /Re-record/.test(t)),
      { timeout: h.LONG, what: 'the toast offering Re-record' },
    );
    noFlag(offered, 'the toast');
    await shot('changed-prompt');

    // The user asks: the webview's Re-record button calls the model and saves the cassette.
    await e2e.ui({ op: 'click', webview: 'card.scenario.yaml', selector: 'button[data-action="rerecord"]' });
    const redone = await e2e.waitFor(
      async () => {
        const s = await vscode.commands.executeCommand('hooksmith.lastSimulation');
        return s && s.result && s.result.models && !s.result.models.failure && server.seen.length === 2
          ? s
          : undefined;
      },
      { timeout: h.LONG, what: 'the re-recorded run' },
    );
    assert.deepStrictEqual(
      redone.result.models.exchanges.map((x) => x.source),
      ['called'],
    );
    assert.match(JSON.stringify(server.seen[1].body.messages[0]), /RULE-V2/);
    const again = await vscode.commands.executeCommand('hooksmith.simulateTurn', uri);
    assert.deepStrictEqual(
      again.models.exchanges.map((x) => x.source),
      ['replayed'],
    );
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('without the key: the message names the unset variable, and Re-record says so instead of calling', async () => {
    delete process.env[KEY_ENV];
    writeScenario('RULE-V3');
    const seen = server.seen.length;
    const r = await vscode.commands.executeCommand('hooksmith.simulateTurn', vscode.Uri.file(scenario));
    assert.match(r.models.failure, new RegExp(`${KEY_ENV}, which is not set in VS Code's environment`));
    noFlag(r.models.failure, 'the failure without the key');
    const none = await vscode.commands.executeCommand('hooksmith.reRecord', vscode.Uri.file(scenario));
    assert.strictEqual(none, undefined);
    assert.strictEqual(server.seen.length, seen, 'nothing was sent');
    if (e2e.canDriveUi()) {
      const said = await e2e.waitFor(
        async () =>
          (await toasts()).find((t) =>
            t.includes(`Re-record needs the model's key: ${KEY_ENV} is not set in VS Code's environment`),
          ),
        { timeout: h.LONG, what: 'the toast naming the unset key' },
      );
      noFlag(said, 'the unset-key toast');
      await shot('key-unset');
    }
    process.env[KEY_ENV] = KEY;
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('a Mantle eval file that needs a model: a Simulate lens, the hooksmith.model setting named, "Set a model"; a later run clears "cannot run"', async () => {
    const file = path.join(agent, 'eval', 'scenarios', 'replace_card.yml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [
        'scenario:',
        '  name: Customer replaces a card',
        '  simulation_context: You are a customer whose card broke.',
        '  goals:',
        '    criteria:',
        '      - The agent says the new card is on its way.',
        '',
      ].join('\n'),
    );
    await h.open(file);
    const lenses = await e2e.waitFor(
      async () => {
        const l = (
          (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', vscode.Uri.file(file))) ||
          []
        ).map((x) => x.command && x.command.title);
        return l.includes('▶ Simulate turn') ? l : undefined;
      },
      { timeout: h.LONG, what: 'the Simulate lens of the eval file' },
    );
    assert.ok(lenses.includes('$(debug-alt) Debug turn'), JSON.stringify(lenses));

    const r = await vscode.commands.executeCommand('hooksmith.simulateTurn', vscode.Uri.file(file));
    assert.strictEqual(r, undefined, 'refused');
    const shown = await vscode.commands.executeCommand('hooksmith.lastSimulation');
    assert.match(shown.refusal.reason, /the hooksmith\.model setting/);
    noFlag(shown.refusal.reason, 'the refusal');
    assert.deepStrictEqual(shown.refusal.actions, ['setModel', 'openScenario']);
    assert.match(shown.html, /data-action="setModel">Set a model</);
    assert.doesNotMatch(shown.html, /Run again/);
    if (!e2e.canDriveUi()) return;
    await e2e.waitFor(async () => /replace_card\.yml cannot run/.test(await statusBar()), {
      timeout: h.LONG,
      what: 'the "cannot run" note in the status bar',
    });
    await shot('needs-model');
    await e2e.ui({ op: 'click', webview: 'replace_card.yml', selector: 'button[data-action="setModel"]' });
    await e2e.waitFor(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /Settings/.test(t.label)),
      { timeout: h.LONG, what: 'the Settings editor opened by "Set a model"' },
    );
    await shot('set-a-model');

    // A later simulation that runs: the note no longer says the eval file cannot run.
    const plain = await vscode.commands.executeCommand(
      'hooksmith.simulateTurn',
      vscode.Uri.file(path.join(agent, 'plain.scenario.yaml')),
    );
    assert.strictEqual(plain.status, 'completed');
    await e2e.waitFor(async () => !/cannot run/.test(await statusBar()), {
      timeout: 5000,
      what: 'the stale "cannot run" note gone from the status bar',
    });
  });

  it('Run N times from the menu command: a scripted scenario says every repeat would be the same', async () => {
    const file = path.join(agent, 'plain.scenario.yaml');
    const caseId = `${file}::case`;
    await e2e.waitFor(
      async () => (await vscode.commands.executeCommand('hooksmith.testItems')).some((i) => i.id === caseId),
      { timeout: h.LONG, what: 'the plain scenario in the Testing view' },
    );
    await config().update('testing.repeat', 3, vscode.ConfigurationTarget.Workspace);
    const menus = e2e.extension().packageJSON.contributes.menus['testing/item/context'];
    assert.ok(
      menus.some((m) => m.command === 'hooksmith.runRepeated'),
      'Run N times is on the item menu',
    );
    await vscode.commands.executeCommand('hooksmith.runRepeated', vscode.Uri.file(file));
    const c = (await vscode.commands.executeCommand('hooksmith.lastTestRun'))[caseId];
    assert.strictEqual(c.state, 'passed', JSON.stringify(c));
    assert.match(c.output, /no model plays this scenario .*: it ran once, not 3 times/);
    assert.doesNotMatch(c.output, /3\/3 passed|100%/);
  });

  it('Run with Coverage without coverage.py: a toast with Install coverage / Choose Interpreter; the hook table fits', async function () {
    // A venv of its own without coverage.py (a venv does not see the system's site-packages).
    const { spawnSync } = require('child_process');
    const venv = path.join(h.scratch('words-venv'), 'v');
    const base = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import sys']).status === 0);
    if (base) spawnSync(base, ['-m', 'venv', '--without-pip', venv]);
    const python = path.join(venv, 'bin', 'python');
    const bare =
      fs.existsSync(python) && spawnSync(python, ['-c', 'import coverage']).status !== 0 ? python : undefined;
    if (!bare) return this.skip();
    await config().update('pythonPath', bare, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('testing.coverageAll');
    const report = await e2e.waitFor(() => vscode.commands.executeCommand('hooksmith.lastCoverage'), {
      timeout: 180000,
      what: 'the coverage run',
    });
    assert.match(report.problems.join('\n'), /coverage\.py is not installed/);
    for (const p of report.problems) noFlag(p, 'the coverage problem');
    // The hook table is a list without padded columns: it wraps readably in a narrow panel.
    const hookRows = report.text.split('\n').filter((l) => /^ {2}[✓✗] /.test(l));
    assert.ok(
      hookRows.some((l) => /^ {2}✓ hooks\/tool_hooks\.py::guard_orders \(.+\): \d+ cases?, /.test(l)),
      report.text,
    );
    assert.ok(!hookRows.some((l) => /\S {3,}\S/.test(l)), report.text);
    if (!e2e.canDriveUi()) return;
    const toast = await e2e.waitFor(
      async () => (await toasts()).find((t) => /line coverage was not measured/.test(t)),
      { timeout: h.LONG, what: 'the coverage toast' },
    );
    assert.match(toast, /Install coverage/);
    assert.match(toast, /Choose Interpreter/);
    await vscode.commands.executeCommand('testing.showMostRecentOutput');
    await shot('coverage-without');
  });
});
