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
} from 'vscode-languageclient/node';
import { SETTINGS_SECTION, SHOW_DOCS_COMMAND } from '../runtime/lsp/shared';
import type { CrashVerdict } from './restart-policy';

export const CLIENT_ID = 'hooksmith';
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
  };
  // The id makes `hooksmith.trace.server` control message tracing.
  return new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
}
