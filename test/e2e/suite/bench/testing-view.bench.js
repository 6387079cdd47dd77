// Not a test: the timing half of `npm run bench`'s row "Testing view Run All vs hooksmith test"
// (#45 item 4; bench/testing-view.ts launches it with `--files bench/testing-view.bench.js`, which
// the suite's default glob `**/*.test.js` never picks). It runs the Testing view's Run All (the
// workbench's own `testing.runAll`, as the toolbar button does) HOOKSMITH_BENCH_RUNS times on the
// workspace (a copy of examples/clean-agent) and writes each run's wall time, measured around the
// command (it returns when the run has ended), and the cases' states to HOOKSMITH_BENCH_OUT.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('../harness');
const h = require('../helpers');

const RUNS = Number(process.env.HOOKSMITH_BENCH_RUNS) || 5;
const OUT =
  process.env.HOOKSMITH_BENCH_OUT || path.join(e2e.config.repoRoot, 'bench', 'out', 'testing-view.json');

/** The case items of the last run and their states (`hooksmith.lastTestRun` keeps every item). */
async function caseStates() {
  const last = (await vscode.commands.executeCommand('hooksmith.lastTestRun')) || {};
  return Object.fromEntries(
    Object.entries(last)
      .filter(([id]) => id.endsWith('::case'))
      .map(([id, r]) => [id.slice(id.lastIndexOf('/') + 1), r.state]),
  );
}

describe('bench: Testing view Run All', function () {
  this.timeout(600000);

  it(`runs Run All ${RUNS} times and writes the timings`, async () => {
    await h.closeAll();
    await h.activate();
    // Every case discovered first: the first run is timed from a settled view, as a user clicks it.
    await e2e.waitFor(
      async () => {
        const items = (await vscode.commands.executeCommand('hooksmith.testItems')) || [];
        return (
          items.some((i) => i.label === 'order a pizza') && items.some((i) => i.label === 'tool_result.json')
        );
      },
      { timeout: h.LONG, what: 'the clean agent’s cases in the Testing view' },
    );
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await vscode.commands.executeCommand('testing.runAll');
      const ms = performance.now() - t0;
      runs.push({ ms: Math.round(ms * 10) / 10, cases: await caseStates() });
    }
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, JSON.stringify({ runs }, null, 2));
    assert.ok(Object.keys(runs[0].cases).length > 0, 'Run All ran no case');
  });
});
