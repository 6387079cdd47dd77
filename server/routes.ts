// The routing table (as ruff's server/api.rs): each LSP method the server answers, the name its
// failures are logged under, and its handler, one file each under server/handlers/. A new method is
// one handler file and one line here. `initialize` and `shutdown` are bound by startServer: the
// connection answers them itself around its own handler.
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidChangeWorkspaceFoldersNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  HoverRequest,
  InitializedNotification,
} from 'vscode-languageserver/node';
import { HOOKS_REQUEST } from '../runtime/lsp/shared';
import { notification, request, type Route } from './handlers/route';
import { initialized } from './handlers/notifications/initialized';
import { didOpen } from './handlers/notifications/did-open';
import { didChange } from './handlers/notifications/did-change';
import { didSave } from './handlers/notifications/did-save';
import { didClose } from './handlers/notifications/did-close';
import { didChangeWatchedFiles } from './handlers/notifications/did-change-watched-files';
import { didChangeConfiguration } from './handlers/notifications/did-change-configuration';
import { didChangeWorkspaceFolders } from './handlers/notifications/did-change-workspace-folders';
import { hover } from './handlers/requests/hover';
import { completion } from './handlers/requests/completion';
import { codeAction } from './handlers/requests/code-action';
import { executeCommand } from './handlers/requests/execute-command';
import { documentSymbol } from './handlers/requests/document-symbol';
import { hooks } from './handlers/requests/hooks';

export const ROUTES: readonly Route[] = [
  notification(InitializedNotification.type, 'initialized', initialized),
  notification(DidOpenTextDocumentNotification.type, 'didOpen', didOpen),
  notification(DidChangeTextDocumentNotification.type, 'didChange', didChange),
  notification(DidSaveTextDocumentNotification.type, 'didSave', didSave),
  notification(DidCloseTextDocumentNotification.type, 'didClose', didClose),
  notification(DidChangeWatchedFilesNotification.type, 'didChangeWatchedFiles', didChangeWatchedFiles),
  notification(DidChangeConfigurationNotification.type, 'didChangeConfiguration', didChangeConfiguration),
  notification(
    DidChangeWorkspaceFoldersNotification.type,
    'didChangeWorkspaceFolders',
    didChangeWorkspaceFolders,
  ),
  request(HoverRequest.type, 'hover', null, hover),
  request(CompletionRequest.type, 'completion', [], completion),
  request(CodeActionRequest.type, 'codeAction', [], codeAction),
  request(ExecuteCommandRequest.type, 'executeCommand', null, executeCommand),
  request(DocumentSymbolRequest.type, 'documentSymbol', [], documentSymbol),
  request(HOOKS_REQUEST, 'hooks', { agents: [] }, hooks),
];
