// Helpers shared by the product end-to-end tests (the harness itself is harness.js):
// activate Hooksmith, copy example agents into the workspace copy, open files, read
// diagnostics the way a person sees them (1-based line, code value).
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');

/** Generous: the machine is shared and loaded; every wait polls or listens, none sleeps blindly. */
const LONG = 60000;

/** Activates Hooksmith and waits until its language server answered `initialize`. */
async function activate() {
  const ext = e2e.extension();
  if (!ext) throw new Error(`${e2e.config.extensionId} is not installed`);
  const api = await ext.activate();
  await api.ready;
  return api;
}

/** Waits until `api.hooks()` (the server's `hooksmith/hooks` answer) satisfies `accept`. */
function waitForHooks(api, accept = (r) => !!r, { timeout = LONG, what = 'the hooks list' } = {}) {
  return e2e.waitFor(
    () => {
      const r = api.hooks();
      return r && accept(r) ? r : undefined;
    },
    { timeout, interval: 200, what },
  );
}

/** Absolute path inside the workspace copy. */
const ws = (...parts) => path.join(e2e.workspacePath(), ...parts);

/** Copies `examples/<name>` of the repo into the workspace copy at `dest` (relative); returns its path. */
function copyExample(name, dest) {
  const to = ws(dest);
  fs.cpSync(path.join(e2e.config.repoRoot, 'examples', name), to, { recursive: true });
  return to;
}

/** Opens `file` in an editor (so the server analyses it) and returns the document. */
async function open(file, { show = true } = {}) {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  if (show) await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

/** The diagnostic code as a string, whether VS Code holds it bare or as `{ value, target }`. */
const codeOf = (d) =>
  d.code && typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? '' : String(d.code);

/**
 * An information that depends on the test machine's interpreter, not on the code: without rasa-pro /
 * cayu installed, import-error says the shim stands in (or that the engine's own dependency cannot be
 * judged). Left out of what the tests compare, as the CLI's example-set tests leave it out.
 */
const isEnvironmentInfo = (d) =>
  codeOf(d) === 'import-error' && d.severity === vscode.DiagnosticSeverity.Information;

/** Hooksmith's own diagnostics of a list, less the machine-dependent environment information. */
const oursOf = (diags) => diags.filter((d) => d.source === 'hooksmith' && !isEnvironmentInfo(d));

/** Hooksmith's own diagnostics of `uri`. */
const ours = (uri) => oursOf(vscode.languages.getDiagnostics(uri));

/** `code@line` (1-based) of Hooksmith's diagnostics, sorted: easy to compare and to read in a failure. */
const codeLines = (diags) =>
  oursOf(diags)
    .map((d) => `${codeOf(d)}@${d.range.start.line + 1}`)
    .sort();

/** Waits for Hooksmith's diagnostics of `uri` to satisfy `accept` (given only ours). */
function waitForOurs(uri, accept, { timeout = LONG } = {}) {
  return e2e.waitForDiagnostics(uri, (all) => accept(oursOf(all)), { timeout }).then(oursOf);
}

/** Writes `text` to `file` through VS Code (fires the file watcher the server listens to). */
async function writeFile(file, text) {
  await vscode.workspace.fs.writeFile(vscode.Uri.file(file), Buffer.from(text, 'utf8'));
}

/** Closes every editor (tests start from a clean window). */
async function closeAll() {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Markdown/plain strings of a hover result, joined. */
function hoverText(hovers) {
  return (hovers || [])
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

/** Completion labels (string or { label }). */
function labels(list) {
  return (list && list.items ? list.items : []).map((i) =>
    typeof i.label === 'string' ? i.label : i.label.label,
  );
}

let catalogueCache;
/**
 * The product's catalogue (runtime/catalogue), bundled on the fly with the repo's esbuild:
 * point and phase names come from the single source of truth, never spelled in the tests.
 */
function catalogue() {
  if (catalogueCache) return catalogueCache;
  const root = e2e.config.repoRoot;
  const esbuild = require(require.resolve('esbuild', { paths: [root] }));
  const out = esbuild.buildSync({
    entryPoints: [path.join(root, 'runtime/catalogue/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  const Module = require('module');
  const m = new Module(path.join(root, 'runtime/catalogue/index.js'));
  m.paths = Module._nodeModulePaths(root);
  m._compile(out.outputFiles[0].text, m.id);
  catalogueCache = m.exports;
  return catalogueCache;
}

/** A scratch folder beside the workspace copy (outside the workspace folder): for extra agents. */
function scratch(name) {
  const base = e2e.config.runDir || fs.mkdtempSync(path.join(require('os').tmpdir(), 'hooksmith-e2e-'));
  const dir = path.join(base, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Copies `examples/<name>` into a scratch folder outside the workspace; returns its path. */
function copyExampleOutside(name, dest) {
  const to = scratch(dest);
  fs.cpSync(path.join(e2e.config.repoRoot, 'examples', name), to, { recursive: true });
  return to;
}

/** Webview tabs whose view type ends with `viewType` (e.g. 'hooksmith.timeline'). */
function webviewTabs(viewType) {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(viewType));
}

module.exports = {
  catalogue,
  scratch,
  copyExampleOutside,
  webviewTabs,
  LONG,
  activate,
  waitForHooks,
  ws,
  copyExample,
  open,
  codeOf,
  ours,
  codeLines,
  waitForOurs,
  writeFile,
  closeAll,
  hoverText,
  labels,
};

const bundleCache = new Map();
/**
 * A plain-data module of the repo (no `vscode` import), bundled on the fly with the repo's
 * esbuild, e.g. `repoModule('client/explorer/tree-model.ts')`: tests build the same objects
 * the product does (tree nodes, …) instead of spelling them out.
 */
function repoModule(rel) {
  if (bundleCache.has(rel)) return bundleCache.get(rel);
  const root = e2e.config.repoRoot;
  const esbuild = require(require.resolve('esbuild', { paths: [root] }));
  const out = esbuild.buildSync({
    entryPoints: [path.join(root, rel)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  const Module = require('module');
  const m = new Module(path.join(root, rel.replace(/\.ts$/, '.js')));
  m.paths = Module._nodeModulePaths(root);
  m._compile(out.outputFiles[0].text, m.id);
  bundleCache.set(rel, m.exports);
  return m.exports;
}

module.exports.repoModule = repoModule;

/**
 * A screenshot once webviews had a moment to paint (their HTML loads in an iframe after the
 * panel opens): for the pictures in test-output, never for an assertion.
 */
async function settledScreenshot(file, ms = 2500) {
  await new Promise((r) => setTimeout(r, ms));
  return e2e.screenshot(file);
}

module.exports.settledScreenshot = settledScreenshot;

/** A guard that crashes (KeyError) at line 5, in a helper it calls, for any tool but place_order. */
module.exports.CRASHING_GUARD = [
  'from rasa.mantle.hooks import ToolCallPayload, modify_tool_call',
  '',
  '',
  'def _check(call):',
  '    return {"place_order": 1}[call.tool_name]',
  '',
  '',
  '@modify_tool_call()',
  'async def strict_guard(call: ToolCallPayload) -> ToolCallPayload:',
  '    _check(call)',
  '    return call',
  '',
].join('\n');

/**
 * rasa-pro 3.21 invokes every Mantle point (#39), so `not-wired` and the timeline's "not invoked"
 * labels show only when hooksmith.mantle.wiredPoints leaves the incoming/outgoing text points out,
 * as an engine before 3.21 did: suites that read those set it, and put it back after.
 */
const WITHOUT_TEXT_POINTS = [
  'turn_started',
  'turn_finished',
  'model_request',
  'model_response',
  'tool_call',
  'tool_result',
  'knowledge_query',
  'knowledge_results',
];
module.exports.wireWithoutTextPoints = () =>
  vscode.workspace
    .getConfiguration('hooksmith')
    .update('mantle.wiredPoints', WITHOUT_TEXT_POINTS, vscode.ConfigurationTarget.Workspace);
module.exports.wireAsInstalled = () =>
  vscode.workspace
    .getConfiguration('hooksmith')
    .update('mantle.wiredPoints', undefined, vscode.ConfigurationTarget.Workspace);
