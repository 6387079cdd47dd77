// "Run Hook Against Sample Payload" as the explorer calls it (`{file, handler, payloadFile}`):
// real Python runs the clean agent's hooks; the command returns the RunResult and the
// result panel opens.
'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('run a hook on a sample payload', function () {
  this.timeout(180000);
  before(async () => {
    await h.closeAll();
    await h.activate();
  });

  it('guard_orders with the saved tool_call sample returns the call with card_id trimmed', async () => {
    const file = h.ws('hooks/tool_hooks.py');
    const payloadFile = h.ws('.hooksmith/payloads/tool_call.json');
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'guard_orders',
      payloadFile,
    });
    assert.ok(result, 'the command returned a RunResult');
    assert.strictEqual(result.engine, 'mantle');
    assert.strictEqual(result.point, 'tool_call');
    assert.strictEqual(result.lane, 'modify');
    assert.strictEqual(result.handler, 'guard_orders');
    assert.strictEqual(result.outcome, 'returned', JSON.stringify(result.error));
    assert.strictEqual(result.signal, null);
    assert.strictEqual(result.payload.arguments.card_id, 'card_123');
    assert.strictEqual(result.inputPayload.arguments.card_id, ' card_123 ');
    assert.ok(result.durationMs >= 0 && result.timeoutMs > 0);
    const tab = await e2e.waitFor(
      () => h.webviewTabs('hooksmith.runResult').find((t) => t.label === 'Run: guard_orders'),
      { timeout: h.LONG, what: 'the "Run: guard_orders" result panel' },
    );
    assert.ok(tab);
    const last = await vscode.commands.executeCommand('hooksmith.lastHookRun');
    assert.strictEqual(last.result.outcome, 'returned');
    assert.strictEqual(last.payloadFile, payloadFile);
  });

  it('guard_orders without a card_id raises RetryModel, honoured at tool_call', async () => {
    const sample = JSON.parse(fs.readFileSync(h.ws('.hooksmith/payloads/tool_call.json'), 'utf8'));
    delete sample.arguments.card_id;
    const payloadFile = h.ws('.hooksmith/payloads/tool_call-nocard.json');
    fs.writeFileSync(payloadFile, JSON.stringify(sample, null, 2));
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file: h.ws('hooks/tool_hooks.py'),
      handler: 'guard_orders',
      payloadFile,
    });
    assert.ok(result, 'the command returned a RunResult');
    assert.strictEqual(result.outcome, 'retry-model');
    assert.strictEqual(result.signal.type, 'RetryModel');
    assert.strictEqual(result.signal.feedback, 'Call place_order with a card_id.');
    assert.strictEqual(result.signal.honoured, true);
    assert.strictEqual(result.error, null);
    assert.ok(result.effect.length > 0, 'says what the engine does next');
    // The panel shows up asynchronously; once there, it is the one panel (reused, not a second one).
    await e2e.waitFor(
      () => h.webviewTabs('hooksmith.runResult').find((t) => t.label === 'Run: guard_orders'),
      { timeout: h.LONG, what: 'the "Run: guard_orders" result panel' },
    );
    assert.strictEqual(h.webviewTabs('hooksmith.runResult').length, 1, 'one result panel, reused');
  });

  it('a Cayu phase method runs too (ToolGuard.before_tool_call blocks delete_account)', async () => {
    const sample = JSON.parse(fs.readFileSync(h.ws('.hooksmith/payloads/before_tool_call.json'), 'utf8'));
    sample.tool_name = 'delete_account';
    const payloadFile = h.ws('.hooksmith/payloads/before_tool_call-delete.json');
    fs.writeFileSync(payloadFile, JSON.stringify(sample, null, 2));
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file: h.ws('runtime_hooks.py'),
      handler: 'ToolGuard.before_tool_call',
      payloadFile,
    });
    assert.ok(result, 'the command returned a RunResult');
    assert.strictEqual(result.engine, 'cayu');
    assert.strictEqual(result.point, 'before_tool_call');
    assert.strictEqual(result.outcome, 'returned', JSON.stringify(result.error));
    assert.strictEqual(result.payload.action, 'block', JSON.stringify(result.payload));
  });

  it('an unknown handler returns no result', async () => {
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file: h.ws('hooks/tool_hooks.py'),
      handler: 'no_such_hook',
      payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
    });
    assert.strictEqual(result, undefined);
  });
});
