// The status-bar items. The server's: what the language server is doing, and the click that
// helps — the output channel while it works, a restart once it stopped or crashed. Once ready, its
// icon is the worst severity of Hooksmith's diagnostics (never a check mark beside errors), and in
// an untrusted folder it says so: restricted mode, click to trust. The tests': how many of the
// Testing view's cases failed when they last ran (shown only then), click for the Testing view.
import * as vscode from 'vscode';

export type ServerState = 'starting' | 'ready' | 'stopped' | 'crashed';

/** Commands the item runs on click (registered by commands.ts). */
export const SHOW_OUTPUT_COMMAND = 'hooksmith.showOutput';
export const RESTART_COMMAND = 'hooksmith.restartServer';
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';
export const SHOW_TESTING_COMMAND = 'workbench.view.extension.test';
export const RERUN_FAILED_COMMAND = 'testing.reRunFailTests';

/** Hooksmith diagnostics across the workspace, by severity. */
export interface ProblemCounts {
  errors: number;
  warnings: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What a status-bar item shows (for tests: the status bar has no read API). */
export interface StatusSnapshot {
  text: string;
  tooltip: string;
  command: string | undefined;
  visible: boolean;
}

function snapshotOf(item: vscode.StatusBarItem, visible: boolean): StatusSnapshot {
  const c = item.command;
  return {
    text: item.text,
    tooltip: typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? ''),
    command: typeof c === 'string' ? c : c?.command,
    visible,
  };
}

export class ServerStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'hooksmith.status',
    vscode.StatusBarAlignment.Left,
    10,
  );
  private state: ServerState = 'stopped';
  private hookCount: number | undefined;
  private problems: ProblemCounts = { errors: 0, warnings: 0 };
  private detail = '';

  constructor() {
    this.item.name = 'Hooksmith';
    this.render();
    this.item.show();
  }

  get current(): ServerState {
    return this.state;
  }

  set(state: ServerState, detail = ''): void {
    this.state = state;
    this.detail = detail;
    this.render();
  }

  setHookCount(count: number | undefined): void {
    this.hookCount = count;
    this.render();
  }

  setProblems(problems: ProblemCounts): void {
    if (problems.errors === this.problems.errors && problems.warnings === this.problems.warnings) return;
    this.problems = problems;
    this.render();
  }

  snapshot(): StatusSnapshot {
    return snapshotOf(this.item, true);
  }

  /** Re-renders after the workspace trust changed. */
  refresh(): void {
    this.render();
  }

  private render(): void {
    const i = this.item;
    i.backgroundColor = undefined;
    switch (this.state) {
      case 'starting':
        i.text = '$(sync~spin) Hooksmith';
        i.tooltip = 'Hooksmith: starting the language server…';
        i.command = SHOW_OUTPUT_COMMAND;
        break;
      case 'ready': {
        const n = this.hookCount;
        const { errors, warnings } = this.problems;
        const hooks = n === undefined ? '' : `: ${plural(n, 'hook')}`;
        const found = n === undefined ? '' : `, ${plural(n, 'hook')} found`;
        const counts = [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : '']
          .filter(Boolean)
          .join(', ');
        const icon = errors ? '$(error)' : warnings ? '$(warning)' : '$(check)';
        if (!vscode.workspace.isTrusted) {
          i.text = `$(shield) Hooksmith${hooks} · restricted`;
          i.tooltip = `Hooksmith: restricted mode${found}${counts ? `; ${counts}` : ''}. Diagnostics work; running a hook or simulating a turn executes your code and needs a trusted folder. Click to trust this folder to run hooks.`;
          i.command = MANAGE_TRUST_COMMAND;
          i.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
          break;
        }
        i.text = `${icon} Hooksmith${hooks}${counts ? ` · ${counts}` : ''}`;
        i.tooltip = `Hooksmith: language server ready${found}${counts ? `; ${counts} in hook modules` : ''}. Click for the log.`;
        i.command = SHOW_OUTPUT_COMMAND;
        break;
      }
      case 'stopped':
        i.text = '$(circle-slash) Hooksmith: stopped';
        i.tooltip = `Hooksmith: the language server is stopped${this.detail ? ` (${this.detail})` : ''}. Click to restart.`;
        i.command = RESTART_COMMAND;
        break;
      case 'crashed':
        i.text = '$(error) Hooksmith: crashed';
        i.tooltip = `Hooksmith: the language server crashed${this.detail ? ` (${this.detail})` : ''}. Click to restart.`;
        i.command = RESTART_COMMAND;
        i.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** The failing tests' item, right of the server's: hidden until a test run left cases failing. */
export class TestStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'hooksmith.tests',
    vscode.StatusBarAlignment.Left,
    9,
  );
  private failing: string[] = [];

  constructor() {
    this.item.name = 'Hooksmith tests';
    this.item.command = SHOW_TESTING_COMMAND;
  }

  /** The labels of the cases that failed (or could not run) when they last ran. */
  setFailing(labels: readonly string[]): void {
    this.failing = [...labels];
    const n = this.failing.length;
    if (!n) {
      // Nothing failing: no stale list left behind the hidden item (the snapshot reads it).
      this.item.text = '';
      this.item.tooltip = undefined;
      this.item.hide();
      return;
    }
    this.item.text = `$(testing-failed-icon) ${n} failing`;
    const tip = new vscode.MarkdownString(
      `Hooksmith: ${plural(n, 'test')} failing\n\n${this.failing
        .slice(0, 10)
        .map((l) => `- ${l.replace(/[\\`*_[\]<>]/g, '\\$&')}`)
        .join('\n')}${n > 10 ? `\n- … ${n - 10} more` : ''}\n\n` +
        `Click for the Testing view · [Re-run failed](command:${RERUN_FAILED_COMMAND})`,
    );
    tip.isTrusted = { enabledCommands: [RERUN_FAILED_COMMAND] };
    this.item.tooltip = tip;
    this.item.show();
  }

  snapshot(): StatusSnapshot {
    return snapshotOf(this.item, this.failing.length > 0);
  }

  dispose(): void {
    this.item.dispose();
  }
}
