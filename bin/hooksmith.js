#!/usr/bin/env node
// The `hooksmith` CLI: runs the bundled dist/cli.js (run `npm run build` first).
//
// It runs it from a V8 code cache when it can: compiling 0.9 MB of JavaScript, and then each
// function the command calls, costs 50–80 ms of every start, and `hooksmith check` in a
// pre-commit hook starts often. The cache is written beside the bundle after a command's first
// run, one per command (each compiles different functions), keyed by the bundle's identity and
// the Node version; a cache V8 rejects is rewritten. Where dist/ is not writable, or anything
// about the cache fails, the bundle is simply required. HOOKSMITH_NO_CODE_CACHE=1 turns it off.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const { isAscii } = require('node:buffer');

const cli = path.join(__dirname, '..', 'dist', 'cli.js');
const cacheDir = path.join(path.dirname(cli), '.v8-cache');

/** Compiles the bundle with a code cache; undefined when that path is unavailable. */
function compileCached() {
  if (process.env.HOOKSMITH_NO_CODE_CACHE) return undefined;
  try {
    const source = readSource(cli);
    // V8 checks only the source's length against a cache, so the key must tell builds apart: a
    // rebuild changes the mtime, an install (npm sets every mtime to 1985) the version. A hash of
    // the content would be surer but costs ~11 ms (loading node:crypto), a fifth of the saving.
    const st = fs.statSync(cli);
    const version = packageVersion();
    const key = fnv1a(`${version} ${st.size} ${st.mtimeMs} ${st.ino} ${process.version} ${process.arch}`);
    const command = /^[a-z]{1,20}$/.test(process.argv[2] || '') ? process.argv[2] : 'other';
    const file = path.join(cacheDir, `cli-${command}-${key}.bin`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      // first run of this command (or of this build): compile, then write the cache at exit
    }
    const script = new vm.Script(Module.wrap(source), {
      filename: cli,
      cachedData,
      // web-tree-sitter's import() is not reached (runtime/python/parser.ts passes bytes); should
      // another be, it gets Node's loader as under require (Node ≥ 20.16 / 21.7).
      importModuleDynamically: vm.constants && vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (!cachedData || script.cachedDataRejected) process.once('exit', () => writeCache(script, file, key));
    return script;
  } catch {
    return undefined;
  }
}

/**
 * The bundle's text. esbuild writes ASCII (it escapes the rest), and ASCII read as latin1 is the
 * same string: ~2 ms for 1.1 MB, where Node's UTF-8 decoding took ~14 ms of every start.
 */
function readSource(file) {
  const bytes = fs.readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function packageVersion() {
  try {
    return String(JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version);
  } catch {
    return '?';
  }
}

/** A short hex digest (FNV-1a, 32 bits × 2 seeds) for a file name. */
function fnv1a(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ text.charCodeAt(i), 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Writes atomically (concurrent runs may race) and drops caches of other builds. */
function writeCache(script, file, key) {
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, file);
    for (const f of fs.readdirSync(cacheDir)) {
      if (!f.includes(key)) fs.rmSync(path.join(cacheDir, f), { force: true });
    }
  } catch {
    // read-only install, full disk: run without a cache next time too
  }
}

const script = compileCached();
if (script) {
  const m = new Module(cli, module);
  m.filename = cli;
  m.paths = Module._nodeModulePaths(path.dirname(cli));
  script.runInThisContext().call(m.exports, m.exports, Module.createRequire(cli), m, cli, path.dirname(cli));
} else {
  require(cli);
}
