// "Hooksmith: Scaffold Hook" with arguments (no questions) and no Python editor active:
// a new module under the agent's hooks/, opened, and clean for the language server.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('scaffold a hook', function () {
  this.timeout(180000);

  const cases = [
    // Mantle: the agent's hooks/ folder; Cayu: the workspace folder, a RuntimeHook subclass.
    {
      target: 'on_tool_result',
      name: 'scaffolded_results',
      dir: ['hooks'],
      shape: /@on_tool_result\(\)\s*\nasync def \w+\(/,
    },
    {
      target: 'after_tool_call',
      name: 'scaffolded_cayu',
      dir: [],
      shape: /class \w+\(RuntimeHook\):[\s\S]*async def after_tool_call\(\s*self, /,
    },
  ];
  for (const { target, name, dir, shape } of cases) {
    it(`${target} into a new module ${name}.py: the file exists and has no diagnostics`, async () => {
      const api = await h.activate();
      await h.waitForHooks(api);
      await h.closeAll();
      const file = h.ws(...dir, `${name}.py`);
      assert.ok(!fs.existsSync(file));
      await vscode.commands.executeCommand('hooksmith.scaffoldHook', { target, name, force: true });
      await e2e.waitFor(() => fs.existsSync(file), { timeout: h.LONG, what: `${file} written` });
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, shape);
      const editor = await e2e.waitFor(
        () => {
          const ed = vscode.window.activeTextEditor;
          return ed && ed.document.uri.fsPath === file ? ed : undefined;
        },
        { timeout: h.LONG, what: 'the new module in the active editor' },
      );
      // Validated: the server lists its hook; and it has no Hooksmith diagnostic.
      await h.waitForHooks(
        api,
        (r) => r.agents.some((a) => a.hooks.some((x) => path.resolve(x.file) === file)),
        { what: `a hook of ${name}.py in the server's list` },
      );
      await h.waitForOurs(editor.document.uri, (d) => d.length === 0);
      assert.deepStrictEqual(h.codeLines(h.ours(editor.document.uri)), []);
    });
  }
});
