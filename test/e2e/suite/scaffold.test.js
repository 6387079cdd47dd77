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
      await vscode.commands.executeCommand('hooksmith.scaffoldHook', {
        target,
        name,
        force: true,
        agent: e2e.workspacePath(),
      });
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

  // Issue #23 item 6: with no file open, the module went to the workspace folder, which made the
  // folder an agent. The agent is asked: the ones found, a new folder, the workspace folder only
  // when it already is one; the name question says where the module is written.
  it('asks for the agent folder: found agents and "New agent folder…"; a new folder gets hooks/<name>.py', async function () {
    if (!e2e.canDriveUi()) this.skip();
    const api = await h.activate();
    await h.waitForHooks(api, (r) => r.agents.some((a) => a.hooks.length));
    await h.closeAll();
    const quick = () =>
      e2e.ui({
        op: 'eval',
        fn: String(() => {
          const w = document.querySelector('.quick-input-widget');
          if (!w || w.style.display === 'none') return null;
          return {
            title: (w.querySelector('.quick-input-title') || {}).textContent || '',
            rows: [...w.querySelectorAll('.monaco-list-row')].map((r) =>
              r.innerText.replace(/\s+/g, ' ').trim(),
            ),
            message: (w.querySelector('.quick-input-message') || {}).textContent || '',
            prompt: (w.querySelector('.quick-input-box input') || {}).placeholder || '',
          };
        }),
      });
    const done = Promise.resolve(
      vscode.commands.executeCommand('hooksmith.scaffoldHook', { target: 'on_tool_result' }),
    );
    done.catch(() => undefined);
    const pick = await e2e.waitFor(
      async () => {
        const q = await quick();
        return q && q.title.includes('agent folder') && q.rows.length ? q : undefined;
      },
      { timeout: h.LONG, what: 'the agent question' },
    );
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'scaffold-agent-pick.png'), 300);
    assert.match(
      pick.rows[0],
      /^\.\s*the workspace folder · Mantle \+ Cayu · \d+ hooks/,
      pick.rows.join(' | '),
    );
    assert.ok(
      pick.rows.some((r) => r.startsWith('New agent folder…')),
      pick.rows.join(' | '),
    );
    await e2e.ui({ op: 'type', text: 'New agent folder' });
    await e2e.ui({ op: 'press', key: 'Enter' });
    await e2e.waitFor(async () => ((await quick()) || { title: '' }).title.includes('new agent folder'), {
      timeout: h.LONG,
      what: 'the new agent folder question',
    });
    await e2e.ui({ op: 'press', key: 'Control+A' });
    await e2e.ui({ op: 'type', text: 'agents/support' });
    await e2e.ui({ op: 'press', key: 'Enter' });
    const named = await e2e.waitFor(
      async () => {
        const q = await quick();
        return q && q.title.includes('new hook module') ? q : undefined;
      },
      { timeout: h.LONG, what: 'the module name question' },
    );
    await h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', 'scaffold-agent-where.png'), 300);
    assert.ok(
      (named.message + named.prompt).includes('agents/support/hooks/'),
      `says where it writes: ${JSON.stringify(named)}`,
    );
    await e2e.ui({ op: 'press', key: 'Enter' });
    await done;
    const dir = h.ws('agents', 'support', 'hooks');
    const written = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    assert.strictEqual(written.length, 1, written.join());
    assert.match(fs.readFileSync(path.join(dir, written[0]), 'utf8'), /@on_tool_result\(\)/);
    assert.ok(!fs.existsSync(h.ws(written[0])), 'nothing in the workspace folder itself');
  });
});
