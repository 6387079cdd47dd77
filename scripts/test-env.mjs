// Makes or refreshes the tests' own Python environments under .test-env/ (git-ignored), one per
// pinned requirements file in test/python-env/: `tools` (debugpy, coverage; no engine, so the
// shims play), `engines` (rasa-pro 3.21.0 and cayu 0.15.0) and `cayu-0.3` (the older Cayu line,
// which cannot share an environment with 0.15). An environment whose stamp (a hash of its
// requirements file and the base interpreter's version) matches is left alone: a second run costs
// well under a second. What each environment holds, or why it is missing, is written to
// .test-env/envs.json, which test/python-envs.ts reads; tests still import before they trust it.
// Offline or without a usable python3 nothing fails here: the reason is said once, and the tests
// that need an environment skip with it.
// Usage: node scripts/test-env.mjs [--quiet] [NAME ...]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const specs = join(root, 'test', 'python-env');
const home = process.env.HOOKSMITH_TEST_ENV_DIR ?? join(root, '.test-env');
const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const wanted = args.filter((a) => !a.startsWith('--'));
const say = (line) => console.log(`test-env: ${line}`);

/** What each environment must import to be usable (its reason to exist). */
const PROBES = {
  tools: 'import debugpy, coverage',
  engines: 'import rasa.mantle.hooks, cayu, debugpy, coverage',
  'cayu-0.3': 'import cayu, debugpy, coverage',
};

function run(command, argv, options = {}) {
  return spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
}

/** The interpreter environments are made from: python3 (CI's 3.11), or HOOKSMITH_TEST_BASE_PYTHON. */
function baseInterpreter() {
  const python = process.env.HOOKSMITH_TEST_BASE_PYTHON ?? 'python3';
  const r = run(python, ['-c', 'import sys, venv; print(sys.version.split()[0])']);
  if (r.status !== 0) return { reason: `${python} cannot make a virtual environment (${firstLine(r)})` };
  return { python, version: r.stdout.trim() };
}

function firstLine(r) {
  if (r.error) return r.error.message;
  const text = `${r.stderr}\n${r.stdout}`.trim().split('\n');
  return (text.find((l) => /error/i.test(l)) ?? text.at(-1) ?? `exit ${r.status}`).trim();
}

const interpreterOf = (dir) => join(dir, 'bin', 'python');

function stampOf(name, base) {
  const text = readFileSync(join(specs, `${name}.txt`), 'utf8');
  return createHash('sha256').update(`${base.version}\n${text}`).digest('hex');
}

function imports(python, name) {
  return run(python, ['-c', PROBES[name] ?? 'pass']).status === 0;
}

function make(name, base, stop) {
  const dir = join(home, name);
  const stampFile = join(dir, '.hooksmith-stamp');
  const stamp = stampOf(name, base);
  const python = interpreterOf(dir);
  // Up to date: same requirements, same base Python, interpreter still there (the tests import
  // what they need themselves, so this check stays a few milliseconds).
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && existsSync(python)) {
    return { python, fresh: false };
  }
  if (stop) return { reason: stop };
  const started = Date.now();
  if (!quiet) say(`making ${name} (${join(specs, `${name}.txt`)}) ...`);
  rmSync(dir, { recursive: true, force: true });
  const made = run(base.python, ['-m', 'venv', dir]);
  if (made.status !== 0) return { reason: `python3 -m venv failed: ${firstLine(made)}` };
  const pip = run(python, [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--disable-pip-version-check',
    '-r',
    join(specs, `${name}.txt`),
  ]);
  if (pip.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { reason: `pip install failed (offline, or the registry refused): ${firstLine(pip)}` };
  }
  if (!imports(python, name)) return { reason: `made, but "${PROBES[name]}" fails in ${python}` };
  writeFileSync(stampFile, stamp);
  return { python, fresh: true, seconds: (Date.now() - started) / 1000 };
}

function main() {
  const names = readdirSync(specs)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .filter((n) => !wanted.length || wanted.includes(n))
    .sort();
  mkdirSync(home, { recursive: true });
  const base = baseInterpreter();
  const envs = {};
  const missing = [];
  // One reason that stops every environment (no python3, the registry unreachable) is said once.
  let stop = base.reason;
  for (const name of names) {
    const made = base.reason ? { reason: base.reason } : make(name, base, stop);
    envs[name] = made.python
      ? { python: made.python, probe: PROBES[name] }
      : { reason: made.reason, install: 'npm run test:env' };
    if (made.reason) {
      missing.push(name);
      if (/pip install failed/.test(made.reason)) stop = made.reason;
    } else if (made.fresh) say(`${name}: made in ${made.seconds.toFixed(1)} s`);
    else if (!quiet) say(`${name}: up to date`);
  }
  if (missing.length)
    say(
      `not available: ${missing.join(', ')}: ${stop ?? envs[missing[0]].reason}; the tests that need them skip, saying so`,
    );
  writeFileSync(join(home, 'envs.json'), `${JSON.stringify({ envs }, null, 2)}\n`);
}

main();
