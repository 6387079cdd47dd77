// A reusable webview panel: created on first show, revealed after, HTML replaced on each
// result; messages from the page are parsed and handed to the owner. Scripts on, nothing local.
import * as vscode from 'vscode';
import { makeNonce, type WebviewSecurity } from '../../runtime/ui/html-kit';
import { openAt, parseMessage, type WebviewMessage } from './webview-messages';

export class ReusablePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly viewType: string,
    private readonly onMessage: (m: WebviewMessage) => void | Promise<void>,
  ) {}

  /** Renders `html(security)` into the panel (created or revealed beside the editor). */
  show(title: string, html: (sec: WebviewSecurity) => string): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        this.viewType,
        title,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [], retainContextWhenHidden: true },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage(async (raw: unknown) => {
        const m = parseMessage(raw);
        if (!m) return;
        if (m.type === 'open') await openAt(m.file, m.line);
        else await this.onMessage(m);
      });
    } else this.panel.reveal(undefined, true);
    this.panel.title = title;
    this.panel.webview.html = html({ nonce: makeNonce(), cspSource: this.panel.webview.cspSource });
  }

  /** The HTML shown now (for tests: what the page holds). */
  get html(): string | undefined {
    return this.panel?.webview.html;
  }

  get visible(): boolean {
    return this.panel !== undefined;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
