// The Testing view keeps up with files written after it was populated, without Refresh Tests:
// a scenario written into a folder created a moment before (the folder's own watch may start
// after the file is there), a Mantle eval scenario in a new eval/scenarios/ folder, and a
// folder deleted with its scenario inside.
'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const SCENARIO = (name) => `name: ${name}
user: hi
completions: [{ text: Hello }]
expect:
  transcript: { contains: Hello }
`;

const MANTLE = `scenario:
  name: calm customer
  simulation_context: You are calm and want your balance.
`;

const items = () => vscode.commands.executeCommand('hooksmith.testItems');

describe('Testing view: files written after it was populated', function () {
  this.timeout(120000);
  before(async () => {
    await h.closeAll();
    await h.activate();
    await e2e.waitFor(
      async () => {
        const list = await items();
        return list && list.some((i) => i.label === 'order a pizza') ? list : undefined;
      },
      { timeout: h.LONG, what: 'the workspace scenarios in the Testing view' },
    );
  });

  it('a scenario written into a folder just created is listed without Refresh Tests', async () => {
    for (let i = 0; i < 5; i++) {
      const dir = h.ws(`later-${i}`, 'deep');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(h.ws(`later-${i}`, 'deep', `s${i}.scenario.yaml`), SCENARIO(`written later ${i}`));
    }
    fs.mkdirSync(h.ws('later-agent', 'eval', 'scenarios'), { recursive: true });
    fs.writeFileSync(h.ws('later-agent', 'eval', 'scenarios', 'calm.yml'), MANTLE);
    const want = [
      'written later 0',
      'written later 1',
      'written later 2',
      'written later 3',
      'written later 4',
    ];
    const list = await e2e.waitFor(
      async () => {
        const l = await items();
        return l &&
          want.every((n) => l.some((i) => i.label === n)) &&
          l.some((i) => i.label === 'calm customer')
          ? l
          : undefined;
      },
      { timeout: 20000, what: 'the scenarios written into new folders, without a refresh' },
    );
    const later = list.find((i) => i.label === 'written later 4');
    assert.ok(later.id.endsWith('s4.scenario.yaml::case'), later.id);
  });

  it('a folder deleted with its scenario inside takes the scenario out of the view', async () => {
    fs.rmSync(h.ws('later-0'), { recursive: true, force: true });
    await e2e.waitFor(
      async () => {
        const l = await items();
        return l && !l.some((i) => i.label === 'written later 0') ? true : undefined;
      },
      { timeout: 20000, what: 'the deleted folder’s scenario gone from the view' },
    );
    const l = await items();
    assert.ok(
      l.some((i) => i.label === 'written later 1'),
      'the others stay',
    );
  });
});
