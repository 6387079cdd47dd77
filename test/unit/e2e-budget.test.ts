// The e2e launcher's pass budget and closing line (#34 item 16): the budget follows the number
// of tests, a pass cut short says how many tests never ran and exits non-zero. The launcher runs
// here for real, with a tiny fake "VS Code" (the electron launcher's HOOKSMITH_E2E_VSCODE_PATH)
// that plays a scripted suite into results.json: no VS Code, no browser.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

const REPO = join(__dirname, '..', '..');
const LAUNCH = join(REPO, 'test/e2e/launch.mjs');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (): Promise<any> => import(pathToFileURL(join(REPO, 'test/e2e/lib/budget.mjs')).href);

test('the budget is start-up until the suite counts its tests, then one per-test timeout per test', async () => {
  const { passBudgetMs, CI_LIMIT_MS } = await load();
  const base = { fixedMs: 0, startupMs: 300_000, testTimeoutMs: 30_000 };
  assert.equal(passBudgetMs({ ...base, total: undefined }), 300_000);
  assert.equal(passBudgetMs({ ...base, total: 110 }), 300_000 + 110 * 30_000);
  assert.equal(passBudgetMs({ ...base, total: 0 }), 300_000);
  // Never beyond CI's own job limit (90 min), so the summary is printed.
  assert.equal(passBudgetMs({ ...base, total: 1000 }), CI_LIMIT_MS);
  assert.ok(CI_LIMIT_MS < 90 * 60_000);
  // A fixed --timeout / HOOKSMITH_E2E_TIMEOUT still caps the whole pass.
  assert.equal(passBudgetMs({ ...base, fixedMs: 5000, total: 110 }), 5000);
});

test('the clock grows with the count the suite reports', async () => {
  const { passClock } = await load();
  let now = 1000;
  const suite: { total?: number } = {};
  const clock = passClock(
    { timeoutMs: 0, startupTimeoutMs: 10_000, testTimeoutMs: 1000 },
    () => suite.total,
    () => now,
  );
  now += 4000;
  assert.equal(clock.left(), 6000);
  suite.total = 20;
  assert.equal(clock.left(), 26_000);
  now += 100_000;
  assert.equal(clock.left(), 1, 'spent: left() never reaches 0 (a timer of 0 ms means "now")');
});

test('tests not run: counted minus finished minus the one the pass stopped in', async () => {
  const { notRunCount, summaryLine } = await load();
  const r = { passed: 83, failed: 0, pending: 0, current: 'scaffold a hook on_tool_result', total: 107 };
  assert.equal(notRunCount(r), 23);
  assert.equal(notRunCount({ ...r, current: '' }), 24);
  assert.equal(notRunCount({ ...r, total: undefined }), undefined, 'the suite never counted');
  assert.equal(notRunCount(null), undefined);
  assert.equal(notRunCount({ ...r, passed: 200 }), 0);
  assert.equal(summaryLine({ passed: 83, failed: 1, notRun: 23 }), '83 passed, 1 failed, 23 not run');
  assert.equal(summaryLine({ passed: 110, failed: 0, notRun: 0 }), '110 passed, 0 failed');
  assert.match(summaryLine({ passed: 0, failed: 1, notRun: 0, unknownNotRun: 1 }), /not run: unknown/);
});

// ---- the launcher over a fake suite ----

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-e2e-budget-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A fake VS Code: reads the pass's config like test/e2e/suite/index.js, then plays `steps`
 * (JSON in FAKE_STEPS): ['count', n] | ['test', title, 'pass'|'fail', ms] | ['hang', title] | ['exit', code].
 */
const FAKE = join(dir, 'fake-code');
writeFileSync(
  FAKE,
  `#!${process.execPath}
const fs = require('fs');
const config = JSON.parse(fs.readFileSync(process.env.HOOKSMITH_E2E_CONFIG, 'utf8'));
const r = { passed: 0, failed: 0, pending: 0, done: false, current: '', failures: [], files: ['fake.test.js'] };
const write = () => fs.writeFileSync(config.resultsPath, JSON.stringify(r));
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
(async () => {
  for (const [op, a, b, c] of JSON.parse(process.env.FAKE_STEPS)) {
    if (op === 'count') { r.total = a; write(); }
    if (op === 'test') {
      r.current = a; write(); await sleep(c || 0);
      if (b === 'pass') r.passed++; else { r.failed++; r.failures.push({ title: a, error: 'boom' }); }
      r.current = ''; write();
    }
    if (op === 'hang') { r.current = a; write(); setInterval(() => {}, 1000); return; }
    if (op === 'exit') { r.done = true; write(); process.exit(a); }
  }
})();
`,
);
chmodSync(FAKE, 0o755);

function launch(steps: unknown[], args: string[]) {
  const t = Date.now();
  const r = spawnSync(
    process.execPath,
    [LAUNCH, '--launcher', 'electron', '--trust', 'on', '--no-setup', '--workspace', dir, ...args],
    {
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        HOOKSMITH_E2E_VSCODE_PATH: FAKE,
        FAKE_STEPS: JSON.stringify(steps),
        HOOKSMITH_E2E_TIMEOUT: '',
        HOOKSMITH_E2E_STARTUP_TIMEOUT: '',
        HOOKSMITH_E2E_TEST_TIMEOUT: '',
      },
    },
  );
  const lines = r.stdout.trim().split('\n');
  return { status: r.status, last: lines[lines.length - 1], out: r.stdout + r.stderr, ms: Date.now() - t };
}

test('a pass that hangs ends at start-up + one per-test timeout per test and names the tests never run', () => {
  const steps = [
    ['count', 4],
    ['test', 'a', 'pass'],
    ['test', 'b', 'pass'],
    ['hang', 'c'],
  ];
  const r = launch(steps, ['--startup-timeout', '2', '--test-timeout', '250']);
  assert.equal(r.last, '2 passed, 1 failed, 1 not run', r.out);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /out of time \(pass budget 3 s\) in "c"; 1 test\(s\) never ran/);
  assert.ok(r.ms < 20_000, `ended in ${r.ms} ms`);
});

test('a pass longer than its start-up allowance runs to the end when its tests keep within their timeouts', () => {
  const steps = [
    ['count', 3],
    ['test', 'a', 'pass', 2500],
    ['test', 'b', 'pass', 2500],
    ['test', 'c', 'pass', 2500],
    ['exit', 0],
  ];
  // 7.5 s of tests against 5 s of start-up allowance; the fake's own start fits in it under load.
  const r = launch(steps, ['--startup-timeout', '5', '--test-timeout', '5000']);
  assert.equal(r.last, '3 passed, 0 failed', r.out);
  assert.equal(r.status, 0, r.out);
});

test('a fixed --timeout still cuts the pass short, and the line says how many never ran', () => {
  const steps = [
    ['count', 3],
    ['test', 'a', 'pass'],
    ['hang', 'b'],
  ];
  const r = launch(steps, ['--timeout', '3', '--test-timeout', '60000']);
  assert.equal(r.last, '1 passed, 1 failed, 1 not run', r.out);
  assert.equal(r.status, 1);
});

test('a suite that ends with tests skipped (a failed before-all hook) exits non-zero with them counted', () => {
  const steps = [
    ['count', 5],
    ['test', 'a', 'pass'],
    ['test', 'b', 'fail'],
    ['exit', 1],
  ];
  const r = launch(steps, ['--startup-timeout', '30']);
  assert.equal(r.last, '1 passed, 1 failed, 3 not run', r.out);
  assert.equal(r.status, 1);
});

test('a suite that never counts its tests says the number not run is unknown', () => {
  const r = launch([['exit', 3]], ['--startup-timeout', '30']);
  assert.match(r.last, /^0 passed, 1 failed, tests not run: unknown/, r.out);
  assert.equal(r.status, 1);
});
