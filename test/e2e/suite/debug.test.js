// Debugging (#22) in the real VS Code: "Debug hook" from the CodeLens stops at a breakpoint in the
// hook (the debug session's stack, its variables), continue, the result panel shows the outcome;
// a Debug run from the Testing view stops in a scenario's hook. hooksmith.pythonPath points at an
// interpreter with debugpy (the tests' 'tools' environment, else python3: decided by importing); none:
// skipped, saying so. Without the Python Debugger extension, Hooksmith's own debugger type attaches.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

// The tests' 'tools' environment (npm run test:env), else python3: decided by importing.
const python = h.repoModule('test/python-envs.ts').pythonWith(['debugpy'], { envs: ['tools'] }).python;

/** The next time the debugger stops: its session, top frame (from the session's stack) and locals. */
function nextStop() {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error('the debugger never stopped'))), 120000);
    const sub = vscode.debug.onDidChangeActiveStackItem(async (item) => {
      if (!(item instanceof vscode.DebugStackFrame)) return;
      sub.dispose();
      clearTimeout(timer);
      try {
        const { session, threadId } = item;
        const trace = await session.customRequest('stackTrace', { threadId });
        const top = trace.stackFrames[0];
        const { scopes } = await session.customRequest('scopes', { frameId: top.id });
        const locals = scopes.find((s) => /local/i.test(s.name));
        const { variables } = await session.customRequest('variables', {
          variablesReference: locals.variablesReference,
        });
        resolve({ session, threadId, top, frames: trace.stackFrames, vars: variables });
      } catch (err) {
        reject(err);
      }
    });
  });
}

const lineOf = (file, text) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));

describe('debug a hook, a turn and a test (debugpy)', function () {
  this.timeout(300000);
  before(async function () {
    if (!python) {
      console.log('[e2e] debug: skipped: no Python with debugpy (npm run test:env makes one)');
      this.skip();
    }
    await h.closeAll();
    await h.activate();
    await vscode.workspace
      .getConfiguration('hooksmith')
      .update('pythonPath', python, vscode.ConfigurationTarget.Workspace);
  });
  afterEach(() => vscode.debug.removeBreakpoints(vscode.debug.breakpoints));
  // Later suites of the same window run with the workspace's own interpreter again.
  after(() =>
    vscode.workspace
      .getConfiguration('hooksmith')
      .update('pythonPath', undefined, vscode.ConfigurationTarget.Workspace),
  );

  it('Debug hook from the CodeLens stops at a breakpoint, shows the locals, continues; the panel shows the outcome', async () => {
    const file = h.ws('hooks/tool_hooks.py');
    const uri = vscode.Uri.file(file);
    const line = lineOf(file, 'card_id = str(call.arguments');
    assert.ok(line > 0);
    await vscode.window.showTextDocument(uri);
    const lens = await e2e.waitFor(
      async () =>
        (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri)).find(
          (l) =>
            l.command &&
            l.command.command === 'hooksmith.debugHook' &&
            l.command.arguments[0].handler === 'guard_orders',
        ),
      { timeout: h.LONG, what: 'the Debug hook lens of guard_orders' },
    );
    assert.strictEqual(lens.command.title, '$(debug-alt) Debug hook');
    vscode.debug.addBreakpoints([
      new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(line, 0))),
    ]);
    const stopped = nextStop();
    const running = vscode.commands.executeCommand(lens.command.command, {
      ...lens.command.arguments[0],
      payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
    });
    const at = await stopped;
    assert.strictEqual(at.top.line, line + 1, 'stopped at the breakpoint line');
    assert.strictEqual(at.top.name, 'guard_orders');
    // code-server names the source by its remote URI: compare the workspace-relative tail
    assert.ok(at.top.source.path.endsWith('hooks/tool_hooks.py'), at.top.source.path);
    assert.ok(
      at.frames.every((f) => !/hooksmith_host/.test((f.source && f.source.path) || '')),
      'justMyCode: no frame of the host',
    );
    assert.ok(
      at.vars.some((v) => v.name === 'call'),
      `locals: ${at.vars.map((v) => v.name).join(', ')}`,
    );
    if (e2e.config.screenshots) {
      await vscode.commands.executeCommand('workbench.view.debug');
      // The Variables view with the hook's locals expanded (as a person would click them open)
      if (e2e.canDriveUi())
        await e2e
          .ui({ op: 'click', selector: '.debug-variables .monaco-list-row:has-text("Locals")' })
          .catch((err) => console.log(`[e2e] could not expand Locals: ${err.message}`));
      const shot = path.join(h.scratch('shots'), 'debug-paused-hook.png');
      await h.settledScreenshot(shot, 3000);
      console.log(`[e2e] debug screenshot ${shot}`);
    }
    void at.session.customRequest('continue', { threadId: at.threadId }).then(undefined, () => undefined);
    const result = await running;
    assert.ok(result, 'the command returned a RunResult');
    assert.strictEqual(result.outcome, 'returned');
    assert.strictEqual(result.payload.arguments.card_id, 'card_123');
    assert.strictEqual(result.debug.budgetEnforced, false);
    assert.ok(
      result.notes.some((n) => /budget was not enforced/.test(n)),
      result.notes.join('\n'),
    );
    await e2e.waitFor(
      () => h.webviewTabs('hooksmith.runResult').find((t) => t.label === 'Run: guard_orders'),
      { timeout: h.LONG, what: 'the "Run: guard_orders" result panel' },
    );
    await e2e.waitFor(() => !vscode.debug.activeDebugSession, {
      timeout: h.LONG,
      what: 'the debug session ended',
    });
    // The next normal run starts clean on the shared host, with its budget.
    const plain = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'guard_orders',
      payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
    });
    assert.strictEqual(plain.outcome, 'returned');
    assert.strictEqual(plain.debug, undefined);
  });

  it("a Debug run from the Testing view stops in a scenario's hook", async () => {
    const file = h.ws('hooks/tool_hooks.py');
    const uri = vscode.Uri.file(file);
    const line = lineOf(file, 'if call.tool_name == "place_order" and not');
    vscode.debug.addBreakpoints([
      new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(line, 0))),
    ]);
    const scenario = h.ws('guarded-tools.scenario.yaml');
    await e2e.waitFor(
      async () =>
        (await vscode.commands.executeCommand('hooksmith.testItems')).some(
          (i) => i.label === 'guarded tools',
        ),
      { timeout: h.LONG, what: 'the guarded tools scenario in the Testing view' },
    );
    await vscode.window.showTextDocument(vscode.Uri.file(scenario));
    const stopped = nextStop();
    void vscode.commands.executeCommand('testing.debugAll');
    const at = await stopped;
    assert.strictEqual(at.top.name, 'guard_orders');
    assert.strictEqual(at.top.line, line + 1);
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    void at.session.customRequest('continue', { threadId: at.threadId }).then(undefined, () => undefined);
    const last = await e2e.waitFor(
      async () => {
        const r = await vscode.commands.executeCommand('hooksmith.lastTestRun');
        return Object.entries(r || {}).find(([id]) => id.endsWith('guarded-tools.scenario.yaml::case'));
      },
      { timeout: 120000, what: 'the result of the debugged scenario' },
    );
    assert.strictEqual(last[1].state, 'passed');
    await e2e.waitFor(() => !vscode.debug.activeDebugSession, {
      timeout: h.LONG,
      what: 'the debug session ended',
    });
  });
});
