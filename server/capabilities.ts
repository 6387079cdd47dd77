// What the server answers to `initialize`: the same for every client (what differs by client is
// decided per request, server/client-profile.ts). Light on purpose: server/boot.ts sends it
// before the rest of the server has loaded.
import type { ClientCapabilities, InitializeResult } from 'vscode-languageserver';
import { FIX_ALL_KIND, OPEN_RULE_PAGE_COMMAND } from '../runtime/lsp/names';

export const INITIALIZE_RESULT: InitializeResult = {
  capabilities: {
    textDocumentSync: {
      openClose: true,
      change: 2, // TextDocumentSyncKind.Incremental (a value: importing the enum loads the library)
      save: { includeText: false },
    },
    hoverProvider: true,
    executeCommandProvider: { commands: [OPEN_RULE_PAGE_COMMAND] },
    completionProvider: { triggerCharacters: ['@', '.', '"', "'", '{', '(', ','] },
    codeActionProvider: { codeActionKinds: ['quickfix', FIX_ALL_KIND] },
    documentSymbolProvider: true,
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  },
  serverInfo: { name: 'hooksmith' },
};

/**
 * The client pulls diagnostics: it advertised `textDocument.diagnostic` (LSP 3.17). Then the server
 * offers `diagnosticProvider` and answers pulls for open documents (server/pull-diagnostics.ts).
 */
export const pullsDiagnostics = (caps: ClientCapabilities | undefined): boolean =>
  caps?.textDocument?.diagnostic !== undefined && caps.textDocument.diagnostic !== null;

/** INITIALIZE_RESULT for this client: with `diagnosticProvider` when it pulls diagnostics. */
export function initializeResult(
  params: { capabilities?: ClientCapabilities } | undefined,
): InitializeResult {
  if (!pullsDiagnostics(params?.capabilities)) return INITIALIZE_RESULT;
  return {
    ...INITIALIZE_RESULT,
    capabilities: {
      ...INITIALIZE_RESULT.capabilities,
      // interFileDependencies: a module's duplicate-modify-hook depends on its siblings.
      diagnosticProvider: {
        identifier: 'hooksmith',
        interFileDependencies: true,
        workspaceDiagnostics: false,
      },
    },
  };
}

/** What boot.ts hands the rest of the server over stdio. */
export interface EarlyStart {
  /** The client's bytes, from the first (already read) on. */
  input: NodeJS.ReadableStream;
  /** The id of the `initialize` request boot.ts answered, if it did. */
  answered?: number | string;
}

const KEY = Symbol.for('hooksmith.earlyStart');

export function handOver(start: EarlyStart): void {
  (globalThis as Record<symbol, unknown>)[KEY] = start;
}

export function takeOver(): EarlyStart | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as EarlyStart | undefined;
}
