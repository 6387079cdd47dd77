// One pass's scratch folders, the config file that tells the suite what to run,
// and the results file it writes back.
//
//   <tmp>/hooksmith-e2e-XXXX/            runDir (outside the repo: no parent git repo)
//     workspace/                         the copy of the workspace folder VS Code opens
//     workspace-2/, e2e.code-workspace   a multi-root pass's second folder and the workspace it opens
//     e2e-config.json                    read by test/e2e/suite/harness.js
//     results.json                       written by test/e2e/suite/index.js
//     screenshot-requests/               harness.screenshot() ↔ the code-server launcher
//   <repo>/.vscode-test/runs/XXXX/       stateDir: HOME, XDG_*, user data, extensions
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CACHE_DIR, REPO_ROOT } from './options.mjs';

// Keep in step with CONFIG_NAME in test/e2e/suite/harness.js.
const CONFIG_NAME = 'e2e-config.json';

// User settings for every pass: no prompts, no network, no noise.
const USER_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.untrustedFiles': 'open',
  'git.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export function createRun({ workspace, launcher, pass, opts }) {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hooksmith-e2e-'));
  const stateDir = path.join(CACHE_DIR, 'runs', path.basename(runDir));
  const workspaceDir = path.join(runDir, 'workspace');
  if (workspace) {
    fs.cpSync(workspace, workspaceDir, { recursive: true, filter: (src) => path.basename(src) !== '.git' });
  } else {
    fs.mkdirSync(workspaceDir);
  }

  // A multi-root pass opens a .code-workspace of the copy and a second, empty folder.
  let workspaceFile;
  if (pass.multiRoot) {
    fs.mkdirSync(path.join(runDir, 'workspace-2'));
    workspaceFile = path.join(runDir, 'e2e.code-workspace');
    fs.writeFileSync(
      workspaceFile,
      JSON.stringify({ folders: [{ path: 'workspace' }, { path: 'workspace-2' }] }),
    );
  }

  const dirs = {
    home: path.join(stateDir, 'home'),
    userData: path.join(stateDir, 'user-data'),
    serverData: path.join(stateDir, 'server-data'),
    extensions: path.join(stateDir, 'extensions'),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  // Both the desktop and the server's web client read <user-data>/User/settings.json.
  fs.mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.userData, 'User/settings.json'), JSON.stringify(USER_SETTINGS, null, 2));

  const resultsPath = path.join(runDir, 'results.json');
  const configPath = path.join(runDir, CONFIG_NAME);
  const config = {
    launcher,
    pass: pass.name,
    files: pass.files,
    grep: opts.grep,
    mochaTimeout: opts.testTimeoutMs,
    resultsPath,
    runDir,
    extensionMode: opts.vsix ? 'vsix' : 'dev',
    extensionId: 'hooksmith.hooksmith',
    repoRoot: REPO_ROOT,
    screenshots: launcher === 'code-server',
    // The launcher drives the page (clicks and reads inside webviews, keys, dialogs) on request.
    ui: launcher === 'code-server',
  };
  fs.writeFileSync(configPath, JSON.stringify(config, null, 2));

  // Keep VS Code and the browser out of the real home folder.
  const env = {
    ...process.env,
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_DATA_HOME: path.join(dirs.home, '.local/share'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    XDG_STATE_HOME: path.join(dirs.home, '.local/state'),
    HOOKSMITH_E2E_CONFIG: configPath,
  };
  return { runDir, stateDir, workspaceDir, workspaceFile, configPath, resultsPath, config, dirs, env };
}

/** The counts the suite wrote, or null when it never started. */
export function readResults(run) {
  try {
    return JSON.parse(fs.readFileSync(run.resultsPath, 'utf8'));
  } catch {
    return null;
  }
}

export function removeRun(run) {
  for (const dir of [run.runDir, run.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
}
