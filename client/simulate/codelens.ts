// "▶ Simulate turn" on the first line of every scenario file (hidden when untrusted).
import * as vscode from 'vscode';
import { isMantleScenarioPath } from '../../runtime/engine/mantle-scenario';

export const SCENARIO_GLOB = '**/*.scenario.{yaml,yml,json}';
export const SIMULATE_COMMAND = 'hooksmith.simulateTurn';
export const DEBUG_TURN_COMMAND = 'hooksmith.debugTurn';

export function isScenarioPath(p: string): boolean {
  return /\.scenario\.(ya?ml|json)$/i.test(p);
}

export class ScenarioCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly trust = vscode.workspace.onDidGrantWorkspaceTrust(() => this.emitter.fire());

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    // Mantle's eval files play too (their scripted conversation, or a model's): #45 item 5.
    const file = doc.uri.fsPath;
    if (!vscode.workspace.isTrusted || !(isScenarioPath(file) || isMantleScenarioPath(file))) return [];
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: '▶ Simulate turn',
        command: SIMULATE_COMMAND,
        arguments: [doc.uri],
        tooltip: 'Play this scenario through every hook of its agent and show the timeline',
      }),
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: '$(debug-alt) Debug turn',
        command: DEBUG_TURN_COMMAND,
        arguments: [doc.uri],
        tooltip: 'Play this scenario under the debugger (debugpy): breakpoints in its hooks stop it',
      }),
    ];
  }

  dispose(): void {
    this.emitter.dispose();
    this.trust.dispose();
  }
}
