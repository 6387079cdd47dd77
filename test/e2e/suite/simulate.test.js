// "Simulate Turn" on the order-pizza scenario: every Mantle point and the Cayu phases of a
// completed session fire, and the bot answers. The timeline panel is left open and focused:
// this is the suite's last trusted file, so `--screenshot` pictures the timeline.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('simulate a turn (last: leaves the timeline on screen)', function () {
  this.timeout(240000);
  let result;
  let api;

  before(async () => {
    api = await h.activate();
    await h.closeAll();
  });

  it('order-pizza.scenario.yaml: all 10 Mantle points, Cayu phases, the bot answer', async () => {
    const { POINT_IDS, CAYU_PHASE_IDS } = h.catalogue();
    assert.strictEqual(POINT_IDS.length, 10);
    result = await vscode.commands.executeCommand(
      'hooksmith.simulateTurn',
      vscode.Uri.file(h.ws('order-pizza.scenario.yaml')),
    );
    assert.ok(
      result,
      `the command returned a SimulationResult; the Hooksmith log ends:\n${api.logLines().slice(-20).join('\n')}`,
    );
    assert.strictEqual(result.status, 'completed');
    const points = new Set(result.events.map((e) => e.point));
    const missing = POINT_IDS.filter((p) => !points.has(p));
    assert.deepStrictEqual(missing, [], `every Mantle point fired; got ${[...points]}`);
    for (const phase of ['before_tool_call', 'after_tool_call', 'after_session_completed']) {
      assert.ok(CAYU_PHASE_IDS.includes(phase), `${phase} is a catalogue phase`);
      assert.ok(
        result.events.some((e) => e.point === phase && e.lane === 'phase' && e.hook),
        `Cayu ${phase} ran a hook`,
      );
    }
    const strange = result.events.filter(
      (e) => !POINT_IDS.includes(e.point) && !CAYU_PHASE_IDS.includes(e.point),
    );
    assert.deepStrictEqual(strange, [], 'only catalogue points and phases');
    const seqs = result.events.map((e) => e.seq);
    assert.deepStrictEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
      'events in order',
    );
    assert.ok(
      result.events.some(
        (e) =>
          e.point === 'tool_call' && e.hook && e.hook.endsWith('::guard_orders') && e.outcome === 'returned',
      ),
    );
    const bot = result.transcript
      .filter((t) => t.role === 'bot')
      .map((t) => t.text)
      .join('\n');
    assert.match(bot, /open 11:00-23:00/);
    assert.ok(
      result.transcript.some((t) => t.role === 'user'),
      'the user line is in the transcript',
    );
  });

  it('shows the timeline panel, focused, and it can be pictured', async function () {
    const tab = await e2e.waitFor(
      () => h.webviewTabs('hooksmith.timeline').find((t) => t.label === 'Turn: order-pizza.scenario.yaml'),
      { timeout: h.LONG, what: 'the "Turn: order-pizza.scenario.yaml" timeline panel' },
    );
    assert.ok(tab);
    // One editor group, the timeline active in it, nothing else around: the end-of-run screenshot shows it.
    await vscode.commands.executeCommand('workbench.action.joinAllGroups');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await e2e.waitFor(
      () => {
        const t = h.webviewTabs('hooksmith.timeline')[0];
        return t && t.isActive && t.group.isActive;
      },
      { timeout: h.LONG, what: 'the timeline tab active' },
    );
    if (!e2e.config.screenshots) return;
    const file = path.join(h.scratch('shots'), 'timeline.png');
    await e2e.waitFor(async () => (await e2e.screenshot(file)) && fs.statSync(file).size > 20000, {
      timeout: h.LONG,
      interval: 2000,
      what: 'a screenshot with the timeline',
    });
    console.log(`[e2e] timeline screenshot ${file} (${fs.statSync(file).size} bytes)`);
  });
});
