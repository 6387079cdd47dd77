// initialize: what the client can do (server/client-profile.ts), its settings and folders. Answered at
// once, without waiting for the parser; server/boot.ts may have answered already (then the connection
// drops this copy).
import type { InitializeParams, InitializeResult } from 'vscode-languageserver/node';
import { initializeResult } from '../../capabilities';
import { clientProfile } from '../../client-profile';
import { uriPath } from '../../convert';
import { settingsSection } from '../../settings';
import type { Session } from '../../session';

export function initialize(s: Session, params: InitializeParams): InitializeResult {
  const caps = params.capabilities ?? {};
  s.client = clientProfile(params);
  s.out.useClient(caps);
  s.givenSettings = settingsSection(params.initializationOptions);
  s.canWatchDynamically = caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  const roots = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  s.folders = roots.map((u) => uriPath(u)).filter((p): p is string => p !== undefined);
  return initializeResult(params);
}
