// A conversation (`turns:`) in a real VS Code: simulated, its timeline groups the steps by turn
// (a collapsible section each); in the Testing view the scenario lists its turns, each holding its
// expectations, and a run marks a failing turn failed at its line.
'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const CONVERSATION = `name: two turns
turns:
  - user: hi
    completions: [{ text: Hello }]
    expect:
      transcript: { contains: Hello }
  - user: bye
    completions: [{ text: Bye }]
    expect:
      transcript: { contains: Ciao }
expect:
  status: completed
`;

describe('a conversation: timeline and Testing view by turn', function () {
  this.timeout(240000);
  let file;
  before(async () => {
    await h.closeAll();
    await h.activate();
    // In a folder of its own: an agent without hooks (the workspace's clean agent would steer
    // these texts with its own hooks).
    fs.mkdirSync(h.ws('conversation'), { recursive: true });
    file = h.ws('conversation', 'two-turns.scenario.yaml');
    fs.writeFileSync(file, CONVERSATION);
  });

  it('the timeline shows one collapsible section per turn and the whole conversation', async () => {
    const result = await vscode.commands.executeCommand('hooksmith.simulateTurn', vscode.Uri.file(file));
    assert.ok(result, 'a SimulationResult');
    assert.deepStrictEqual(
      result.turns.map((t) => [t.turn, t.status]),
      [
        [1, 'completed'],
        [2, 'completed'],
      ],
    );
    const shown = await e2e.waitFor(
      async () => {
        const s = await vscode.commands.executeCommand('hooksmith.lastSimulation');
        return s && s.html && s.html.includes('data-turn="2"') ? s : undefined;
      },
      { timeout: h.LONG, what: 'the timeline of the conversation' },
    );
    assert.strictEqual((shown.html.match(/<details class="turn" open data-turn=/g) || []).length, 2);
    assert.match(shown.html, /Simulated conversation \(2 turns\)/);
    assert.deepStrictEqual(
      result.transcript.filter((t) => t.role === 'bot').map((t) => t.text),
      ['Hello', 'Bye'],
    );
  });

  it("the Testing view lists the scenario's turns with their expectations; a run fails turn 2 at its line", async () => {
    // No Refresh Tests: the file was written into a folder created just before it (before() above),
    // and the view picks it up by itself (a new folder is searched whole: testing-watch.test.js).
    const items = await e2e.waitFor(
      async () => {
        const list = await vscode.commands.executeCommand('hooksmith.testItems');
        return list && list.some((i) => i.id.endsWith('two-turns.scenario.yaml::case/turns/1'))
          ? list
          : undefined;
      },
      { timeout: h.LONG, what: 'the turns of two-turns.scenario.yaml in the Testing view' },
    );
    const caseItem = items.find((i) => i.id.endsWith('two-turns.scenario.yaml::case'));
    const turns = items.filter((i) => /two-turns\.scenario\.yaml::case\/turns\/\d$/.test(i.id));
    assert.deepStrictEqual(
      turns.map((t) => [t.label, t.depth]),
      [
        ['turn 1', caseItem.depth + 1],
        ['turn 2', caseItem.depth + 1],
      ],
    );
    const t2 = items.find((i) => i.label === 'turn 2: transcript');
    assert.ok(t2, items.map((i) => i.label).join(', '));
    assert.strictEqual(t2.depth, caseItem.depth + 2, 'under its turn');
    assert.strictEqual(t2.line, 10);
    // #31 item 12: the case on its turns: line (not the scenario-level expect:), each turn on its own.
    assert.deepStrictEqual([caseItem.line, ...turns.map((t) => t.line)], [2, 3, 7]);
    assert.ok(items.some((i) => i.label === 'status: completed' && i.depth === caseItem.depth + 1));
    await vscode.commands.executeCommand('testing.runAll');
    const last = await e2e.waitFor(
      async () => {
        const r = await vscode.commands.executeCommand('hooksmith.lastTestRun');
        return r && Object.keys(r).some((id) => id.endsWith('two-turns.scenario.yaml::case')) ? r : undefined;
      },
      { timeout: 180000, what: 'the results of Run All' },
    );
    const byEnd = (s) => (Object.entries(last).find(([id]) => id.endsWith(s)) || [])[1];
    assert.strictEqual(byEnd('two-turns.scenario.yaml::case').state, 'failed');
    const failed = byEnd('two-turns.scenario.yaml::case/turns/1/expect/transcript');
    assert.strictEqual(failed.state, 'failed');
    assert.strictEqual(failed.line, 10);
    assert.strictEqual(failed.message, 'turn 2: transcript');
    assert.strictEqual(byEnd('two-turns.scenario.yaml::case/turns/0/expect/transcript').state, 'passed');
  });

  it('Hooksmith: New Scenario from Recorded Conversation writes a multi-turn scenario and opens it', async () => {
    const recording = h.ws('conversation', 'chat.json');
    fs.writeFileSync(
      recording,
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'bye' },
        { role: 'assistant', content: 'Bye' },
      ]),
    );
    const output = h.ws('conversation', 'chat.scenario.yaml');
    const written = await vscode.commands.executeCommand('hooksmith.newScenarioFromRecording', {
      file: recording,
      output,
    });
    assert.strictEqual(written, output);
    const text = fs.readFileSync(output, 'utf8');
    assert.match(
      text,
      /turns:\n {2}- user: hi\n {4}completions:\n {6}- text: Hello\n {4}expect:\n {6}transcript:\n {8}snapshot: Hello\n {2}- user: bye/,
    );
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, output);
    const played = await vscode.commands.executeCommand('hooksmith.simulateTurn', vscode.Uri.file(output));
    assert.deepStrictEqual(
      played.transcript.filter((t) => t.role === 'bot').map((t) => t.text),
      ['Hello', 'Bye'],
    );
  });
});
