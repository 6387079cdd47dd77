// Which Python runs hooks: the Python extension's active environment when installed, else the
// `hooksmith.pythonPath` setting, else `python3`. Each candidate is probed; rejections are
// logged with why, and "none works" is one clear message with the fixes.
import * as vscode from 'vscode';
import type { HooksmithContext } from '../context';
import { chooseInterpreter, type Candidate, type Choice } from './probe';

const PYTHON_EXTENSION_ID = 'ms-python.python';

interface PythonEnvironments {
  getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string };
  resolveEnvironment(env: {
    id: string;
    path: string;
  }): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
  onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
}

/** The Python extension's environments API, if that extension is installed (activating it). */
async function pythonEnvironments(log: HooksmithContext['log']): Promise<PythonEnvironments | undefined> {
  if (!vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) return undefined;
  try {
    const { PythonExtension } = await import('@vscode/python-extension');
    const api = await PythonExtension.api();
    return api.environments as unknown as PythonEnvironments;
  } catch (err) {
    log.warn(
      'python',
      `the Python extension's API is unavailable: ${err instanceof Error ? err.message : String(err)}`,
    );
    return undefined;
  }
}

export class InterpreterResolver implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when the interpreter to use may have changed (Python extension selection, setting). */
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[] = [this.emitter];
  private envs: Promise<PythonEnvironments | undefined> | undefined;

  constructor(private readonly ctx: HooksmithContext) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hooksmith.pythonPath')) this.emitter.fire();
      }),
      vscode.extensions.onDidChange(() => {
        // The Python extension was installed or removed: ask again.
        this.envs = undefined;
        this.emitter.fire();
      }),
    );
  }

  private environments(): Promise<PythonEnvironments | undefined> {
    if (!this.envs) {
      this.envs = pythonEnvironments(this.ctx.log).then((envs) => {
        if (envs) this.subscriptions.push(envs.onDidChangeActiveEnvironmentPath(() => this.emitter.fire()));
        return envs;
      });
    }
    return this.envs;
  }

  async candidates(resource?: vscode.Uri): Promise<Candidate[]> {
    const out: Candidate[] = [];
    const envs = await this.environments();
    if (envs) {
      try {
        const active = envs.getActiveEnvironmentPath(resource);
        const resolved = await envs.resolveEnvironment(active);
        out.push({
          python: resolved?.executable.uri?.fsPath ?? active.path,
          source: "the Python extension's active environment",
        });
      } catch (err) {
        this.ctx.log.warn(
          'python',
          `the Python extension gave no active environment: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    const setting = this.ctx.settings(resource).pythonPath.trim();
    if (setting) out.push({ python: setting, source: 'the hooksmith.pythonPath setting' });
    out.push({ python: process.platform === 'win32' ? 'python' : 'python3', source: 'the default' });
    return out;
  }

  /** Probes the candidates in order; logs the choice and every rejection. */
  async resolve(resource?: vscode.Uri): Promise<Choice> {
    const choice = await chooseInterpreter(await this.candidates(resource));
    for (const r of choice.rejected) this.ctx.log.warn('python', `rejected ${r}`);
    if (choice.ok)
      this.ctx.log.info(
        'python',
        `running hooks with ${choice.python} (Python ${choice.version}, from ${choice.source})`,
      );
    else this.ctx.log.error('python', 'no usable Python interpreter for running hooks');
    return choice;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}

/** "No Python works": one message with the fixes. */
/** The Python extension's interpreter picker where it is installed, else the hooksmith.pythonPath setting. */
export async function pickInterpreter(): Promise<void> {
  if (vscode.extensions.getExtension(PYTHON_EXTENSION_ID))
    await vscode.commands.executeCommand('python.setInterpreter');
  else await vscode.commands.executeCommand('workbench.action.openSettings', 'hooksmith.pythonPath');
}

export async function showNoInterpreter(
  rejected: readonly string[],
  log: HooksmithContext['log'],
): Promise<void> {
  const select = 'Select Interpreter';
  const settings = 'Open Settings';
  const actions = vscode.extensions.getExtension(PYTHON_EXTENSION_ID)
    ? [select, settings, 'Show Output']
    : [settings, 'Show Output'];
  const choice = await vscode.window.showErrorMessage(
    `Hooksmith: no usable Python (3.9+) to run hooks. Tried: ${rejected.join('; ') || 'nothing'}. Select an interpreter in the Python extension or set hooksmith.pythonPath.`,
    ...actions,
  );
  if (choice === select) await vscode.commands.executeCommand('python.setInterpreter');
  else if (choice === settings)
    await vscode.commands.executeCommand('workbench.action.openSettings', 'hooksmith.pythonPath');
  else if (choice === 'Show Output') log.show();
}
