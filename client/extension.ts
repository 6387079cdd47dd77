// The extension's entry point (dist/extension.js): builds the context, activates every
// feature (one failing feature is logged and does not stop the others), starts the server.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { HooksResult } from '../runtime/lsp/shared';
import { HooksmithContext } from './context';
import { FEATURES, type Feature } from './features';
import type { StatusSnapshot } from './status';

/** What `activate` returns: for tests and for extensions that build on Hooksmith. */
export interface HooksmithApi {
  /** The running language client (a new one after each restart). */
  readonly client: LanguageClient | undefined;
  /** Resolves once the language server answered `initialize` (rejects if it could not start). */
  readonly ready: Promise<void>;
  /** The latest `hooksmith/hooks` answer. */
  hooks(): HooksResult | undefined;
  /** Adds a feature after activation (it gets the same context). */
  registerFeature(name: string, feature: Feature): Promise<void>;
  /** Command ids registered by the features. */
  readonly commands: readonly string[];
  /** The last lines of the Hooksmith output channel (for tests). */
  logLines(): readonly string[];
  /** What the server's status-bar item shows (for tests). */
  statusBar(): StatusSnapshot;
  /** What the failing tests' status-bar item shows (for tests). */
  testStatusBar(): StatusSnapshot;
}

let context: HooksmithContext | undefined;

async function runFeature(ctx: HooksmithContext, name: string, feature: Feature): Promise<void> {
  try {
    await feature(ctx);
  } catch (err) {
    ctx.log.error('activate', `feature ${name} failed to activate`, err);
  }
}

export async function activate(extension: vscode.ExtensionContext): Promise<HooksmithApi> {
  const t0 = Date.now();
  const ctx = new HooksmithContext(extension);
  context = ctx;
  extension.subscriptions.push(ctx);
  for (const f of FEATURES) await runFeature(ctx, f.name, f.activate);
  ctx.log.info(
    'activate',
    `${FEATURES.length} features in ${Date.now() - t0} ms (${vscode.workspace.isTrusted ? 'trusted' : 'untrusted'} workspace)`,
  );

  const ready = ctx.startServer();
  ready.catch((err: unknown) => {
    ctx.log.error('server', 'the language server did not start', err);
    void vscode.window
      .showErrorMessage(
        'Hooksmith: the language server did not start. See the Hooksmith output.',
        'Show Output',
      )
      .then((c) => {
        if (c) ctx.log.show();
      });
  });

  return {
    get client() {
      return ctx.client;
    },
    ready,
    hooks: () => ctx.hooks.current,
    registerFeature: (name, feature) => runFeature(ctx, name, feature),
    get commands() {
      return ctx.registeredCommands;
    },
    logLines: () => ctx.log.lines(),
    statusBar: () => ctx.status.snapshot(),
    testStatusBar: () => ctx.testStatus.snapshot(),
  };
}

export async function deactivate(): Promise<void> {
  const ctx = context;
  context = undefined;
  await ctx?.stopServer();
}
