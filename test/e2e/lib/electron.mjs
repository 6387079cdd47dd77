// Launcher (b): desktop VS Code downloaded by @vscode/test-electron, for machines
// with network (a developer's desktop). On a headless Linux box run it under
// `xvfb-run -a`. Uses test-electron only to download and locate VS Code: its
// runTests() always adds --disable-workspace-trust, which the untrusted pass must not.
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { CACHE_DIR } from './options.mjs';
import { whenOutOfTime } from './budget.mjs';

const require = createRequire(import.meta.url);

export const name = 'electron';

let liveChild; // for abort()

/** Kills the running VS Code at once (the launcher got SIGINT/SIGTERM). */
export function abort() {
  if (liveChild) kill(liveChild, 'SIGKILL');
}

function kill(child, signal) {
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F']);
    else process.kill(-child.pid, signal); // the whole process group
  } catch {
    /* already gone */
  }
}

export async function run({ run, pass, opts, clock, extensionDevelopmentPath, extensionTestsPath, log }) {
  // test-electron only when it has work: a VS Code already on this machine needs no download.
  const testElectron = () => require('@vscode/test-electron');
  // A VS Code already on this machine, or one downloaded (once) into .vscode-test/.
  const exe =
    process.env.HOOKSMITH_E2E_VSCODE_PATH ||
    (await testElectron().downloadAndUnzipVSCode({
      version: process.env.HOOKSMITH_E2E_VSCODE_VERSION || 'stable',
      cachePath: CACHE_DIR,
    }));
  const profile = ['--user-data-dir', run.dirs.userData, '--extensions-dir', run.dirs.extensions];
  // The desktop keeps its real HOME outside Linux (keychain, profiles).
  const env =
    process.platform === 'linux' ? run.env : { ...process.env, HOOKSMITH_E2E_CONFIG: run.configPath };

  if (opts.vsix) {
    const [cli, ...cliArgs] = testElectron().resolveCliArgsFromVSCodeExecutablePath(exe, {
      reuseMachineInstall: true,
    });
    const r = spawnSync(cli, [...cliArgs, ...profile, '--install-extension', opts.vsix], {
      env,
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    log(`install ${path.basename(opts.vsix)}: ${(r.stdout + r.stderr).trim().split('\n').pop()}`);
    if (r.status !== 0)
      throw new Error(`--install-extension failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  }

  const args = [
    run.workspaceFile ?? run.workspaceDir,
    ...profile,
    '--no-sandbox',
    '--disable-gpu-sandbox',
    '--disable-updates',
    '--skip-welcome',
    '--skip-release-notes',
    '--disable-telemetry',
    `--extensionDevelopmentPath=${extensionDevelopmentPath}`,
    `--extensionTestsPath=${extensionTestsPath}`,
  ];
  if (pass.trusted) args.push('--disable-workspace-trust');

  // The extension host's console goes to this process's stdout/stderr.
  const child = spawn(exe, args, {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: process.platform !== 'win32',
  });
  liveChild = child;
  const exited = new Promise((resolve) =>
    child.once('exit', (code) => resolve({ exitCode: code ?? 1, timedOut: false })),
  );
  const outOfTime = whenOutOfTime(clock);
  const outcome = await Promise.race([exited, outOfTime.promise]);
  outOfTime.cancel();
  if (outcome.timedOut) kill(child, 'SIGKILL');
  else kill(child, 'SIGTERM'); // leftovers of the group (file watchers, helpers)
  liveChild = undefined;
  if (pass.screenshot) log('--screenshot is not supported by the electron launcher; skipped');
  return outcome;
}
