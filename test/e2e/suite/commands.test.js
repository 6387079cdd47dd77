// Every command Hooksmith contributes, used the way a person would: each id of package.json
// `contributes.commands` is registered; "Re-run Last Hook" re-reads the edited sample;
// "Show Output" reveals the Hooksmith channel; the explorer's Refresh asks the server again
// and its "Run Hook" item (a real tree node) runs the hook. runHook, simulateTurn,
// scaffoldHook and restartServer have their own files; here they only count as registered.
// Sorted first (commands < simulate): it leaves the workspace as it found it.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const contributed = () =>
  JSON.parse(
    fs.readFileSync(path.join(e2e.config.repoRoot, 'package.json'), 'utf8'),
  ).contributes.commands.map((c) => c.command);
const handlersOf = (r) => (r ? r.agents.flatMap((a) => a.hooks.map((x) => x.handler)) : []);

describe('every contributed command', function () {
  this.timeout(180000);
  let api;
  before(async () => {
    await h.closeAll();
    api = await h.activate();
    await h.waitForHooks(api, (r) => handlersOf(r).includes('guard_orders'));
  });

  it('each command id of package.json contributes.commands is registered in the running extension', async () => {
    const ids = contributed();
    assert.ok(ids.length >= 8, `package.json lists the commands: ${ids}`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = ids.filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, [], 'contributed but not registered');
    // And the extension's own list (api.commands) covers them: no id registered by another extension.
    assert.deepStrictEqual(
      ids.filter((id) => !api.commands.includes(id)),
      [],
      `api.commands: ${api.commands}`,
    );
  });

  describe('hooksmith.rerunLastHook', () => {
    const file = () => h.ws('hooks/tool_hooks.py');
    let payloadFile;
    before(() => {
      // Outside .hooksmith/payloads: a second tool_call sample there would make later runs ask which one.
      payloadFile = path.join(h.scratch('commands-rerun'), 'place-order.json');
      fs.copyFileSync(h.ws('.hooksmith/payloads/tool_call.json'), payloadFile);
    });

    it('before any run it returns nothing (and says so)', async function () {
      if (await vscode.commands.executeCommand('hooksmith.lastHookRun')) this.skip(); // another file ran a hook first
      assert.strictEqual(await vscode.commands.executeCommand('hooksmith.rerunLastHook'), undefined);
    });

    it('re-runs the same handler on the same payload file, re-read after an edit', async () => {
      const first = await vscode.commands.executeCommand('hooksmith.runHook', {
        file: file(),
        handler: 'guard_orders',
        payloadFile,
      });
      assert.ok(first, 'runHook returned a RunResult');
      assert.strictEqual(first.outcome, 'returned', JSON.stringify(first.error));
      assert.strictEqual(first.payload.arguments.card_id, 'card_123');

      const again = await vscode.commands.executeCommand('hooksmith.rerunLastHook');
      assert.ok(again, 'rerunLastHook returned a RunResult');
      assert.notStrictEqual(again, first, 'a new run, not the cached result');
      assert.strictEqual(again.handler, 'guard_orders');
      assert.strictEqual(again.point, first.point);
      assert.strictEqual(again.outcome, 'returned');
      assert.deepStrictEqual(again.payload, first.payload);

      // The person edits the saved sample (drops card_id) and re-runs: the guard now asks the model to retry.
      const sample = JSON.parse(fs.readFileSync(payloadFile, 'utf8'));
      delete sample.arguments.card_id;
      await h.writeFile(payloadFile, JSON.stringify(sample, null, 2));
      const edited = await vscode.commands.executeCommand('hooksmith.rerunLastHook');
      assert.ok(edited, 'rerunLastHook returned a RunResult');
      assert.strictEqual(edited.handler, 'guard_orders');
      assert.strictEqual(edited.outcome, 'retry-model', JSON.stringify(edited));
      assert.strictEqual(edited.signal && edited.signal.type, 'RetryModel');
      assert.strictEqual(edited.signal.feedback, 'Call place_order with a card_id.');
      assert.strictEqual(edited.inputPayload.arguments.card_id, undefined, 'the edited payload was used');

      const last = await vscode.commands.executeCommand('hooksmith.lastHookRun');
      assert.strictEqual(last.handler, 'guard_orders');
      assert.strictEqual(last.file, file());
      assert.strictEqual(last.payloadFile, payloadFile);
      assert.strictEqual(last.result.outcome, 'retry-model');
      await e2e.waitFor(
        () => h.webviewTabs('hooksmith.runResult').find((t) => t.label === 'Run: guard_orders'),
        { timeout: h.LONG, what: 'the "Run: guard_orders" result panel' },
      );
    });

    it('a malformed edit gives no result and keeps the last run', async () => {
      await h.writeFile(payloadFile, '{ "tool_name": "place_order", ');
      const result = await vscode.commands.executeCommand('hooksmith.rerunLastHook');
      assert.strictEqual(result, undefined, 'no RunResult for a payload that is not JSON');
      const last = await vscode.commands.executeCommand('hooksmith.lastHookRun');
      assert.strictEqual(last.handler, 'guard_orders');
      assert.strictEqual(last.result.outcome, 'retry-model', 'the last good run is still the last run');
      // Fixed again, it runs again.
      fs.copyFileSync(h.ws('.hooksmith/payloads/tool_call.json'), payloadFile);
      const fixed = await vscode.commands.executeCommand('hooksmith.rerunLastHook');
      assert.strictEqual(fixed && fixed.outcome, 'returned');
    });

    it('a crashing hook reports its traceback frames (what the result panel links to)', async () => {
      const dir = h.scratch('commands-crash');
      const crashFile = path.join(dir, 'hooks.py');
      fs.writeFileSync(
        crashFile,
        [
          'from rasa.mantle.hooks import ToolCallPayload, modify_tool_call',
          '',
          '',
          'def _explode(call):',
          '    raise ValueError(f"no handler for {call.tool_name}")',
          '',
          '',
          '@modify_tool_call()',
          'async def crashing_guard(call: ToolCallPayload) -> ToolCallPayload:',
          '    _explode(call)',
          '    return call',
          '',
        ].join('\n'),
      );
      const result = await vscode.commands.executeCommand('hooksmith.runHook', {
        file: crashFile,
        handler: 'crashing_guard',
        payloadFile,
      });
      assert.ok(result, 'runHook returned a RunResult');
      assert.strictEqual(result.outcome, 'crashed', JSON.stringify(result));
      assert.strictEqual(result.error.type, 'ValueError');
      assert.match(result.error.message, /no handler for place_order/);
      const ours = result.error.traceback
        .filter((f) => path.resolve(f.file) === crashFile)
        .map((f) => `${f.function}@${f.line}`);
      assert.deepStrictEqual(
        ours,
        ['crashing_guard@10', '_explode@5'],
        JSON.stringify(result.error.traceback),
      );
      // Re-run follows the crashing hook now.
      const again = await vscode.commands.executeCommand('hooksmith.rerunLastHook');
      assert.strictEqual(again && again.handler, 'crashing_guard');
      assert.strictEqual(again.outcome, 'crashed');
      await e2e.waitFor(
        () => h.webviewTabs('hooksmith.runResult').find((t) => t.label === 'Run: crashing_guard'),
        { timeout: h.LONG, what: 'the "Run: crashing_guard" result panel' },
      );
    });
  });

  describe('hooksmith.showOutput', () => {
    it('reveals the Hooksmith output channel, which holds the runs logged so far', async () => {
      await h.closeAll();
      const isOurs = (d) => d.uri.scheme === 'output' && /hooksmith/i.test(d.uri.toString());
      await vscode.commands.executeCommand('workbench.action.closePanel');
      await vscode.commands.executeCommand('hooksmith.showOutput');
      const editor = await e2e.waitFor(
        () => vscode.window.visibleTextEditors.find((e) => isOurs(e.document)),
        {
          timeout: h.LONG,
          what: `the Hooksmith output in a visible editor (visible: ${vscode.window.visibleTextEditors.map((e) => e.document.uri.toString())})`,
        },
      );
      // The channel's text is the log: activation, and the runs above when they ran (not under --grep).
      const ran = !!(await vscode.commands.executeCommand('hooksmith.lastHookRun'));
      const want = ran ? /\[run\] guard_orders/ : /\[activate\]/;
      const text = await e2e.waitFor(
        () => {
          const t = editor.document.getText();
          return want.test(t) ? t : undefined;
        },
        { timeout: h.LONG, what: `${want} in the output document` },
      );
      assert.ok(text.includes('[activate]'), 'the activation line is there too');
      if (ran)
        assert.ok(
          api.logLines().some((l) => /\[run\] crashing_guard .*→ crashed/.test(l)),
          'logLines() has the crashed run',
        );
      await vscode.commands.executeCommand('workbench.action.closePanel');
    });
  });

  describe('the Hooks explorer', () => {
    const tree = () => h.repoModule('client/explorer/tree-model.ts');
    const hookNodes = (nodes) => nodes.flatMap((a) => a.children.flatMap((g) => g.children));
    const probe = () => h.ws('hooks/probe_hooks.py');

    after(async () => {
      // Leave the agent as it was (the simulation tests run all of its hooks).
      if (fs.existsSync(probe())) {
        fs.rmSync(probe());
        await e2e.waitFor(
          async () =>
            !handlersOf(
              await vscode.commands.executeCommand('hooksmith.explorer.refresh').then(() => api.hooks()),
            ).includes('probe_turn_started'),
          { timeout: h.LONG, what: 'probe_turn_started gone from the hooks list' },
        );
      }
    });

    it('Refresh asks the server again and the tree shows a hook added on disk', async () => {
      const before = api.hooks();
      assert.strictEqual(await vscode.commands.executeCommand('hooksmith.explorer.refresh'), undefined);
      const after = api.hooks();
      assert.notStrictEqual(after, before, 'a fresh hooks/hooks answer');
      assert.deepStrictEqual(
        handlersOf(after).sort(),
        handlersOf(before).sort(),
        'nothing changed on disk, nothing changed in the list',
      );

      fs.writeFileSync(
        probe(),
        [
          'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started',
          '',
          '',
          '@on_turn_started()',
          'async def probe_turn_started(payload: TurnStartedPayload) -> None:',
          '    return None',
          '',
        ].join('\n'),
      );
      const found = await e2e.waitFor(
        async () => {
          await vscode.commands.executeCommand('hooksmith.explorer.refresh');
          return hookNodes(tree().buildTree(api.hooks())).find(
            (n) => n.entry.handler === 'probe_turn_started',
          );
        },
        { timeout: h.LONG, interval: 500, what: 'probe_turn_started in the explorer tree' },
      );
      assert.strictEqual(path.resolve(found.entry.file), probe());
      assert.strictEqual(found.label, 'probe_turn_started');
    });

    it('its Run Hook item runs the hook of a tree node (Mantle and Cayu)', async () => {
      const nodes = hookNodes(tree().buildTree(api.hooks()));
      // The workspace's own: another suite's copy of the agent may still be listed while its deletion is seen.
      const guard = nodes.find(
        (n) =>
          n.entry.handler === 'guard_orders' && path.resolve(n.entry.file) === h.ws('hooks/tool_hooks.py'),
      );
      assert.ok(guard, `guard_orders in the tree: ${nodes.map((n) => n.entry.handler)}`);
      // One tool_call sample, so the item runs without asking which one.
      const samples = fs
        .readdirSync(h.ws('.hooksmith/payloads'))
        .filter((n) => /^tool_call([-.].*)?\.json$/.test(n));
      assert.deepStrictEqual(samples, ['tool_call.json']);

      await vscode.commands.executeCommand('hooksmith.explorer.runHook', guard);
      let last = await vscode.commands.executeCommand('hooksmith.lastHookRun');
      assert.strictEqual(last.handler, 'guard_orders');
      assert.strictEqual(last.file, guard.entry.file);
      assert.strictEqual(last.payloadFile, h.ws('.hooksmith/payloads/tool_call.json'));
      assert.ok(last.result, `a result, not a refusal: ${JSON.stringify(last.refusal)}`);
      assert.strictEqual(last.result.outcome, 'returned', JSON.stringify(last.result.error));
      assert.strictEqual(last.result.payload.arguments.card_id, 'card_123');

      const cayu = nodes.find(
        (n) =>
          n.entry.engine === 'cayu' &&
          n.entry.handler === 'ToolGuard.before_tool_call' &&
          path.resolve(n.entry.file) === h.ws('runtime_hooks.py'),
      );
      assert.ok(cayu, 'ToolGuard.before_tool_call in the tree');
      assert.strictEqual(cayu.label, 'before_tool_call');
      await vscode.commands.executeCommand('hooksmith.explorer.runHook', cayu);
      last = await vscode.commands.executeCommand('hooksmith.lastHookRun');
      assert.strictEqual(last.handler, 'ToolGuard.before_tool_call');
      assert.strictEqual(last.result.engine, 'cayu');
      assert.strictEqual(last.result.outcome, 'returned', JSON.stringify(last.result.error));
      await e2e.waitFor(
        () => h.webviewTabs('hooksmith.runResult').find((t) => t.label === 'Run: ToolGuard.before_tool_call'),
        { timeout: h.LONG, what: 'the "Run: ToolGuard.before_tool_call" result panel' },
      );
    });

    it('Run Hook on an agent or point node (not a hook) runs nothing', async () => {
      const before = await vscode.commands.executeCommand('hooksmith.lastHookRun');
      const roots = tree().buildTree(api.hooks());
      await vscode.commands.executeCommand('hooksmith.explorer.runHook', roots[0]);
      await vscode.commands.executeCommand('hooksmith.explorer.runHook', roots[0].children[0]);
      await vscode.commands.executeCommand('hooksmith.explorer.runHook', undefined);
      const after = await vscode.commands.executeCommand('hooksmith.lastHookRun');
      assert.strictEqual(after.result, before.result, 'the last run is unchanged');
    });
  });
});
