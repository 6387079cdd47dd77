// Where diagnostics go out: pushed (`textDocument/publishDiagnostics`) or pulled
// (`textDocument/diagnostic`, LSP 3.17), as the client chose by its capabilities, each capped per
// code (server/publish-cap.ts).
//
// The model is the client's choice, as ruff's and pyright's servers make it: ruff resolves
// `pull_diagnostics` from the client's `textDocument.diagnostic` capability once at `initialize`
// and only then answers pulls (and publishes otherwise); pyright registers its pull feature when
// the client advertises it. A pulling client (Neovim 0.10+, Helix, Zed, VS Code) asks for an open
// document's diagnostics when it opens or changes it; the server answers with the analysis of
// that version (waiting for it), `unchanged` when the client's last result is still current, and
// asks the client to pull again (`workspace/diagnostic/refresh`) when an open document's
// diagnostics change without an edit of its own (a sibling module's duplicate registration). A
// file the client has not opened is still pushed, so the workspace's findings stay in view; when
// it opens, its pushed copy is cleared and the pulls take over (no diagnostic shown twice).
import {
  DocumentDiagnosticReportKind,
  type ClientCapabilities,
  type Connection,
  type DocumentDiagnosticReport,
} from 'vscode-languageserver/node';
import { DEFAULT_SETTINGS, type HooksmithSettings } from '../runtime/lsp/shared';
import type { HookDiagnostic } from '../runtime/rules/diagnostics';
import { samePublished, toLspDiagnostic } from './convert';
import { capPerCode } from './publish-cap';
import { pullsDiagnostics } from './capabilities';

interface Entry {
  diagnostics: HookDiagnostic[];
  version: number | undefined;
  /** Changes when the diagnostics do: a pull naming it is answered `unchanged`. */
  resultId: string;
}

export class DiagnosticsOut {
  private readonly last = new Map<string, Entry>();
  /** Documents open in a pulling client (their diagnostics are pulled, not pushed). */
  private readonly open = new Set<string>();
  /** Documents a pull is waiting on: their next result goes to that pull, no refresh needed. */
  private readonly pulling = new Set<string>();
  /** The version each open document's last pull answered for. */
  private readonly delivered = new Map<string, number | undefined>();
  private max = DEFAULT_SETTINGS.maxDiagnosticsPerCode;
  private pull = false;
  private canRefresh = false;
  private refreshTimer: NodeJS.Timeout | undefined;
  private ids = 0;

  /** `capOf(uri)`: the cap in the settings the document was analysed with, when they are read. */
  constructor(
    private readonly connection: Connection,
    private readonly capOf: (uri: string) => number | undefined = () => undefined,
  ) {}

  /** At `initialize`: pull or push, from the client's capabilities. */
  useClient(caps: ClientCapabilities | undefined): void {
    this.pull = pullsDiagnostics(caps);
    this.canRefresh = caps?.workspace?.diagnostics?.refreshSupport === true;
  }

  /** The settings as read now: a changed cap republishes what is shown. */
  configure(s: HooksmithSettings): void {
    if (s.maxDiagnosticsPerCode === this.max) return;
    this.max = s.maxDiagnosticsPerCode;
    for (const [uri, e] of this.last) {
      e.resultId = this.nextId();
      if (!this.pulled(uri)) this.send(uri, e);
    }
    if (this.pull) this.refreshSoon();
  }

  publish(uri: string, diagnostics: HookDiagnostic[], version: number | undefined): void {
    const before = this.last.get(uri);
    const same = before !== undefined && samePublished(before.diagnostics, diagnostics);
    const e = { diagnostics, version, resultId: same ? before.resultId : this.nextId() };
    this.last.set(uri, e);
    if (!this.pulled(uri)) return this.send(uri, e);
    // Changed with no edit of its own (a sibling's registrations): the client would not ask again.
    // After an edit, the client pulls for its new version anyway.
    const unasked = this.delivered.has(uri) && this.delivered.get(uri) === version;
    if (!same && !this.pulling.has(uri) && unasked) this.refreshSoon();
  }

  /** didOpen: a pulling client's document is pulled from now on (its pushed copy is cleared). */
  opened(uri: string): void {
    if (!this.pull || this.open.has(uri)) return;
    this.open.add(uri);
    if (this.last.get(uri)?.diagnostics.length)
      void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** didClose: pushed again (a closed hook module keeps its findings in view). */
  closed(uri: string): void {
    this.delivered.delete(uri);
    if (!this.open.delete(uri)) return;
    const e = this.last.get(uri);
    if (e?.diagnostics.length) this.send(uri, e);
  }

  /** Answers `textDocument/diagnostic`; `settle` waits for the analysis of the document's current version. */
  register(settle: (uri: string) => Promise<void>): void {
    this.connection.languages.diagnostics.on(async (p): Promise<DocumentDiagnosticReport> => {
      const uri = p.textDocument.uri;
      this.opened(uri); // a pull can come before didOpen is handled
      this.pulling.add(uri);
      try {
        await settle(uri);
      } finally {
        this.pulling.delete(uri);
      }
      const e = this.last.get(uri);
      this.delivered.set(uri, e?.version);
      const resultId = e?.resultId ?? 'none';
      if (p.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
      return { kind: DocumentDiagnosticReportKind.Full, resultId, items: this.shown(uri, e) };
    });
  }

  private pulled(uri: string): boolean {
    return this.pull && this.open.has(uri);
  }

  private send(uri: string, e: Entry): void {
    void this.connection.sendDiagnostics({ uri, version: e.version, diagnostics: this.shown(uri, e) });
  }

  private shown(uri: string, e: Entry | undefined) {
    return e ? capPerCode(e.diagnostics, this.capOf(uri) ?? this.max).map(toLspDiagnostic) : [];
  }

  private refreshSoon(): void {
    if (!this.canRefresh || this.refreshTimer) return;
    // Debounced: one change of hook registrations republishes every sibling module at once.
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.connection.languages.diagnostics.refresh();
    }, 50);
  }

  private nextId(): string {
    return String(++this.ids);
  }
}
