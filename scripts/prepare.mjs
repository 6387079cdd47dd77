// npm's `prepare`: builds dist/ (scripts/build.mjs). It runs after `npm ci` / `npm install` in a
// checkout and when npm installs Hooksmith from git, which is how pre-commit ≥ 4 installs a
// `language: node` hook (`npm install --install-links -g git+file://…`). In that install npm
// prepares the clone with a nested `npm install` that inherits `--global`, so the clone gets no
// node_modules and the bundler cannot be found; then this installs the clone's own dependencies
// (dev ones included: esbuild bundles them) locally first, as pre-commit < 4 did itself.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function canResolve(name) {
  try {
    createRequire(join(root, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env,
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!canResolve('esbuild')) {
  // npm_config_global (set by the outer `npm install -g`) would install this folder globally again.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k.toLowerCase() !== 'npm_config_global'),
  );
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const args = [
    'install',
    '--global=false',
    '--include=dev',
    '--ignore-scripts',
    '--no-save',
    '--no-audit',
    '--no-fund',
  ];
  run(npm[0], [...npm.slice(1), ...args], env);
}
run(process.execPath, [join(root, 'scripts', 'build.mjs')]);
