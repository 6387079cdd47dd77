// Scenario files in a real VS Code (#23 items 10 and 9): a scenario typed with a misspelt key gets
// Hooksmith's own diagnostic at the key (no YAML extension is installed), its quick fix renames
// the key and the diagnostic goes; a hook module shows one CodeLens row per hook, Run · Debug ·
// Fuzz · facts, on the same line for Mantle and Cayu (screenshots of both).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const codeOf = (d) => (d.code && typeof d.code === 'object' ? String(d.code.value) : String(d.code));

describe('Scenario files and lens rows', function () {
  this.timeout(180000);
  let root;
  before(async () => {
    await h.closeAll();
    await h.activate();
    root = h.copyExample('clean-agent', 'case-files-agent');
  });
  after(async () => {
    await h.closeAll();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("a misspelt scenario key is Hooksmith's error at the key; the quick fix renames it", async () => {
    assert.ok(!vscode.extensions.getExtension('redhat.vscode-yaml'), 'no YAML extension in this VS Code');
    const file = path.join(root, 'typo.scenario.yaml');
    const text = [
      'user: show my orders',
      'completions:',
      '  - txt: Here they are.',
      'expect:',
      '  hook_outcome: { hook: guard_ordrs, outcome: returned }',
      '',
    ].join('\n');
    fs.writeFileSync(file, text);
    const doc = await h.open(file);
    const diags = await h.waitForOurs(doc.uri, (d) => d.some((x) => codeOf(x) === 'case-unknown-key'));
    const key = diags.find((x) => codeOf(x) === 'case-unknown-key');
    assert.strictEqual(key.message, "unknown key 'txt' (did you mean 'text'?)");
    assert.strictEqual(key.severity, vscode.DiagnosticSeverity.Error);
    assert.deepStrictEqual(
      [key.range.start.line, key.range.start.character, key.range.end.character],
      [2, 4, 7],
    );
    if (e2e.config.screenshots) {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      const shot = path.join(h.scratch('shots'), 'scenario-diagnostics.png');
      await h.settledScreenshot(shot, 1500);
      console.log(`[e2e] scenario diagnostics screenshot ${shot}`);
    }
    const actions = await vscode.commands.executeCommand(
      'vscode.executeCodeActionProvider',
      doc.uri,
      key.range,
    );
    const fix = actions.find((a) => a.title === "Change to 'text'");
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(doc.getText(), /^ {2}- text: Here they are\.$/m);
    // The file is valid now: the misspelt hook name is the warning left, with the name meant.
    const after = await h.waitForOurs(
      doc.uri,
      (d) => !d.some((x) => codeOf(x) === 'case-unknown-key') && d.length > 0,
    );
    assert.deepStrictEqual(
      after.map((x) => [codeOf(x), x.severity, x.message]),
      [
        [
          'case-unknown-hook',
          vscode.DiagnosticSeverity.Warning,
          "no hook 'guard_ordrs' in the agent (did you mean 'guard_orders'?)",
        ],
      ],
    );
  });

  async function rows(file) {
    const doc = await h.open(file);
    const lenses = await e2e.waitFor(
      async () => {
        const l = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri);
        return l && l.some((x) => x.command && x.command.title === 'Fuzz hook') ? l : undefined;
      },
      { timeout: h.LONG, interval: 500, what: `the lenses of ${path.basename(file)}` },
    );
    const byLine = new Map();
    for (const l of lenses) {
      const line = l.range.start.line;
      byLine.set(line, [...(byLine.get(line) || []), l.command.title]);
    }
    return { doc, byLine };
  }

  /** A picture of the rows: the first hook's row at the top of the editor, the panel closed. */
  async function shootRows(doc, byLine, name) {
    if (!e2e.config.screenshots) return;
    await vscode.commands.executeCommand('workbench.action.closePanel');
    const first = Math.min(...byLine.keys());
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    editor.revealRange(new vscode.Range(first, 0, first, 0), vscode.TextEditorRevealType.AtTop);
    const shot = path.join(h.scratch('shots'), name);
    await h.settledScreenshot(shot, 1500);
    console.log(`[e2e] lens row screenshot ${shot}`);
  }

  it('Mantle and Cayu hooks: one row per hook, Run · Debug · Fuzz · facts, above the decorators', async () => {
    const mantle = await rows(path.join(root, 'hooks', 'tool_hooks.py'));
    const lines = mantle.doc.getText().split('\n');
    for (const [line, titles] of mantle.byLine) {
      const row = titles.filter((t) => !t.startsWith('▶ Run all'));
      assert.deepStrictEqual(
        row.slice(0, 3),
        ['▶ Run hook', '$(debug-alt) Debug hook', 'Fuzz hook'],
        `line ${line + 1}`,
      );
      assert.match(row[3], /^\w+ · (modify|observe) · \d+ ms/);
      assert.strictEqual(row.length, 4);
      assert.match(lines[line], /^@/, `line ${line + 1} is the first decorator`);
    }
    await shootRows(mantle.doc, mantle.byLine, 'lens-row-mantle.png');
    const cayu = await rows(path.join(root, 'runtime_hooks.py'));
    const cayuLines = cayu.doc.getText().split('\n');
    assert.ok(cayu.byLine.size >= 5, [...cayu.byLine.keys()].join(','));
    for (const [line, titles] of cayu.byLine) {
      const row = titles.filter((t) => !t.startsWith('▶ Run all'));
      assert.deepStrictEqual(
        row.slice(0, 3),
        ['▶ Run hook', '$(debug-alt) Debug hook', 'Fuzz hook'],
        `line ${line + 1}`,
      );
      assert.match(row[3], /^phase · /);
      assert.match(cayuLines[line], /^\s+async def /, `line ${line + 1} is the method`);
    }
    await shootRows(cayu.doc, cayu.byLine, 'lens-row-cayu.png');
  });
});
