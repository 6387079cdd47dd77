// Issue 14, items 1 and 5: the quick fixes of a rejected signal never silently disable a guard
// (the allowed signal, message kept, import merged, titled by what it does; removal only under
// its own name); Fix All applies only fixes whose result has no new diagnostic.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const h = require('./helpers');

const GUARD = `from rasa.mantle.hooks import HookRejection, ToolCallPayload, modify_tool_call


@modify_tool_call()
async def block_delete(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "delete_account":
        raise HookRejection("no deletes")
    return call
`;

const RENAME = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call, modify_tool_cal, on_turn_started


@modify_tool_call()
async def a(call: ToolCallPayload) -> ToolCallPayload:
    return call


@modify_tool_cal()
async def b(call: ToolCallPayload) -> ToolCallPayload:
    return call


@on_turn_started
async def started(payload):
    pass
`;

// The lightbulb's answer: asked again until the server has one (a loaded machine can answer a
// request made right after the diagnostics arrived before its analysis of the file is in place).
async function quickFixes(doc, diag) {
  const ask = async () => {
    const actions =
      (await vscode.commands.executeCommand(
        'vscode.executeCodeActionProvider',
        doc.uri,
        diag.range,
        vscode.CodeActionKind.QuickFix.value,
      )) || [];
    const ours = actions.filter(
      (a) => !a.diagnostics || a.diagnostics.some((d) => h.codeOf(d) === h.codeOf(diag)),
    );
    return ours.length ? ours : undefined;
  };
  return require('./harness').waitFor(ask, {
    timeout: 15000,
    interval: 250,
    what: `quick fixes for ${h.codeOf(diag)}`,
  });
}

describe('issue 14: safe quick fixes and Fix All', function () {
  this.timeout(180000);
  let root;
  before(async () => {
    await h.closeAll();
    await h.activate();
    await h.wireWithoutTextPoints(); // @mod sorts the not-wired points last (rasa-pro 3.21 invokes every point)
    root = h.scratch('editor-fixes');
  });
  after(async () => {
    await h.wireAsInstalled();
    await h.closeAll();
  });

  it('a HookRejection in modify_tool_call: "Raise RetryModel instead" keeps the message and merges the import; no silent pass', async () => {
    const file = path.join(root, 'hooks.py');
    fs.writeFileSync(file, GUARD);
    const doc = await h.open(file);
    const [diag] = (
      await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'unsupported-control-signal'))
    ).filter((x) => h.codeOf(x) === 'unsupported-control-signal');
    const fixes = await quickFixes(doc, diag);
    const titles = fixes.map((a) => a.title);
    assert.deepStrictEqual(titles, [
      'Raise RetryModel instead: the model is asked again with this feedback',
      'Remove the rejection: this hook will no longer block anything',
      'Ignore unsupported-control-signal on this line',
      'Ignore unsupported-control-signal in this file',
      'Show documentation for unsupported-control-signal',
    ]);
    assert.ok(!titles.some((t) => /pass/.test(t)), 'no "pass" fix');
    assert.ok(!fixes.some((a) => a.isPreferred), 'neither is applied without asking');
    assert.ok(await vscode.workspace.applyEdit(fixes[0].edit));
    assert.strictEqual(
      doc.getText(),
      // HookRejection had no other use: its import goes; the line Hooksmith rewrote is sorted.
      GUARD.replace(
        'HookRejection, ToolCallPayload, modify_tool_call\n',
        'RetryModel, ToolCallPayload, modify_tool_call\n',
      ).replace('raise HookRejection("no deletes")', 'raise RetryModel("no deletes")'),
    );
    await h.waitForOurs(doc.uri, (d) => !d.some((x) => x.severity === vscode.DiagnosticSeverity.Error));
  });

  it('a HookRejection where the point allows no signal: only "Remove the rejection…", not preferred, and it returns the payload', async () => {
    const file = path.join(h.scratch('editor-fixes-nosignal'), 'hooks.py');
    fs.writeFileSync(
      file,
      'from rasa.mantle.hooks import HookRejection, ModelRequestPayload, modify_model_request\n\n\n@modify_model_request()\nasync def cap_turns(request: ModelRequestPayload) -> ModelRequestPayload:\n    if request.iteration > 5:\n        raise HookRejection("too many turns")\n    return request\n',
    );
    const doc = await h.open(file);
    const [diag] = (
      await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'unsupported-control-signal'))
    ).filter((x) => h.codeOf(x) === 'unsupported-control-signal');
    const fixes = await quickFixes(doc, diag);
    const edits = fixes.filter((a) => a.edit && !/^Ignore /.test(a.title));
    assert.deepStrictEqual(
      edits.map((a) => a.title),
      ['Remove the rejection: this hook will no longer block anything'],
    );
    assert.ok(!fixes.some((a) => a.isPreferred), 'not applied without asking');
    assert.ok(await vscode.workspace.applyEdit(edits[0].edit));
    assert.match(doc.lineAt(6).text, /^\s+return request$/, doc.getText());
    await h.waitForOurs(doc.uri, (d) => !d.some((x) => h.codeOf(x) === 'unsupported-control-signal'));
  });

  it('suppression for the whole file: "Ignore sync-handler in this file" adds the file comment and the error goes', async () => {
    const file = path.join(h.scratch('editor-suppress-file'), 'hooks.py');
    fs.writeFileSync(
      file,
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n@on_turn_started()\ndef started(payload: TurnStartedPayload) -> None:\n    pass\n',
    );
    const doc = await h.open(file);
    const [sync] = (
      await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'sync-handler'))
    ).filter((x) => h.codeOf(x) === 'sync-handler');
    const fix = (await quickFixes(doc, sync)).find((a) => a.title === 'Ignore sync-handler in this file');
    assert.ok(fix && fix.edit);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(doc.getText(), /# hooksmith: ignore-file\[sync-handler\]/);
    await h.waitForOurs(doc.uri, (d) => !d.some((x) => h.codeOf(x) === 'sync-handler'));
    assert.ok(!h.ours(doc.uri).some((x) => h.codeOf(x) === 'unused-suppression'), 'the comment is used');
  });

  it('Fix All does not apply a did-you-mean rename that would create duplicate-modify-hook errors', async () => {
    const file = path.join(h.scratch('editor-fixall'), 'hooks', 'rename.py');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, RENAME);
    const doc = await h.open(file);
    await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'unknown-import'));
    const actions =
      (await vscode.commands.executeCommand(
        'vscode.executeCodeActionProvider',
        doc.uri,
        new vscode.Range(0, 0, 0, 0),
        'source.fixAll.hooksmith',
      )) || [];
    const fixAll = actions.find((a) => a.kind && a.kind.value === 'source.fixAll.hooksmith');
    assert.ok(fixAll && fixAll.edit, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(await vscode.workspace.applyEdit(fixAll.edit));
    assert.match(doc.getText(), /@on_turn_started\(\)/, 'the safe fix applied');
    // The import line may be rewritten whole (sorted, wrapped) by the annotation fixes; the
    // misspelt name stays imported and used.
    assert.match(doc.getText(), /\bmodify_tool_cal\b,[\s\S]*@modify_tool_cal\(\)/, 'the rename not applied');
    await h.waitForOurs(doc.uri, (d) => !d.some((x) => h.codeOf(x) === 'missing-parentheses'));
    assert.ok(
      !h.ours(doc.uri).some((x) => h.codeOf(x) === 'duplicate-modify-hook'),
      h.codeLines(h.ours(doc.uri)).join(),
    );
  });

  it("rule docs open inside VS Code: codeDescription is the extension's rule URI, its rule page is a webview, hovers carry the rule text", async () => {
    const file = path.join(h.scratch('editor-docs'), 'hooks.py');
    fs.writeFileSync(file, GUARD);
    const doc = await h.open(file);
    const [diag] = (
      await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'unsupported-control-signal'))
    ).filter((x) => h.codeOf(x) === 'unsupported-control-signal');
    const target = diag.code.target;
    assert.strictEqual(target.scheme, vscode.env.uriScheme, target.toString());
    assert.strictEqual(target.path, '/rule/unsupported-control-signal');
    const hovers = await vscode.commands.executeCommand(
      'vscode.executeHoverProvider',
      doc.uri,
      diag.range.start,
    );
    assert.match(
      h.hoverText(hovers),
      /\*\*Control signal not allowed at this point\*\* · \[unsupported-control-signal\]\(command:/,
    );
    // What a click on the link does (VS Code's opener hands the app URI to Hooksmith's URI
    // handler): the shipped reference, in a webview, no external site.
    await vscode.commands.executeCommand('vscode.open', target);
    await require('./harness').waitFor(
      () =>
        h
          .webviewTabs('hooksmith.ruleDocs')
          .find((t) => t.label === 'Hooksmith rule: unsupported-control-signal'),
      { timeout: h.LONG, what: 'the rule reference webview' },
    );
    const e2e = require('./harness');
    if (e2e.canDriveUi()) {
      // On screen: the rule's own page (docs/rules/unsupported-control-signal.md), its text rendered.
      const shown = await e2e.waitFor(
        () =>
          e2e
            .ui({
              op: 'eval',
              webview: 'Hooksmith rules',
              selector: 'h1#unsupported-control-signal',
              fn: String(() => ({
                title: document.querySelector('h1').textContent,
                headings: [...document.querySelectorAll('h2')].map((x) => x.textContent),
                text: document.body.innerText,
              })),
            })
            .catch(() => undefined),
        { timeout: h.LONG, what: 'the rule page rendered' },
      );
      assert.strictEqual(shown.title, 'unsupported-control-signal');
      assert.deepStrictEqual(shown.headings.slice(0, 4), ['What it catches', 'Why', 'Spec', 'How to fix']);
      assert.match(shown.text, /Control signal not allowed at this point/);
    }
    await h.settledScreenshot(
      path.join(require('./harness').config.repoRoot, 'test-output', 'editor-rule-docs.png'),
    );
  });

  it('suppression: "Ignore sync-handler on this line" adds the comment and the error goes; an unused one is information', async () => {
    const file = path.join(h.scratch('editor-suppress'), 'hooks.py');
    fs.writeFileSync(
      file,
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n@on_turn_started()\ndef started(payload: TurnStartedPayload) -> None:\n    pass  # hooksmith: ignore[blocking-call]\n',
    );
    const doc = await h.open(file);
    const diags = await h.waitForOurs(doc.uri, (d) =>
      ['sync-handler', 'unused-suppression'].every((c) => d.some((x) => h.codeOf(x) === c)),
    );
    const unused = diags.find((x) => h.codeOf(x) === 'unused-suppression');
    assert.strictEqual(unused.severity, vscode.DiagnosticSeverity.Information);
    assert.deepStrictEqual(unused.tags, [vscode.DiagnosticTag.Unnecessary]);
    const sync = diags.find((x) => h.codeOf(x) === 'sync-handler');
    const fixes = await quickFixes(doc, sync);
    const ignore = fixes.find((a) => a.title === 'Ignore sync-handler on this line');
    assert.ok(ignore, JSON.stringify(fixes.map((a) => a.title)));
    assert.ok(fixes.some((a) => a.title === 'Ignore sync-handler in this file'));
    assert.ok(await vscode.workspace.applyEdit(ignore.edit));
    assert.match(doc.lineAt(sync.range.start.line).text, / {2}# hooksmith: ignore\[sync-handler\]$/);
    await h.waitForOurs(doc.uri, (d) => !d.some((x) => h.codeOf(x) === 'sync-handler'));
    await h.settledScreenshot(
      path.join(require('./harness').config.repoRoot, 'test-output', 'editor-suppression.png'),
    );
  });

  it('scaffold snippets merge their imports (a completion item with an additional edit); @mod lists wired points first', async () => {
    const file = path.join(h.scratch('editor-snippets'), 'hooks.py');
    fs.writeFileSync(
      file,
      'from rasa.mantle.hooks import (\n    ToolCallPayload,\n    modify_tool_call,\n)\n\n\n@modify_tool_call()\nasync def guard(call: ToolCallPayload) -> ToolCallPayload:\n    return call\n\n\nhook-modify-tool-r\n',
    );
    const doc = await h.open(file);
    await h.waitForOurs(doc.uri, () => true);
    const list = await vscode.commands.executeCommand(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(11, 18),
    );
    const item = list.items.find(
      (i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'hook-modify-tool-result',
    );
    assert.ok(item, h.labels(list).slice(0, 20).join(', '));
    const edit = new vscode.WorkspaceEdit();
    for (const e of item.additionalTextEdits || []) edit.replace(doc.uri, e.range, e.newText);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const head = doc.getText().split(')\n')[0];
    assert.match(head, /ToolResultPayload,/);
    assert.match(head, /modify_tool_result,/);
    assert.strictEqual((doc.getText().match(/^from /gm) || []).length, 1, doc.getText());
    // Plain VS Code snippets (which paste import lines at the cursor) are no longer contributed.
    assert.strictEqual(require('./harness').extension().packageJSON.contributes.snippets, undefined);
    // @mod: the wired modify_model_request sorts before the not-wired modify_incoming_message.
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('hook-modify-tool-r'));
    const retype = new vscode.WorkspaceEdit();
    retype.replace(doc.uri, doc.lineAt(line).range, '@mod');
    assert.ok(await vscode.workspace.applyEdit(retype));
    const mods = await vscode.commands.executeCommand(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(line, 4),
    );
    const sorted = mods.items
      .filter((i) => String(typeof i.label === 'string' ? i.label : i.label.label).startsWith('modify_'))
      .sort((a, b) => String(a.sortText).localeCompare(String(b.sortText)))
      .map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(
      sorted.indexOf('modify_model_request') < sorted.indexOf('modify_incoming_message'),
      sorted.join(', '),
    );
  });

  it('small things: plain quick-fix titles, the fail policy said once in a hover, Cayu messages styled like Mantle ones', async () => {
    const root = h.scratch('editor-small');
    const file = path.join(root, 'hooks.py');
    fs.writeFileSync(
      file,
      'from rasa.mantle.hooks import ToolCallPayload, modify_tool_call, on_turn_started\n\n\n@on_turn_started\nasync def started(payload) -> None:\n    pass\n\n\n@modify_tool_call()\nasync def guard(call: ToolCallPayload) -> ToolCallPayload:\n    return call\n',
    );
    const doc = await h.open(file);
    const [diag] = (
      await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'missing-parentheses'))
    ).filter((x) => h.codeOf(x) === 'missing-parentheses');
    const titles = (await quickFixes(doc, diag)).map((a) => a.title);
    assert.ok(titles.includes('Add ()'), JSON.stringify(titles));
    assert.ok(!titles.some((t) => t.includes('`')), JSON.stringify(titles));
    const hover = h.hoverText(
      await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, new vscode.Position(8, 3)),
    );
    assert.match(hover, /\| Fail policy \| fail-closed: /);
    assert.ok(!/fail-closed: fail-closed/.test(hover), hover);
    const cayu = path.join(root, 'runtime_hooks.py');
    fs.writeFileSync(
      cayu,
      'from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook\n\n\nclass Guard(RuntimeHook):\n    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:\n        return BeforeToolCallDecision(action="block")\n',
    );
    const cdoc = await h.open(cayu);
    const [c] = (
      await h.waitForOurs(cdoc.uri, (d) => d.some((x) => h.codeOf(x) === 'cayu-decision-fields'))
    ).filter((x) => h.codeOf(x) === 'cayu-decision-fields');
    assert.strictEqual(
      c.message,
      '`action="block"` requires `block_reason`: constructing it raises ValidationError inside the hook: the runtime logs the failure and goes on as if the hook returned None (a guard lets the call run unguarded).',
    );
  });
});
