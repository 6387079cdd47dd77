// The latest `hooksmith/hooks` answer, shared by the explorer, the status item and the
// scaffold's duplicate check. Refreshed (debounced) when the client starts, when the
// diagnostics of a Python file change (the server republishes after every analysis), and on save.
import * as vscode from 'vscode';
import { HOOKS_REQUEST, type HooksParams, type HooksResult } from '../runtime/lsp/shared';
import type { HooksmithContext } from './context';
import { normaliseHooks } from './hooks-data';

export const REFRESH_DEBOUNCE_MS = 300;

export class HooksStore implements vscode.Disposable {
  private result: HooksResult | undefined;
  private readonly emitter = new vscode.EventEmitter<HooksResult | undefined>();
  readonly onDidChange = this.emitter.event;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly ctx: HooksmithContext) {
    this.subscriptions.push(
      this.emitter,
      ctx.onDidChangeClient((client) => {
        if (client) this.schedule(0);
        else this.set(undefined);
      }),
      vscode.languages.onDidChangeDiagnostics((e) => {
        if (e.uris.some((u) => u.path.endsWith('.py'))) this.schedule();
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.languageId === 'python') this.schedule();
      }),
    );
  }

  get current(): HooksResult | undefined {
    return this.result;
  }

  schedule(delay = REFRESH_DEBOUNCE_MS): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, delay);
  }

  /** Asks the server now; on failure keeps the last answer and logs why. */
  async refresh(params: HooksParams = {}): Promise<HooksResult | undefined> {
    const client = this.ctx.client;
    if (!client || !client.isRunning()) return this.result;
    try {
      const raw: unknown = await client.sendRequest(HOOKS_REQUEST, params);
      this.set(normaliseHooks(raw));
    } catch (err) {
      this.ctx.log.warn(
        'hooks',
        `${HOOKS_REQUEST} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return this.result;
  }

  private set(result: HooksResult | undefined): void {
    this.result = result;
    this.emitter.fire(result);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.subscriptions) d.dispose();
  }
}
