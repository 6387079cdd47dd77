// Builds the language client for the bundled server (dist/server.js, stdio). The error
// handler restarts a crashed server up to the restart policy's limit, then stops and says so.
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  TransportKind,
  type CloseHandlerResult,
  type ErrorHandler,
  type ErrorHandlerResult,
  type LanguageClientOptions,
  type ServerOptions,
  type StaticFeature,
} from 'vscode-languageclient/node';
import {
  HOOKSMITH_CLIENT_CAPABILITY,
  SETTINGS_SECTION,
  SHOW_DOCS_COMMAND,
  type HooksmithClientCapability,
} from '../runtime/lsp/shared';
import { ruleCodeOfDocsUrl } from '../runtime/rules/diagnostics';
import type { CrashVerdict } from './restart-policy';

export const CLIENT_ID = 'hooksmith';

/** The files runtime/testing/case-file-check.ts's isCaseFile takes, as globs. */
export const CASE_FILE_PATTERNS = [
  '**/*.scenario.{yaml,yml,json}',
  '**/eval/scenarios/*.{yml,yaml}',
  '**/.hooksmith/payloads/*.json',
];
export const CLIENT_NAME = 'Hooksmith Language Server';

export interface ClientHooks {
  /** The server process ended unexpectedly; the verdict says what happens next. */
  onCrash(): CrashVerdict;
  outputChannel: vscode.OutputChannel;
  // Watches every .py file for the server; owned by the caller, shared across restarts.
  watcher: vscode.FileSystemWatcher;
}

/** Transport errors are retried a few times before the connection is shut down. */
const MAX_TRANSPORT_ERRORS = 3;

function errorHandler(hooks: ClientHooks): ErrorHandler {
  return {
    error(_error, _message, count): ErrorHandlerResult {
      return {
        action: (count ?? 1) <= MAX_TRANSPORT_ERRORS ? ErrorAction.Continue : ErrorAction.Shutdown,
        handled: true,
      };
    },
    closed(): CloseHandlerResult {
      const verdict = hooks.onCrash();
      return {
        action: verdict.action === 'restart' ? CloseAction.Restart : CloseAction.DoNotRestart,
        handled: true,
      };
    },
  };
}

/**
 * The app URI of a rule's page (`vscode://hooksmith.hooksmith/rule/<code>`): VS Code hands it to the
 * extension's URI handler (client/docs/rule-docs.ts), which shows the page shipped in the extension. A
 * plain link, unlike a `command:` URI, reads well where VS Code prints it (the Problems tooltip).
 */
export function ruleDocsAppUri(extensionId: string, code: string): vscode.Uri {
  return vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: extensionId, path: `/rule/${code}` });
}

/**
 * A diagnostic's code links to its rule's page on the web (what the server sends any client);
 * in VS Code it opens the page shipped in the extension instead, in the rule documentation view.
 */
export function shippedDocsLinks(extensionId: string, diagnostics: vscode.Diagnostic[]): vscode.Diagnostic[] {
  for (const d of diagnostics) {
    if (typeof d.code !== 'object' || !d.code.target) continue;
    const code = ruleCodeOfDocsUrl(d.code.target.toString(true));
    if (code) d.code = { value: d.code.value, target: ruleDocsAppUri(extensionId, code) };
  }
  return diagnostics;
}

export function createLanguageClient(extension: vscode.ExtensionContext, hooks: ClientHooks): LanguageClient {
  const module = extension.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
      // Scenarios and payload cases: checked by the same loader as `hooksmith test` (no YAML extension needed).
      ...CASE_FILE_PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
    ],
    synchronize: {
      // The server re-pulls `hooksmith.*` settings when they change (workspace/configuration).
      configurationSection: SETTINGS_SECTION,
      // Hook modules of an agent see each other (duplicate-modify-hook across files).
      fileEvents: hooks.watcher,
    },
    outputChannel: hooks.outputChannel,
    // Hovers link to the rule reference through this one command, nothing else.
    markdown: { isTrusted: { enabledCommands: [SHOW_DOCS_COMMAND] }, supportHtml: false },
    errorHandler: errorHandler(hooks),
    middleware: {
      handleDiagnostics: (uri, diagnostics, next) =>
        next(uri, shippedDocsLinks(extension.extension.id, diagnostics)),
      // This client pulls an open document's diagnostics (server/pull-diagnostics.ts): the same links.
      provideDiagnostics: async (document, previousResultId, token, next) => {
        const report = await next(document, previousResultId, token);
        if (report && 'items' in report) shippedDocsLinks(extension.extension.id, report.items);
        return report;
      },
    },
  };
  // The id makes `hooksmith.trace.server` control message tracing.
  const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  client.registerFeature(vscodeClientFeature);
  return client;
}

/**
 * Tells the server this is Hooksmith's VS Code client (server/client-profile.ts): it runs `command:`
 * links and VS Code commands, and listens for `hooksmith/hooksChanged` (explorer, CodeLens).
 */
const vscodeClientFeature: StaticFeature = {
  fillClientCapabilities(capabilities) {
    const own: HooksmithClientCapability = { vscode: true, hooksChanged: true };
    capabilities.experimental = { ...(capabilities.experimental ?? {}), [HOOKSMITH_CLIENT_CAPABILITY]: own };
  },
  initialize() {},
  getState: () => ({ kind: 'static' }),
  clear() {},
};
