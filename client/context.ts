// The one object every feature receives (rust-analyzer's pattern): it owns the settings, the
// language client, the output channel, the status item and every disposable, and
// `registerCommand(name, handler)` adds the `hooksmith.` prefix and the cleanup.
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import {
  DEFAULT_SETTINGS,
  SETTINGS_SECTION,
  settingsSchema,
  type HooksmithSettings,
} from '../runtime/lsp/shared';
import { HooksStore } from './hooks-store';
import { createLanguageClient } from './language-client';
import { Logger } from './log';
import { RestartPolicy, type CrashVerdict } from './restart-policy';
import { ServerStatus, TestStatus, type ProblemCounts } from './status';

export const COMMAND_PREFIX = 'hooksmith.';

/** Hooksmith's own errors and warnings across the workspace, with their own severity. */
function countProblems(): ProblemCounts {
  const out = { errors: 0, warnings: 0 };
  for (const [, diags] of vscode.languages.getDiagnostics())
    for (const d of diags) {
      if (d.source !== 'hooksmith') continue;
      if (d.severity === vscode.DiagnosticSeverity.Error) out.errors++;
      else if (d.severity === vscode.DiagnosticSeverity.Warning) out.warnings++;
    }
  return out;
}

export class HooksmithContext implements vscode.Disposable {
  readonly log = new Logger('Hooksmith');
  readonly status = new ServerStatus();
  /** The failing tests' status-bar item (client/testing sets it). */
  readonly testStatus = new TestStatus();
  readonly hooks: HooksStore;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly policy = new RestartPolicy();
  private readonly watcher = vscode.workspace.createFileSystemWatcher('**/*.py');
  private readonly clientEmitter = new vscode.EventEmitter<LanguageClient | undefined>();
  /** Fires when a (new) client is running, or undefined when it stopped. */
  readonly onDidChangeClient = this.clientEmitter.event;
  private _client: LanguageClient | undefined;
  private readonly commandIds: string[] = [];

  constructor(readonly extension: vscode.ExtensionContext) {
    this.hooks = new HooksStore(this);
    this.push(this.log, this.status, this.testStatus, this.watcher, this.clientEmitter, this.hooks);
    this.push(
      this.hooks.onDidChange((r) =>
        this.status.setHookCount(r ? r.agents.reduce((n, a) => n + a.hooks.length, 0) : undefined),
      ),
      vscode.languages.onDidChangeDiagnostics(() => this.status.setProblems(countProblems())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.status.refresh()),
    );
  }

  /** The running language client, if any (a new object after each restart). */
  get client(): LanguageClient | undefined {
    return this._client;
  }

  /** `hooksmith.*` settings of the resource's folder, cleaned: a bad value falls back to its default and is logged. */
  settings(scope?: vscode.ConfigurationScope): HooksmithSettings {
    const raw = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof HooksmithSettings)[]) {
      const one = settingsSchema.shape[key].safeParse(raw.get(key));
      if (one.success) out[key] = one.data;
      else {
        this.log.warn(
          'settings',
          `ignoring invalid hooksmith.${key}: ${one.error.issues[0]?.message ?? 'bad value'}`,
        );
        out[key] = DEFAULT_SETTINGS[key];
      }
    }
    return out as HooksmithSettings;
  }

  push(...disposables: vscode.Disposable[]): void {
    this.disposables.push(...disposables);
  }

  /** Registers `hooksmith.<name>`; a handler that throws is logged and shown, never lost. */
  registerCommand(name: string, handler: (...args: unknown[]) => unknown): void {
    const id = name.startsWith(COMMAND_PREFIX) ? name : COMMAND_PREFIX + name;
    this.commandIds.push(id);
    this.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (err) {
          this.log.error('command', `${id} failed`, err);
          void vscode.window.showErrorMessage(
            `Hooksmith: ${id} failed: ${err instanceof Error ? err.message : String(err)}`,
          );
          return undefined;
        }
      }),
    );
  }

  /** Ids registered so far (tests and the manifest check). */
  get registeredCommands(): readonly string[] {
    return this.commandIds;
  }

  async startServer(): Promise<void> {
    if (this._client) return;
    this.status.set('starting');
    const client = createLanguageClient(this.extension, {
      outputChannel: this.log.channel,
      watcher: this.watcher,
      onCrash: () => this.onCrash(),
    });
    this._client = client;
    client.onDidChangeState((e) => {
      if (this._client !== client) return;
      if (e.newState === State.Running) {
        this.status.set('ready');
        this.clientEmitter.fire(client);
      } else if (e.newState === State.Starting) this.status.set('starting');
      else if (e.newState === State.Stopped && this.status.current !== 'crashed') this.status.set('stopped');
    });
    try {
      await this.log.time('server', `started ${this.extension.asAbsolutePath('dist/server.js')}`, () =>
        client.start(),
      );
    } catch (err) {
      this.status.set('crashed', err instanceof Error ? err.message : String(err));
      this._client = undefined;
      throw err;
    }
  }

  async stopServer(): Promise<void> {
    const client = this._client;
    this._client = undefined;
    if (!client) return;
    this.clientEmitter.fire(undefined);
    try {
      if (client.state !== State.Stopped) await client.stop(2000);
    } catch (err) {
      this.log.warn('server', `stop: ${err instanceof Error ? err.message : String(err)}`);
    }
    await client.dispose(2000).catch(() => undefined);
    this.status.set('stopped');
  }

  async restartServer(): Promise<void> {
    this.policy.reset();
    this.log.info('server', 'restart requested');
    await this.stopServer();
    await this.startServer();
  }

  private onCrash(): CrashVerdict {
    const verdict = this.policy.crashed(Date.now());
    if (verdict.action === 'restart') {
      this.log.warn(
        'server',
        `the language server stopped unexpectedly; restarting (attempt ${verdict.attempt})`,
      );
      this.status.set('starting', `restart ${verdict.attempt}`);
      void vscode.window.showWarningMessage(
        `Hooksmith: the language server crashed and is being restarted (attempt ${verdict.attempt}).`,
      );
    } else {
      this.log.error(
        'server',
        `the language server crashed ${verdict.crashes} times in a few minutes; not restarting it`,
      );
      this.status.set('crashed', `${verdict.crashes} crashes`);
      void vscode.window
        .showErrorMessage(
          `Hooksmith: the language server crashed ${verdict.crashes} times and was stopped. See the Hooksmith output for details.`,
          'Restart',
          'Show Output',
        )
        .then((choice) => {
          if (choice === 'Restart')
            void this.restartServer().catch((err) => this.log.error('server', 'restart failed', err));
          else if (choice === 'Show Output') this.log.show();
        });
    }
    return verdict;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // one bad disposable must not keep the others alive
      }
    }
  }
}
