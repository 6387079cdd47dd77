// Options of the e2e launcher: command-line flags win over HOOKSMITH_E2E_* env vars.
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const E2E_DIR = path.join(REPO_ROOT, 'test/e2e');
export const SUITE_DIR = path.join(E2E_DIR, 'suite');
/** Git-ignored: the installed VS Code server, the browser driver, per-run state. */
export const CACHE_DIR = path.join(REPO_ROOT, '.vscode-test');

export const USAGE = `Usage: node test/e2e/launch.mjs [options]     (or: npm run test:e2e -- [options])
  --launcher code-server|electron  HOOKSMITH_E2E_LAUNCHER   default: code-server on Linux when set up (or settable), else electron
  --workspace DIR                  HOOKSMITH_E2E_WORKSPACE  folder to open (copied to a temp dir); default examples/clean-agent
  --trust both|on|off              HOOKSMITH_E2E_TRUST      on: trusted pass; off: untrusted pass (workspace trust left on);
                                                            both (default): trusted pass, then untrusted pass if any *.untrusted.test.js
  --files GLOBS                    HOOKSMITH_E2E_FILES      test files to run, relative to test/e2e/suite (comma-separated, !excludes);
                                                            one trusted pass unless --trust off
  --grep PATTERN                   HOOKSMITH_E2E_GREP       mocha grep
  --screenshot FILE.png            HOOKSMITH_E2E_SCREENSHOT page screenshot when the tests end (code-server launcher)
  --vsix FILE.vsix                 HOOKSMITH_E2E_VSIX       test the installed .vsix instead of the repo folder
  --timeout SECONDS                HOOKSMITH_E2E_TIMEOUT    fixed whole-pass budget (default: none; the pass gets
                                                            --startup-timeout + one --test-timeout per test, under CI's limit)
  --startup-timeout SECONDS        HOOKSMITH_E2E_STARTUP_TIMEOUT  start-up allowance of a pass (default 300)
  --test-timeout MS                HOOKSMITH_E2E_TEST_TIMEOUT  mocha per-test timeout (default 30000)
  --no-setup                       HOOKSMITH_E2E_SETUP=0    never run scripts/e2e-setup.sh
  --keep                           HOOKSMITH_E2E_KEEP=1     keep the run's temp folders
  --verbose                        HOOKSMITH_E2E_VERBOSE=1  print every server and browser log line`;

const FLAGS = {
  '--launcher': 'launcher',
  '--workspace': 'workspace',
  '--trust': 'trust',
  '--files': 'files',
  '--grep': 'grep',
  '--screenshot': 'screenshot',
  '--vsix': 'vsix',
  '--timeout': 'timeout',
  '--startup-timeout': 'startupTimeout',
  '--test-timeout': 'testTimeout',
};
const SWITCHES = { '--no-setup': ['setup', false], '--keep': ['keep', true], '--verbose': ['verbose', true] };

const truthy = (v) => v !== undefined && !/^(0|false|no|off|)$/i.test(v);

export function parseOptions(argv = process.argv.slice(2), env = process.env) {
  const o = {
    launcher: env.HOOKSMITH_E2E_LAUNCHER || 'auto',
    workspace: env.HOOKSMITH_E2E_WORKSPACE || '',
    trust: env.HOOKSMITH_E2E_TRUST || 'both',
    files: env.HOOKSMITH_E2E_FILES || '',
    grep: env.HOOKSMITH_E2E_GREP || '',
    screenshot: env.HOOKSMITH_E2E_SCREENSHOT || '',
    vsix: env.HOOKSMITH_E2E_VSIX || '',
    timeout: env.HOOKSMITH_E2E_TIMEOUT || '',
    startupTimeout: env.HOOKSMITH_E2E_STARTUP_TIMEOUT || '300',
    testTimeout: env.HOOKSMITH_E2E_TEST_TIMEOUT || '30000',
    setup: env.HOOKSMITH_E2E_SETUP === undefined ? true : truthy(env.HOOKSMITH_E2E_SETUP),
    keep: truthy(env.HOOKSMITH_E2E_KEEP),
    verbose: truthy(env.HOOKSMITH_E2E_VERBOSE),
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (SWITCHES[flag]) {
      const [k, v] = SWITCHES[flag];
      o[k] = v;
      continue;
    }
    if (!FLAGS[flag]) throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
    const value = inline !== undefined ? inline : argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    o[FLAGS[flag]] = value;
  }

  if (!['auto', 'code-server', 'electron'].includes(o.launcher))
    throw new Error(`bad launcher: ${o.launcher}`);
  o.trust = { on: 'on', trusted: 'on', off: 'off', untrusted: 'off', both: 'both', auto: 'both' }[
    o.trust.toLowerCase()
  ];
  if (!o.trust) throw new Error('--trust is both, on or off');
  if (o.files && o.trust === 'both') o.trust = 'on'; // chosen files run once, trusted, unless --trust off
  // No fixed budget by default: the pass's budget follows its number of tests (lib/budget.mjs).
  o.timeoutMs = o.timeout === '' ? 0 : Number(o.timeout) * 1000;
  o.startupTimeoutMs = Number(o.startupTimeout) * 1000;
  o.testTimeoutMs = Number(o.testTimeout);
  if (o.timeout !== '' && !(o.timeoutMs > 0)) throw new Error('--timeout must be a positive number');
  if (!(o.startupTimeoutMs > 0) || !(o.testTimeoutMs > 0))
    throw new Error('timeouts must be positive numbers');

  if (!o.workspace) {
    const example = path.join(REPO_ROOT, 'examples/clean-agent');
    o.workspace = fs.existsSync(example) ? example : ''; // '' → an empty folder
  }
  if (o.workspace) {
    o.workspace = path.resolve(o.workspace);
    if (!fs.statSync(o.workspace, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`no such folder: ${o.workspace}`);
  }
  if (o.vsix) {
    o.vsix = path.resolve(o.vsix);
    if (!fs.existsSync(o.vsix)) throw new Error(`no such .vsix: ${o.vsix}`);
  }
  if (o.screenshot) o.screenshot = path.resolve(o.screenshot);
  return o;
}

/**
 * The passes to run. Trusted (the default pass) loads every *.test.js except the
 * *.untrusted.test.js files, which run in the untrusted pass with workspace trust on, and the
 * *.multiroot.test.js files, which run trusted (trust both, or named by --files) in a workspace
 * of two folders (the opened folder's copy and an empty second one: a web VS Code cannot add a
 * folder to an open window without a reload).
 */
export function planPasses(o) {
  const passes = [];
  const multiRootFiles = o.files ? o.files.split(',').filter((f) => /\.multiroot\.test\.js$/.test(f)) : [];
  const others = o.files
    ?.split(',')
    .filter((f) => !multiRootFiles.includes(f))
    .join(',');
  if (o.trust !== 'off' && (!o.files || others))
    passes.push({
      name: 'trusted',
      trusted: true,
      files: others || '**/*.test.js,!**/*.untrusted.test.js,!**/*.multiroot.test.js',
    });
  // Beside the trusted pass by default (trust both), or when --files names a multi-root file.
  if ((o.trust === 'both' && !o.files) || (o.trust !== 'off' && multiRootFiles.length))
    passes.push({
      name: 'multi-root',
      trusted: true,
      multiRoot: true,
      files: multiRootFiles.join(',') || '**/*.multiroot.test.js',
    });
  if (o.trust !== 'on' && (!o.files || others))
    passes.push({ name: 'untrusted', trusted: false, files: others || '**/*.untrusted.test.js' });
  return passes;
}
