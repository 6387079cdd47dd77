// Helpers for end-to-end tests. Runs inside the VS Code extension host, whichever
// launcher started it (code-server + Chromium, or @vscode/test-electron).
//
//   const e2e = require('./harness');
//   e2e.config                      the run's settings (see launch.mjs), or defaults
//   await e2e.waitForDiagnostics(uri, diags => diags.length > 0)
//   await e2e.screenshot('/abs/path.png')   code-server launcher only; false elsewhere
//   await e2e.ui({ op: 'click', webview: 'Simulated turn', selector: 'a.hooklink' })   code-server only
//   await e2e.waitFor(() => something(), { timeout: 10000, what: 'something' })
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

/** Name of the file, beside the copied workspace folder, where the launcher writes the run's settings. */
const CONFIG_NAME = 'e2e-config.json';

const DEFAULTS = {
  launcher: 'unknown', // 'code-server' | 'electron'
  pass: 'trusted', // 'trusted' | 'untrusted' (workspace trust left on)
  files: '**/*.test.js', // which test files this pass loads (relative to the suite folder)
  grep: '', // mocha --grep
  mochaTimeout: 30000, // per test, ms
  resultsPath: '', // where index.js writes the counts for the launcher
  runDir: '', // per-run scratch folder (holds the workspace copy and this config)
  extensionMode: 'dev', // 'dev': the repo folder; 'vsix': the product is an installed .vsix
  extensionId: 'hooksmith.hooksmith',
  repoRoot: path.resolve(__dirname, '../../..'),
  screenshots: false, // true when the launcher can take page screenshots on request
  ui: false, // true when the launcher can click and read in the page on request (ui())
};

/**
 * The launcher's config: env HOOKSMITH_E2E_CONFIG if it reached the extension host,
 * else the file beside the opened workspace folder (env vars do not reliably reach
 * the extension host of a VS Code server; the folder path always does).
 */
function loadConfig() {
  const candidates = [];
  if (process.env.HOOKSMITH_E2E_CONFIG) candidates.push(process.env.HOOKSMITH_E2E_CONFIG);
  for (const f of vscode.workspace.workspaceFolders || []) {
    if (f.uri.scheme === 'file') candidates.push(path.join(path.dirname(f.uri.fsPath), CONFIG_NAME));
  }
  for (const file of candidates) {
    try {
      return { ...DEFAULTS, ...JSON.parse(fs.readFileSync(file, 'utf8')), configPath: file };
    } catch {
      /* try the next one */
    }
  }
  return { ...DEFAULTS, configPath: '' };
}

const config = loadConfig();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value, which is returned; throws after `timeout` ms. */
async function waitFor(check, { timeout = 10000, interval = 100, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(interval);
  }
}

/**
 * Resolves with the diagnostics of `uri` once `accept(diags)` is true. Listens to
 * onDidChangeDiagnostics (no fixed sleeps) and checks the current state first.
 */
function waitForDiagnostics(uri, accept = (d) => d.length > 0, { timeout = 15000 } = {}) {
  const key = uri.toString();
  return new Promise((resolve, reject) => {
    const done = (err, value) => {
      clearTimeout(timer);
      sub.dispose();
      if (err) reject(err);
      else resolve(value);
    };
    const check = () => {
      const diags = vscode.languages.getDiagnostics(uri);
      if (accept(diags)) done(null, diags);
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === key)) check();
    });
    const timer = setTimeout(() => {
      const now = vscode.languages.getDiagnostics(uri).map((d) => `${d.code ?? ''} ${d.message}`);
      done(
        new Error(
          `timed out after ${timeout} ms waiting for diagnostics on ${key}; now: ${JSON.stringify(now)}`,
        ),
      );
    }, timeout);
    check();
  });
}

let shotSeq = 0;
/** Hands `request` to the launcher (a file it polls for) and resolves with its .done text. */
async function askLauncher(request, what, timeout) {
  const dir = path.join(config.runDir, 'screenshot-requests');
  fs.mkdirSync(dir, { recursive: true });
  const base = path.join(dir, `${process.pid}-${++shotSeq}`);
  fs.writeFileSync(base + '.json.tmp', JSON.stringify(request));
  fs.renameSync(base + '.json.tmp', base + '.json'); // the launcher never sees half a request
  await waitFor(() => fs.existsSync(base + '.done') || fs.existsSync(base + '.error'), {
    timeout,
    what,
  });
  if (fs.existsSync(base + '.error'))
    throw new Error(`${what} failed: ${fs.readFileSync(base + '.error', 'utf8')}`);
  return fs.readFileSync(base + '.done', 'utf8');
}

/**
 * Asks the launcher to screenshot the whole browser page (the workbench, webviews
 * included) into `file` (absolute path). Returns true once the file is written,
 * false if this launcher cannot take screenshots (electron). Throws on a launcher error.
 */
async function screenshot(file, { timeout = 30000 } = {}) {
  if (!config.screenshots || !config.runDir) return false;
  await askLauncher({ path: path.resolve(file) }, `screenshot ${file}`, timeout);
  return true;
}

/** True when the launcher can drive the page (`ui`): code-server, not electron. */
const canDriveUi = () => !!(config.ui && config.runDir);

/**
 * Does what a person does in the page, through the launcher's browser: a real click, key or
 * read, in the workbench or inside a webview (`webview`: a part of its document's <title>).
 *   await e2e.ui({ op: 'click', webview: 'Simulated turn', selector: 'a.hooklink' })
 *   await e2e.ui({ op: 'check' | 'uncheck', webview, selector })
 *   await e2e.ui({ op: 'select', webview, selector, value })
 *   await e2e.ui({ op: 'press', key: 'Enter' }); await e2e.ui({ op: 'type', text: 'abc' })
 *   await e2e.ui({ op: 'eval', webview, fn: '(arg) => document.title', arg })  → its JSON result
 * Throws when this launcher cannot (see canDriveUi) or the action fails.
 */
async function ui(op, { timeout = 30000 } = {}) {
  if (!canDriveUi()) throw new Error(`the ${config.launcher} launcher cannot drive the page`);
  const text = await askLauncher({ ui: op }, `ui ${op.op} ${op.selector || op.key || ''}`, timeout);
  return JSON.parse(text).value;
}

/** The product extension (dev folder or installed .vsix), or undefined. */
const extension = () => vscode.extensions.getExtension(config.extensionId);

/** The first workspace folder's path on disk (the launcher's temporary copy). */
const workspacePath = () => {
  const f = (vscode.workspace.workspaceFolders || [])[0];
  return f ? f.uri.fsPath : undefined;
};

module.exports = {
  config,
  CONFIG_NAME,
  sleep,
  waitFor,
  waitForDiagnostics,
  screenshot,
  canDriveUi,
  ui,
  extension,
  workspacePath,
};
