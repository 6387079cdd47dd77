#!/usr/bin/env node
// The `hooksmith` CLI: runs the bundled dist/cli.js (run `npm run build` first).
//
// It runs it from a V8 code cache when it can: compiling 0.9 MB of JavaScript, and then each
// function the command calls, costs 50–80 ms of every start, and `hooksmith check` in a
// pre-commit hook starts often. The cache is written beside the bundle after a command's first
// run, one per command (each compiles different functions), keyed by the bundle's content and
// the Node version; a cache V8 rejects is rewritten. Where dist/ is not writable, or anything
// about the cache fails, the bundle is simply required. HOOKSMITH_NO_CODE_CACHE=1 turns it off.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const cli = path.join(__dirname, '..', 'dist', 'cli.js');
const cacheDir = path.join(path.dirname(cli), '.v8-cache');

/** Compiles the bundle with a code cache; undefined when that path is unavailable. */
function compileCached() {
  if (process.env.HOOKSMITH_NO_CODE_CACHE) return undefined;
  try {
    const source = fs.readFileSync(cli, 'utf8');
    // V8 checks only the source's length against a cache: the key must cover the content.
    const key = crypto.createHash('sha256').update(source).update(`${process.version} ${process.arch}`).digest('hex').slice(0, 20);
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
