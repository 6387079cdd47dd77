// Entry of `npm run test:e2e`: runs the mocha suite in test/e2e/suite inside a
// real VS Code, through one of two launchers behind one interface
// (lib/code-server.mjs, lib/electron.mjs: `run(ctx) → { exitCode, timedOut }`).
// Ends with the line `N passed, N failed[, N not run]`; exits non-zero on any failure, test not
// run, or timeout. A pass's budget follows its number of tests (lib/budget.mjs).
// Options: `node test/e2e/launch.mjs --help`, and test/e2e/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseOptions, planPasses, REPO_ROOT, E2E_DIR, SUITE_DIR } from './lib/options.mjs';
import { codeServerReady, canSetup, runSetup } from './lib/setup.mjs';
import { createRun, readResults, removeRun } from './lib/run-dir.mjs';
import { notRunCount, passClock, summaryLine } from './lib/budget.mjs';

const require = createRequire(import.meta.url);
const { findTestFiles } = require('./suite/find-files.js');

const T0 = Date.now();
const log = (msg) => console.log(`[e2e ${((Date.now() - T0) / 1000).toFixed(1)}s] ${msg}`);

/** HOOKSMITH_E2E_LAUNCHER wins; else code-server on Linux when it is (or can be) set up; else electron. */
function pickLauncher(opts) {
  if (opts.launcher !== 'auto') return opts.launcher;
  if (process.platform === 'linux' && (codeServerReady() || (opts.setup && canSetup()))) return 'code-server';
  return 'electron';
}

/** Counts of one pass, with harness failures (no results, timeout, crash) counted as failed tests. */
function countPass(pass, outcome, results, budgetMs) {
  const counts = { passed: 0, failed: 0, pending: 0, notRun: notRunCount(results), problems: [] };
  if (results) {
    counts.passed = results.passed;
    counts.failed = results.failed;
    counts.pending = results.pending;
    for (const f of results.failures)
      counts.problems.push(`${f.title}\n      ${f.error.split('\n').slice(0, 3).join('\n      ')}`);
  }
  let harnessProblem = null;
  if (outcome.timedOut)
    harnessProblem =
      `out of time (pass budget ${Math.round(budgetMs / 1000)} s)` +
      (results?.current ? ` in "${results.current}"` : '') +
      (counts.notRun ? `; ${counts.notRun} test(s) never ran` : '');
  else if (!results) harnessProblem = `the suite never started (exit ${outcome.exitCode})`;
  else if (!results.done) harnessProblem = `the suite stopped early (exit ${outcome.exitCode})`;
  else if (outcome.exitCode !== 0 && results.failed === 0)
    harnessProblem = `VS Code exited ${outcome.exitCode} (${results.files.length} test files)`;
  if (harnessProblem) {
    counts.failed++;
    counts.problems.push(`[${pass.name} pass] ${harnessProblem}`);
  }
  return counts;
}

async function main() {
  const opts = parseOptions();
  const launcherName = pickLauncher(opts);
  if (launcherName === 'code-server') {
    if (opts.setup) runSetup();
    if (!codeServerReady()) throw new Error('code-server launcher not set up: run scripts/e2e-setup.sh');
  }
  const launcher = await import(`./lib/${launcherName}.mjs`);
  let current; // the pass's run folders, removed on Ctrl+C too
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      launcher.abort();
      if (current && !opts.keep) removeRun(current);
      process.exit(130);
    });
  }

  // Untrusted and multi-root passes only when asked for, or when some file is written for them.
  const passes = planPasses(opts).filter(
    (p) =>
      (opts.trust !== 'both' && !p.multiRoot) ||
      (p.trusted && !p.multiRoot) ||
      findTestFiles(SUITE_DIR, p.files).length > 0,
  );
  passes.forEach((p) => {
    if (!opts.screenshot) return;
    p.screenshot =
      passes.length > 1 && !p.trusted
        ? opts.screenshot.replace(/(\.png)?$/i, '-untrusted.png')
        : opts.screenshot;
  });

  const extensionDevelopmentPath = opts.vsix ? path.join(E2E_DIR, 'vsix-host') : REPO_ROOT;
  const extensionTestsPath = path.join(SUITE_DIR, 'index.js');
  log(
    `launcher ${launcherName}; workspace ${opts.workspace ? path.relative(REPO_ROOT, opts.workspace) || '.' : '(empty folder)'}; ` +
      `extension ${opts.vsix ? 'from ' + opts.vsix : 'from the repo folder'}; passes: ${passes.map((p) => p.name).join(', ')}`,
  );
  if (!opts.vsix && !fs.existsSync(path.join(REPO_ROOT, 'dist/extension.js')))
    log('note: dist/extension.js is not built');

  const total = { passed: 0, failed: 0, pending: 0, notRun: 0, unknownNotRun: 0, problems: [] };
  for (const pass of passes) {
    const run = (current = createRun({ workspace: opts.workspace, launcher: launcherName, pass, opts }));
    const t = Date.now();
    log(
      `${pass.name} pass: ${pass.files}${pass.trusted ? '' : ' (workspace trust on, folder untrusted)'}; run folder ${run.runDir}`,
    );
    const clock = passClock(opts, () => readResults(run)?.total);
    let outcome;
    try {
      outcome = await launcher.run({
        run,
        pass,
        opts,
        clock,
        extensionDevelopmentPath,
        extensionTestsPath,
        log,
      });
    } catch (e) {
      console.error(`[e2e] ${pass.name} pass: launcher error: ${e.stack || e}`);
      outcome = { exitCode: 1, timedOut: false };
    }
    const counts = countPass(pass, outcome, readResults(run), clock.budget());
    log(
      `${pass.name} pass: ${counts.passed} passed, ${counts.failed} failed, ${counts.pending} pending` +
        `${counts.notRun ? `, ${counts.notRun} not run` : ''} in ${((Date.now() - t) / 1000).toFixed(1)}s`,
    );
    for (const k of ['passed', 'failed', 'pending']) total[k] += counts[k];
    if (counts.notRun === undefined) total.unknownNotRun++;
    else total.notRun += counts.notRun;
    total.problems.push(...counts.problems);
    if (opts.keep) log(`kept ${run.runDir} and ${run.stateDir}`);
    else removeRun(run);
  }

  if (total.problems.length)
    console.log('\nFailures:\n' + total.problems.map((p, i) => `  ${i + 1}) ${p}`).join('\n'));
  log(`done${total.pending ? `, ${total.pending} pending` : ''}`);
  console.log(summaryLine(total));
  return total.failed === 0 && total.notRun === 0 && total.unknownNotRun === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[e2e] ${e.stack || e}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
