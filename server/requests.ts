// The server's requests about a document (hover, completion, code actions, symbols) and its own
// (`hooksmith/hooks`, `workspace/executeCommand`): each asks the analyser and shapes the answer for
// the client that asked (server/client-profile.ts).
import type { Connection } from 'vscode-languageserver/node';
import { HOOKS_REQUEST, OPEN_RULE_PAGE_COMMAND, type HooksParams } from '../runtime/lsp/shared';
import type { WiringSource } from '../runtime/catalogue/wiring';
import type { Analyser, ModuleState } from './analyser';
import type { CaseFiles } from './case-files';
import type { ClientProfile } from './client-profile';
import type { ServerEnvironment } from './environment';
import type { Scheduler } from './scheduler';
import type { SettingsCache } from './settings';
import { caseCompletions, caseHover, caseSymbols } from './features/case-language';
import { codeActions, snapshotOf } from './features/code-actions';
import { completions } from './features/completion';
import { forClient } from './features/client-text';
import { documentSymbols } from './features/symbols';
import { hover } from './features/hover';
import { listHooks } from './features/hooks-list';
import { openRulePage } from './features/rule-page';

type Safe = <P, R>(name: string, fallback: R, fn: (p: P) => R | Promise<R>) => (p: P) => Promise<R>;

export interface RequestDeps {
  analyser: Analyser;
  scheduler: Scheduler;
  settings: SettingsCache;
  environment: ServerEnvironment;
  cases: CaseFiles;
  client: () => ClientProfile;
  safe: Safe;
  /** Resolves once the first workspace scan ended. */
  firstScan: Promise<void>;
}

export function registerRequests(connection: Connection, d: RequestDeps): void {
  const { analyser, scheduler, cases, safe } = d;

  /** The installed engine and the settings, as the not-wired rule is told. */
  async function wiring(uri: string | undefined): Promise<WiringSource | undefined> {
    const s = await d.settings.get(uri);
    return d.environment.forRules(
      s.mantle.wiredPoints ?? undefined,
      () => undefined,
      s.mantle.apiLine ?? undefined,
    );
  }

  /**
   * The module with the diagnostics of its current version: a request about a document is about the
   * version the client last sent, so an analysis still pending for it is run first.
   */
  async function settled(uri: string): Promise<ModuleState | undefined> {
    for (let tries = 0; tries < 5; tries++) {
      const state = analyser.get(uri);
      if (!state?.buffer || state.diagnosticsVersion === state.buffer.version) return state;
      if (analyser.waitsForSave(state)) return undefined;
      scheduler.cancel(state.key);
      await scheduler.runNow(state.key);
    }
    return undefined;
  }

  connection.onHover(
    safe('hover', null, async (p) => {
      const view = cases.view(p.textDocument.uri);
      if (view) return caseHover(view, p.position);
      await settled(p.textDocument.uri);
      return forClient.hover(d.client(), hover(analyser, p, await wiring(p.textDocument.uri)));
    }),
  );
  connection.onCompletion(
    safe('completion', [], async (p) => {
      const view = cases.view(p.textDocument.uri);
      const client = d.client();
      if (view) return forClient.completions(client, caseCompletions(view, p.position, !client.vscode));
      return forClient.completions(client, completions(analyser, p, await wiring(p.textDocument.uri)));
    }),
  );
  connection.onCodeAction(
    safe('codeAction', [], async (p) => {
      const uri = p.textDocument.uri;
      const client = d.client();
      if (cases.handles(uri)) return cases.codeActions(p, client);
      for (let tries = 0; tries < 3; tries++) {
        const state = await settled(uri);
        if (!state) return [];
        const snap = snapshotOf(state, uri);
        const actions = await codeActions(analyser, state, snap, p, client);
        // An edit the document moved past while they were computed: a client without versioned
        // edits could not tell, so they are computed again on the new version.
        const current = analyser.get(uri) === state && (state.buffer?.version ?? null) === snap.version;
        if (current || client.documentChanges) return actions;
      }
      return [];
    }),
  );
  connection.onExecuteCommand(
    safe('executeCommand', null, async (p) => {
      if (p.command === OPEN_RULE_PAGE_COMMAND) await openRulePage(connection, d.client(), p.arguments?.[0]);
      return null;
    }),
  );
  connection.onDocumentSymbol(
    safe('documentSymbol', [], (p) => {
      const view = cases.view(p.textDocument.uri);
      return view ? caseSymbols(view) : documentSymbols(analyser, p);
    }),
  );
  connection.onRequest(
    HOOKS_REQUEST,
    safe('hooks', { agents: [] }, async (p: HooksParams | undefined) => {
      await d.firstScan;
      return listHooks(analyser, p ?? {}, await wiring(undefined));
    }),
  );
}
