// The end-to-end mocha runner: VS Code loads this file (extensionTestsPath) in the
// extension host and calls run(). It knows nothing about which launcher started
// VS Code; the launcher tells it what to run through the config file read by
// harness.js, and reads back the counts this file writes to `resultsPath`.
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const { config } = require('./harness');
const { findTestFiles } = require('./find-files');

// mocha is a devDependency of the repo root; resolve it from there (the vsix-mode
// host extension lives elsewhere). mocha 12 is ESM around a CommonJS build.
function loadMocha() {
  const mod = require(require.resolve('mocha', { paths: [config.repoRoot, __dirname] }));
  return mod.default || mod;
}

/**
 * Under code-server the extension host's console reaches the launcher mixed with
 * the workbench's own log in the browser console; an invisible first character
 * marks ours (the launcher strips it). Under electron it goes to stdout as is.
 */
const MARK = '\u2063';
function markConsole() {
  if (config.launcher !== 'code-server') return;
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const original = console[level]; // the host's forwarder; `console.log` is a getter without setter
    Object.defineProperty(console, level, {
      configurable: true,
      writable: true,
      value: (...args) => original(MARK + util.format(...args)),
    });
  }
}

/** Writes the counts so far; called after every test so a timed-out run still reports progress. */
function writeResults(results) {
  if (!config.resultsPath) return;
  const tmp = config.resultsPath + '.tmp';
  fs.writeFileSync(tmp, JSON.stringify(results, null, 2));
  fs.renameSync(tmp, config.resultsPath);
}

exports.run = async function run() {
  markConsole();
  const Mocha = loadMocha();
  const mocha = new Mocha({ ui: 'bdd', timeout: config.mochaTimeout, color: false, reporter: 'spec' });
  // `color: false` leaves the ✔/✖ symbols, which log-symbols colours when CI is set.
  Object.assign(Mocha.reporters.Base.symbols, { ok: '✔', err: '✖' });
  if (config.grep) mocha.grep(config.grep);

  const files = findTestFiles(__dirname, config.files);
  console.log(
    `[e2e] ${config.launcher} / ${config.pass} pass / extension from ${config.extensionMode}: ` +
      `${files.length} file(s) matching ${config.files}` +
      (config.grep ? ` grep ${config.grep}` : ''),
  );
  files.forEach((f) => mocha.addFile(f));

  const results = {
    passed: 0,
    failed: 0,
    pending: 0,
    done: false,
    current: '',
    failures: [],
    files: files.map((f) => path.relative(__dirname, f)),
  };
  writeResults(results);
  if (files.length === 0) {
    results.done = true;
    writeResults(results);
    throw new Error(`no test file matches ${config.files}`);
  }

  try {
    await mocha.loadFilesAsync(); // test files may be CommonJS or ESM
  } catch (e) {
    // a syntax error or a bad require in a test file
    Object.assign(results, { failed: results.failed + 1, done: true });
    results.failures.push({
      title: 'loading the test files',
      error: String((e && e.stack) || e).slice(0, 2000),
    });
    writeResults(results);
    throw e;
  }
  const failures = await new Promise((resolve) => {
    const runner = mocha.run(resolve);
    // The tests grep leaves: the launcher's pass budget and its "N not run" follow this count.
    results.total = runner.total;
    writeResults(results);
    runner.on('test', (t) => {
      results.current = t.fullTitle();
      writeResults(results);
    });
    runner.on('pass', () => {
      results.passed++;
      results.current = '';
      writeResults(results);
    });
    runner.on('pending', () => {
      results.pending++;
      results.current = '';
      writeResults(results);
    });
    runner.on('fail', (t, err) => {
      results.failed++;
      results.current = '';
      results.failures.push({
        title: t.fullTitle(),
        error: String((err && err.stack) || err).slice(0, 2000),
      });
      writeResults(results);
    });
  });
  results.done = true;
  results.current = '';
  writeResults(results);
  if (failures > 0) throw new Error(`${failures} end-to-end test(s) failed`);
};
