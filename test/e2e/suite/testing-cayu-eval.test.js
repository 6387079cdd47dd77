// A Cayu eval corpus (`*.cayu-eval.json`, cayu 0.15) in the Testing view: the file under its
// agent, one item per corpus case (at its line), each case's assertions as its children (at
// theirs; the kinds Hooksmith does not check said so), a malformed corpus an item in error. Run
// from the view (the file item, a case item, Run All): with no model every case is skipped
// "needs a model" naming the hooksmith.model setting, never passed; with the setting (a local
// Chat Completions server plays the agent) a case run alone passes or fails at the assertion's
// line, and Run All runs the corpus too. Editing and deleting the file keeps the items in step.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const KEY_ENV = 'HOOKSMITH_E2E_CAYU_EVAL_KEY';
const items = () => vscode.commands.executeCommand('hooksmith.testItems');
const lastRun = () => vscode.commands.executeCommand('hooksmith.lastTestRun');

describe('Testing view: a Cayu eval corpus', function () {
  this.timeout(240000);
  const config = () => vscode.workspace.getConfiguration('hooksmith');
  const { startChatServer } = h.repoModule('test/runtime/fixtures/chat-server.ts');
  let server;
  let agent;
  let corpus;
  let lines;
  /** The 1-based line of the assertion `{ … "id": "<id>" … }` (a flat object: no `{` between). */
  const assertionLine = (id) => {
    let i = lines.findIndex((l) => l.trim() === `"id": "${id}",`);
    while (lines[i].trim() !== '{') i--;
    return i + 1;
  };

  /** Runs the innermost test item at `at` in the corpus's editor (the workbench's Run Test at Cursor). */
  const atCursor = async (at) => {
    const editor = await vscode.window.showTextDocument(await h.open(corpus, { show: false }));
    editor.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand('testing.runAtCursor');
  };

  before(async () => {
    await h.closeAll();
    await h.activate();
    agent = h.ws('cayu-eval-agent');
    fs.mkdirSync(agent, { recursive: true });
    const repo = (...p) => path.join(e2e.config.repoRoot, ...p);
    fs.copyFileSync(repo('examples/cayu-agent/runtime_hooks.py'), path.join(agent, 'runtime_hooks.py'));
    corpus = path.join(agent, 'support.cayu-eval.json');
    fs.copyFileSync(repo('test/fixtures/cayu-eval/support.cayu-eval.json'), corpus);
    fs.writeFileSync(path.join(agent, 'broken.cayu-eval.json'), '{"schema_version": 3, "cases": []}\n');
    lines = fs.readFileSync(corpus, 'utf8').split('\n');
    // The agent greets; it never calls a tool.
    server = await startChatServer(() => ({ text: 'Hello! How can I help?' }));
    process.env[KEY_ENV] = 'sk-e2e-cayu-eval-3c9';
    await config().update('model', undefined, vscode.ConfigurationTarget.Workspace);
  });
  after(async () => {
    for (const k of ['model', 'modelRecord'])
      await config().update(k, undefined, vscode.ConfigurationTarget.Workspace);
    delete process.env[KEY_ENV];
    await server?.close().catch(() => undefined);
    // The agent sits inside the shared workspace: later suites' Run All must not meet it.
    if (agent) fs.rmSync(agent, { recursive: true, force: true });
  });

  it('lists the corpus under its agent: one item per case, its assertions as children, each at its line', async () => {
    const list = await e2e.waitFor(
      async () => {
        const l = await items();
        return l &&
          l.some((i) => i.id === `${corpus}#looks-up`) &&
          l.some((i) => i.id.endsWith('broken.cayu-eval.json'))
          ? l
          : undefined;
      },
      { timeout: h.LONG, what: 'the corpus cases in the Testing view' },
    );
    const byId = (id) => list.find((i) => i.id === id);
    assert.strictEqual(byId(corpus).depth, 1, 'agent → file');
    const greets = byId(`${corpus}#greets`);
    const looksUp = byId(`${corpus}#looks-up`);
    assert.deepStrictEqual(
      [greets.label, greets.depth, looksUp.label, looksUp.depth],
      ['greets the user', 2, 'looks the customer up', 2],
    );
    // Each case on its own `{` in `cases` (the CLI reports the same lines).
    assert.deepStrictEqual([greets.line, looksUp.line], [3, 45]);
    assert.strictEqual(lines[looksUp.line - 1].trim(), '{');
    const children = (id) =>
      list.filter((i) => i.id.startsWith(`${id}/`)).map((i) => [i.label, i.line, i.depth]);
    assert.deepStrictEqual(children(`${corpus}#looks-up`), [
      ['tool_called lookup', assertionLine('lookup'), 3],
      ['tools_called_in_order order', assertionLine('order'), 3],
      ['usage_recorded usage (not checked)', assertionLine('usage'), 3],
    ]);
    assert.deepStrictEqual(
      children(`${corpus}#greets`).map(([label]) => label),
      ['root_status done', 'final_output_contains hi', 'max_tool_calls no-tools (not checked)'],
    );
    const broken = list.find((i) => i.id.endsWith('broken.cayu-eval.json'));
    assert.match(broken.error || '', /schema_version: expected 4/, JSON.stringify(broken));
  });

  it('Run (the file) with no model: every case skipped, "needs a model" naming the hooksmith.model setting', async () => {
    // The file item: the test at the cursor on line 1 (its cases start below). Run Tests in Current
    // File sometimes started no run after other suites' runs in the same window (models.test.js).
    await atCursor(new vscode.Position(0, 0));
    const last = await e2e.waitFor(
      async () => {
        const r = await lastRun();
        return r && r[`${corpus}#greets`] && r[`${corpus}#looks-up`] ? r : undefined;
      },
      { timeout: 120000, what: 'the results of the corpus run' },
    );
    for (const id of [`${corpus}#greets`, `${corpus}#looks-up`]) {
      assert.strictEqual(last[id].state, 'skipped', JSON.stringify(last[id]));
      assert.match(last[id].message, /^needs a model: .*the hooksmith\.model setting/);
      assert.doesNotMatch(last[id].message, /--model/);
      assert.match(last[id].output, /SKIPPED .*support\.cayu-eval\.json::/);
    }
    // No assertion passed: every item under the file is skipped.
    const under = Object.entries(last).filter(([id]) => id.startsWith(`${corpus}#`));
    assert.deepStrictEqual(
      under.filter(([, r]) => r.state !== 'skipped').map(([id]) => id),
      [],
    );
    assert.strictEqual(last[`${corpus}#looks-up/cases/1/assertions/0`].line, assertionLine('lookup'));
  });

  it('with hooksmith.model, a case run alone fails at its assertion; unchecked kinds stay skipped', async () => {
    const model = { base_url: server.baseUrl, model: 'fixture-model', api_key_env: KEY_ENV };
    await config().update('model', model, vscode.ConfigurationTarget.Workspace);
    await config().update('modelRecord', 'missing', vscode.ConfigurationTarget.Workspace);
    await atCursor(new vscode.Position(44, 0)); // line 45: the looks-up case's `{`
    const last = await e2e.waitFor(
      async () => {
        const r = await lastRun();
        return r && r[`${corpus}#looks-up`] && r[`${corpus}#looks-up`].state !== 'skipped' ? r : undefined;
      },
      { timeout: 120000, what: 'the looks-up case played with the model' },
    );
    assert.strictEqual(last[`${corpus}#greets`], undefined, 'only the case at the cursor ran');
    const c = last[`${corpus}#looks-up`];
    assert.strictEqual(c.state, 'failed', c.output);
    const lookup = last[`${corpus}#looks-up/cases/1/assertions/0`];
    assert.deepStrictEqual([lookup.state, lookup.line], ['failed', assertionLine('lookup')]);
    assert.strictEqual(lookup.message, 'tool_called lookup');
    assert.match(lookup.actual, /no tool ran/);
    const message = c.messages.find((m) => m.message.startsWith('tool_called lookup:'));
    assert.deepStrictEqual(
      [path.basename(message.file), message.line],
      ['support.cayu-eval.json', assertionLine('lookup')],
    );
    const usage = last[`${corpus}#looks-up/cases/1/assertions/2`];
    assert.strictEqual(usage.state, 'skipped');
    assert.match(usage.message, /^not checked: usage_recorded/);
    // Both user messages in one request, as cayu eval sends a case: the agent answers once.
    assert.strictEqual(server.seen.length, 1, 'one model request for the case');
    const users = server.seen[0].body.messages.filter((m) => m.role === 'user').map((m) => m.content);
    assert.deepStrictEqual(users, ['Who am I?', 'And my orders?']);
  });

  it("a failed case's Open Timeline shows the turn its run played: the case's own, no Re-run of the file", async () => {
    const c = (await lastRun())[`${corpus}#looks-up`];
    // Its messages offer the timeline (package.json testing/message/context), not Re-record.
    assert.deepStrictEqual([...new Set(c.messages.map((m) => m.contextValue))], ['hooksmith.corpusFailure']);
    const before = server.seen.length;
    await vscode.commands.executeCommand('hooksmith.openTestTimeline', {
      id: `${corpus}#looks-up`,
      uri: vscode.Uri.file(corpus),
    });
    const shown = await e2e.waitFor(
      async () => {
        const s = await vscode.commands.executeCommand('hooksmith.lastSimulation');
        return s && s.file === corpus && s.result ? s : undefined;
      },
      { timeout: h.LONG, what: "the case's timeline" },
    );
    const users = shown.result.transcript.filter((t) => t.role === 'user').map((t) => t.text);
    assert.deepStrictEqual(users.length, 2, JSON.stringify(users));
    assert.strictEqual(server.seen.length, before, 'shown as it was, not played again');
    assert.doesNotMatch(shown.html, /data-action="rerun"/, 'a corpus is no scenario to play again');
    await h.settledScreenshot(
      path.join(e2e.config.repoRoot, 'test-output', 'testing-cayu-eval-timeline.png'),
      1000,
    );
  });

  it('Run All runs the corpus with the rest: greets passes, looks-up fails', async () => {
    await vscode.commands.executeCommand('testing.runAll');
    const last = await e2e.waitFor(
      async () => {
        const r = await lastRun();
        return r &&
          r[`${corpus}#greets`] &&
          r[`${corpus}#looks-up`] &&
          Object.keys(r).some((id) => id.endsWith('::case'))
          ? r
          : undefined;
      },
      { timeout: 180000, what: 'the results of Run All' },
    );
    assert.strictEqual(last[`${corpus}#greets`].state, 'passed', last[`${corpus}#greets`].output);
    assert.strictEqual(last[`${corpus}#greets/cases/0/assertions/0`].state, 'passed');
    assert.strictEqual(last[`${corpus}#greets/cases/0/assertions/2`].state, 'skipped', 'never passed');
    assert.strictEqual(last[`${corpus}#looks-up`].state, 'failed');
  });

  it('keeps in step: a case taken out of the file goes, the deleted file takes its items', async () => {
    const doc = JSON.parse(fs.readFileSync(corpus, 'utf8'));
    doc.cases = doc.cases.filter((c) => c.id !== 'greets');
    fs.writeFileSync(corpus, JSON.stringify(doc, null, 2));
    await e2e.waitFor(
      async () => {
        const l = await items();
        return (
          l && !l.some((i) => i.id === `${corpus}#greets`) && l.some((i) => i.id === `${corpus}#looks-up`)
        );
      },
      { timeout: h.LONG, what: 'the greets case gone, looks-up still listed' },
    );
    fs.rmSync(corpus);
    await e2e.waitFor(
      async () => {
        const l = await items();
        return l && !l.some((i) => i.id.startsWith(corpus));
      },
      { timeout: h.LONG, what: 'the deleted corpus gone from the view' },
    );
  });
});
