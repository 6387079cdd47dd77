// A cross-file rule: a second @modify_tool_call module in the clean agent makes
// duplicate-modify-hook appear in both files; deleting the second module clears it.
'use strict';
const assert = require('assert');
const vscode = require('vscode');
const h = require('./helpers');

describe('cross-file duplicate-modify-hook', function () {
  this.timeout(180000);
  before(() => h.activate());
  after(() => h.closeAll());

  it('appears in both modules and disappears when the second is deleted', async () => {
    const first = await h.open(h.ws('hooks/tool_hooks.py'));
    await h.waitForOurs(first.uri, (d) => d.length === 0);
    const file = h.ws('hooks/second_guard.py');
    await h.writeFile(
      file,
      [
        '"""A second modify hook at the tool_call point."""',
        'from rasa.mantle.hooks import ToolCallPayload, modify_tool_call',
        '',
        '',
        '@modify_tool_call()',
        'async def second_guard(call: ToolCallPayload) -> ToolCallPayload:',
        '    return call',
        '',
      ].join('\n'),
    );
    // Not opened: the server picks the new file up from disk (file watcher), as after a git pull.
    const second = { uri: vscode.Uri.file(file) };
    const dup = (d) => d.some((x) => h.codeOf(x) === 'duplicate-modify-hook');
    const inSecond = await h.waitForOurs(second.uri, dup);
    assert.deepStrictEqual(h.codeLines(inSecond), ['duplicate-modify-hook@5']);
    const inFirst = await h.waitForOurs(first.uri, dup);
    const line =
      first
        .getText()
        .split('\n')
        .findIndex((l) => l.startsWith('@modify_tool_call')) + 1;
    assert.deepStrictEqual(h.codeLines(inFirst), [`duplicate-modify-hook@${line}`]);
    const related = inFirst[0].relatedInformation || [];
    assert.ok(
      related.some((r) => r.location.uri.fsPath === file),
      'the diagnostic points at the other registration',
    );

    await vscode.workspace.fs.delete(vscode.Uri.file(file));
    await h.waitForOurs(first.uri, (d) => !dup(d));
    assert.deepStrictEqual(h.codeLines(h.ours(first.uri)), []);
    await h.waitForOurs(second.uri, (d) => d.length === 0);
  });
});
