// The status-bar item: what the language server is doing, and the click that helps —
// the output channel while it works, a restart once it stopped or crashed.
import * as vscode from 'vscode';

export type ServerState = 'starting' | 'ready' | 'stopped' | 'crashed';

/** Commands the item runs on click (registered by commands.ts). */
export const SHOW_OUTPUT_COMMAND = 'hooksmith.showOutput';
export const RESTART_COMMAND = 'hooksmith.restartServer';

export class ServerStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'hooksmith.status',
    vscode.StatusBarAlignment.Left,
    10,
  );
  private state: ServerState = 'stopped';
  private hookCount: number | undefined;
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
        i.text =
          n === undefined ? '$(check) Hooksmith' : `$(check) Hooksmith: ${n} hook${n === 1 ? '' : 's'}`;
        i.tooltip = `Hooksmith: language server ready${n === undefined ? '' : `, ${n} hook${n === 1 ? '' : 's'} found`}. Click for the log.`;
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
