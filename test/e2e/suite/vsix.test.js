// The packaged extension (launcher `--vsix hooksmith.vsix`): installed into the run's
// extensions folder, it activates from there (not the repo) and its bundled server works.
// Skipped when the suite tests the repo folder (the default).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const e2e = require('./harness');
const vscode = require('vscode');
const h = require('./helpers');

describe('packaged .vsix', function () {
  this.timeout(180000);
  before(function () {
    if (e2e.config.extensionMode !== 'vsix') this.skip();
  });

  it('activates from the extensions folder, not the repo', async () => {
    const ext = e2e.extension();
    assert.ok(ext, `${e2e.config.extensionId} is installed`);
    const dir = path.resolve(ext.extensionPath);
    assert.notStrictEqual(dir, path.resolve(e2e.config.repoRoot), 'not the repo folder');
    // `code --install-extension` unpacks it as <extensions dir>/<publisher>.<name>-<version>.
    assert.strictEqual(path.basename(path.dirname(dir)), 'extensions', `${dir} is in an extensions folder`);
    assert.ok(
      path.basename(dir).startsWith(`${e2e.config.extensionId}-${ext.packageJSON.version}`),
      `${dir} is the installed package`,
    );
    assert.ok(
      fs.existsSync(path.join(dir, 'dist/extension.js')) && fs.existsSync(path.join(dir, 'dist/server.js')),
      'the bundles are in the package',
    );
    const api = await h.activate();
    assert.ok(ext.isActive);
    assert.ok(api.client && api.client.isRunning(), 'its language server runs');
  });

  it('produces a diagnostic for a faulty module', async () => {
    const root = h.copyExampleOutside('faulty-agent', 'faulty-vsix');
    const doc = await h.open(path.join(root, 'hooks/registration.py'));
    const diags = await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'missing-parentheses'));
    assert.ok(h.codeLines(diags).includes('missing-parentheses@22'), h.codeLines(diags).join());
  });

  // Issue #23 item 1: the docs were read from README.md, which vsce ships as readme.md, so every
  // code link opened an empty view. Now each rule's page, docs/rules/<code>.md, is in the package.
  it('ships a documentation page for every rule code of its settings', () => {
    const ext = e2e.extension();
    const codes = ext.packageJSON.contributes.configuration.properties['hooksmith.rules'].propertyNames.enum;
    assert.ok(codes.length > 20, codes.join());
    const missing = codes.filter(
      (c) => !fs.existsSync(path.join(ext.extensionPath, 'docs/rules', `${c}.md`)),
    );
    assert.deepStrictEqual(missing, []);
  });

  /** The rule documentation view's rendered text (code-server), or undefined when the UI cannot be driven. */
  async function shownRulePage(code) {
    if (!e2e.canDriveUi()) return undefined;
    return e2e.waitFor(
      () =>
        e2e
          .ui({
            op: 'eval',
            webview: 'Hooksmith rules',
            fn: String(() => ({
              title: (document.querySelector('h1') || {}).textContent,
              text: document.body.innerText,
            })),
          })
          .then((r) => (r && r.title === code ? r : undefined))
          .catch(() => undefined),
      { timeout: h.LONG, what: `the page of ${code} rendered` },
    );
  }

  function assertRulePage(shown, code, sentence) {
    if (!shown) return;
    assert.strictEqual(shown.title, code);
    for (const heading of ['What it catches', 'Why', 'Spec', 'How to fix'])
      assert.ok(shown.text.includes(heading), heading);
    assert.ok(shown.text.includes(sentence), shown.text.slice(0, 400));
  }

  it('a diagnostic\'s code link and "Show documentation" open the rule\'s page with its text', async () => {
    await h.activate();
    const root = h.copyExampleOutside('faulty-agent', 'faulty-vsix-docs');
    const doc = await h.open(path.join(root, 'hooks/registration.py'));
    const diags = await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'missing-parentheses'));
    const diag = diags.find((x) => h.codeOf(x) === 'missing-parentheses');
    // The code link is the extension's own URI (no raw command: URI in the Problems tooltip);
    // VS Code's opener hands it to the installed extension's URI handler, as a click does.
    const target = diag.code.target;
    assert.strictEqual(target.scheme, vscode.env.uriScheme, target.toString());
    assert.strictEqual(
      target.toString(),
      `${vscode.env.uriScheme}://${e2e.config.extensionId}/rule/missing-parentheses`,
    );
    const failed = await vscode.commands.executeCommand('vscode.open', target).then(
      () => undefined,
      (err) => err,
    );
    await e2e.waitFor(
      () =>
        h.webviewTabs('hooksmith.ruleDocs').find((t) => t.label === 'Hooksmith rule: missing-parentheses'),
      { timeout: h.LONG, what: 'the rule documentation view' },
    );
    const shown = await shownRulePage('missing-parentheses').catch((err) => err);
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'vsix-rule-docs.png'), 1000);
    assert.strictEqual(failed, undefined, `the code link failed: ${failed}`);
    assert.ok(!(shown instanceof Error), String(shown));
    assertRulePage(shown, 'missing-parentheses', 'Parentheses are mandatory');

    // The light bulb's "Show documentation for <code>" runs the same command with another rule.
    const dup = diags.find((x) => h.codeOf(x) !== 'missing-parentheses') || diag;
    const code = h.codeOf(dup);
    const actions = await vscode.commands.executeCommand(
      'vscode.executeCodeActionProvider',
      doc.uri,
      dup.range,
    );
    const show = actions.find((a) => a.title === `Show documentation for ${code}`);
    assert.ok(show && show.command, actions.map((a) => a.title).join(' | '));
    await vscode.commands.executeCommand(show.command.command, ...(show.command.arguments || []));
    await e2e.waitFor(
      () => h.webviewTabs('hooksmith.ruleDocs').find((t) => t.label === `Hooksmith rule: ${code}`),
      { timeout: h.LONG, what: `the documentation of ${code}` },
    );
    const page = fs.readFileSync(
      path.join(e2e.extension().extensionPath, 'docs/rules', `${code}.md`),
      'utf8',
    );
    const why = page.split('## Why\n\n')[1].split('\n')[0].replace(/[`*]/g, '').slice(0, 40);
    assertRulePage(await shownRulePage(code), code, why);
  });

  // Issue #23: the Problems panel printed the code link's command: URI raw in its tooltip. What a user
  // sees there now, and what a click on the code opens.
  it("the Problems panel shows the code link as the rule's URI, and clicking it opens the rule page", async function () {
    if (!e2e.canDriveUi()) this.skip();
    await h.activate();
    const root = h.copyExampleOutside('faulty-agent', 'faulty-vsix-problems');
    const doc = await h.open(path.join(root, 'hooks/registration.py'));
    await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'missing-parentheses'));
    for (const t of h.webviewTabs('hooksmith.ruleDocs')) await vscode.window.tabGroups.close(t);
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    // The earlier tests' problems fill the panel's rendered rows (a virtual list): filtered to the file.
    await vscode.commands.executeCommand('problems.action.focusFilter');
    await e2e.ui({ op: 'type', text: 'registration.py' });
    const link = await e2e.waitFor(
      () =>
        e2e
          .ui({
            op: 'eval',
            fn: String(() => {
              const a = [
                ...document.querySelectorAll('.markers-panel a.monaco-link, .markers-panel .monaco-link'),
              ].find((x) => x.textContent.trim() === 'missing-parentheses');
              return a
                ? { title: a.getAttribute('title') || '', href: a.getAttribute('href') || '' }
                : undefined;
            }),
          })
          .catch(() => undefined),
      { timeout: h.LONG, what: 'the missing-parentheses code link in the Problems panel' },
    );
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'vsix-problems-link.png'), 500);
    assert.ok(!/command:/.test(link.title + link.href), JSON.stringify(link));
    // Its tooltip shows the link's target (the title when set, else the href).
    assert.ok((link.title || link.href).endsWith('/rule/missing-parentheses'), JSON.stringify(link));
    await e2e.ui({
      op: 'click',
      selector: '.markers-panel .monaco-link[href$="/rule/missing-parentheses"]',
    });
    await e2e.waitFor(
      () =>
        h.webviewTabs('hooksmith.ruleDocs').find((t) => t.label === 'Hooksmith rule: missing-parentheses'),
      { timeout: h.LONG, what: 'the rule page opened by the click' },
    );
  });

  // Issue #23: the Getting Started walkthrough's pages are Markdown files; the .vsix must carry them.
  it("carries the Getting Started walkthrough: every step's media is in the package, and Get Started opens it", async () => {
    await h.activate();
    const ext = e2e.extension();
    const w = ext.packageJSON.contributes.walkthroughs.find((x) => x.id === 'getStarted');
    assert.ok(w && w.steps.length >= 5, 'the walkthrough is contributed');
    const missing = w.steps
      .map((st) => st.media.markdown || st.media.image || st.media.svg)
      .filter((f) => !f || !fs.existsSync(path.join(ext.extensionPath, f)));
    assert.deepStrictEqual(missing, [], 'media missing from the package');
    await vscode.commands.executeCommand('hooksmith.getStarted');
    if (!e2e.canDriveUi()) return;
    const title = await e2e.waitFor(
      () =>
        e2e
          .ui({
            op: 'eval',
            fn: String(() => {
              const d = document.querySelector('.gettingStartedContainer .gettingStartedSlideDetails');
              return d && d.offsetParent !== null ? (d.querySelector('h2') || {}).textContent : undefined;
            }),
          })
          .catch(() => undefined),
      { timeout: h.LONG, what: 'the walkthrough drawn' },
    );
    assert.strictEqual(title, 'Get Started with Hooksmith');
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'vsix-walkthrough.png'), 4500);
  });
});
