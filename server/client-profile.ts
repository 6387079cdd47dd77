// What the connected client understands, read once from `initialize`: the server answers every
// editor by its capabilities, not as if it were VS Code. Hooksmith's own VS Code client says who
// it is with the experimental capability `hooksmith` (HOOKSMITH_CLIENT_CAPABILITY); only then do
// `command:` links, the light-bulb Fix All (a VS Code command) and `hooksmith/hooksChanged` go out.
import type { ClientCapabilities, InitializeParams } from 'vscode-languageserver';
import { HOOKSMITH_CLIENT_CAPABILITY, type HooksmithClientCapability } from '../runtime/lsp/shared';

export interface ClientProfile {
  /** Hooksmith's VS Code client: it runs `command:` links and VS Code commands. */
  vscode: boolean;
  /** Wants `hooksmith/hooksChanged` notifications. */
  hooksChanged: boolean;
  /** Takes versioned `documentChanges` in a workspace edit (so it can refuse a stale one). */
  documentChanges: boolean;
  /** Takes snippet syntax (`$0`, `${1:x}`) in completion items. */
  snippets: boolean;
  /** Answers `window/showDocument` (opens a rule's page). */
  showDocument: boolean;
  /** Answers `workspace/configuration`. */
  configuration: boolean;
}

export function clientProfile(
  params: Pick<InitializeParams, 'capabilities' | 'initializationOptions'>,
): ClientProfile {
  const caps: ClientCapabilities = params.capabilities ?? {};
  const own = ownCapability(caps.experimental) ?? ownCapability(initOption(params.initializationOptions));
  return {
    vscode: own?.vscode === true,
    hooksChanged: own?.hooksChanged === true,
    documentChanges: caps.workspace?.workspaceEdit?.documentChanges === true,
    snippets: caps.textDocument?.completion?.completionItem?.snippetSupport === true,
    showDocument: caps.window?.showDocument?.support === true,
    configuration: caps.workspace?.configuration === true,
  };
}

function ownCapability(experimental: unknown): HooksmithClientCapability | undefined {
  if (typeof experimental !== 'object' || experimental === null) return undefined;
  const own = (experimental as Record<string, unknown>)[HOOKSMITH_CLIENT_CAPABILITY];
  return typeof own === 'object' && own !== null ? (own as HooksmithClientCapability) : undefined;
}

/** `initializationOptions.client` (an editor whose config can set options but not capabilities). */
function initOption(options: unknown): unknown {
  if (typeof options !== 'object' || options === null) return undefined;
  const client = (options as Record<string, unknown>).client;
  return client === undefined ? undefined : { [HOOKSMITH_CLIENT_CAPABILITY]: client };
}
