// The server's global state, as ruff's session.rs keeps it: the client's profile, the workspace
// folders, the settings, and the parts built once over them (the analyser, its schedulers, the
// interpreter's environment, CPython's syntax verdicts, the case files). Handlers (server/handlers/)
// get the session and read one document through `snapshot`, never through the analyser's live state.
import { MessageType, ShowMessageNotification, type Connection } from 'vscode-languageserver/node';
import { basename, dirname } from 'node:path';
import { initParser } from '../runtime/python/parser';
import { HOOKS_CHANGED_NOTIFICATION, SETTINGS_SECTION, type HooksmithSettings } from '../runtime/lsp/shared';
import type { WiringSource } from '../runtime/catalogue/wiring';
import type { HookDiagnostic } from '../runtime/rules/diagnostics';
import type { RuleEnvironment } from '../runtime/rules/rule';
import { Analyser, SAVE_ONLY_CHARS, type ModuleState } from './analyser';
import { uriPath } from './convert';
import { DiagnosticsOut } from './pull-diagnostics';
import { clientProfile, type ClientProfile } from './client-profile';
import { CaseFiles } from './case-files';
import { EngineNotices } from './engine-notices';
import { Scheduler } from './scheduler';
import { SettingsCache } from './settings';
import { SyntaxConfirmer } from './syntax-check';
import { ServerEnvironment } from './environment';
import { ExtraRootsScanner, extraRoots } from './extra-roots';
import { settledSnapshot, type DocumentSnapshot } from './snapshot';

export class Session {
  readonly log = (msg: string): void => this.connection.console.log(msg);
  /** The parser (WebAssembly) loads while the client initializes; every handler but `initialize` waits for it. */
  readonly parserReady = initParser();
  client: ClientProfile = clientProfile({ capabilities: {} });
  canWatchDynamically = false;
  folders: string[] = [];
  /** Settings the client gave without being asked: `initializationOptions`, then each didChangeConfiguration. */
  givenSettings: unknown;
  /** hooksmith.extraAgentRoots as last read (a created or deleted file rescans them). */
  extra: string[] = [];
  /** Resolves once the first workspace scan ended: a hooks request before it waits (no false "no hooks"). */
  readonly firstScan: Promise<void>;
  firstScanDone: () => void = () => undefined;

  readonly settings: SettingsCache;
  /** Pushed or pulled as the client chose, capped per code (server/pull-diagnostics.ts, publish-cap.ts). */
  readonly out: DiagnosticsOut;
  readonly analyser: Analyser;
  readonly scheduler: Scheduler;
  readonly cases: CaseFiles;
  readonly caseScheduler: Scheduler;
  readonly environment: ServerEnvironment;
  readonly syntax: SyntaxConfirmer;
  readonly extraScanner: ExtraRootsScanner;

  private hooksChangedTimer: NodeJS.Timeout | undefined;
  /** The last scan's log line without its time: the same scan again is not logged twice. */
  private lastScan: string | undefined;
  /** Buffers already told they are analysed on save only (told once per buffer). */
  private readonly toldSaveOnly = new Set<string>();

  constructor(readonly connection: Connection) {
    this.firstScan = new Promise<void>((resolve) => (this.firstScanDone = resolve));
    // Pulled per document where the client answers workspace/configuration with something; else the given ones.
    this.settings = new SettingsCache(async (uri) => {
      if (this.client.configuration) {
        const scopeUri = uri;
        const pulled: unknown = await connection.workspace.getConfiguration({
          scopeUri,
          section: SETTINGS_SECTION,
        });
        if (pulled !== null && pulled !== undefined) return pulled;
      }
      return this.givenSettings;
    }, this.log);
    this.out = new DiagnosticsOut(connection, (uri) => this.settings.peek(uri)?.maxDiagnosticsPerCode);
    this.analyser = this.createAnalyser();
    this.scheduler = new Scheduler((key) => this.analyser.validate(key), this.log);
    this.cases = new CaseFiles(this.analyser, {
      publish: (uri, diagnostics, version) => this.send(uri, diagnostics, version),
      folders: () => this.folders,
    });
    this.caseScheduler = new Scheduler(async (uri) => this.cases.validate(uri), this.log);
    this.analyser.installedMantle = () => this.environment.installedMantle();
    // Engine facts and import answers arrive later; they revalidate what they concern.
    this.environment = new ServerEnvironment(
      this.log,
      (keys) => {
        for (const s of this.analyser.all())
          if ((keys === 'all' || s.key === keys) && !this.analyser.waitsForSave(s))
            this.scheduler.schedule(s.key, s.buffer ? 'open' : 'background');
      },
      undefined,
      (message) => void connection.window.showInformationMessage(message),
    );
    this.syntax = new SyntaxConfirmer(
      async () => (await this.settings.get(undefined)).pythonPath,
      (key, text, verdict) => this.analyser.applyCpython(key, text, verdict),
      this.log,
    );
    this.extraScanner = new ExtraRootsScanner({
      log: this.log,
      adopt: (roots, modules) => this.analyser.adoptExtra(roots, modules),
      load: (file) => (this.analyser.loadDiscovered(file) ? file : undefined),
      validate: (key) => this.scheduler.runNow(key, 'background'),
    });
  }

  private createAnalyser(): Analyser {
    // The engine-not-installed information: on one module per agent, not on every module.
    const notices = new EngineNotices(
      (uri, diagnostics, version) => this.send(uri, diagnostics, version),
      (uri) => this.analyser.get(uri)?.root ?? dirname(uriPath(uri) ?? uri),
    );
    return new Analyser({
      publish: (uri, diagnostics, version) => notices.publish(uri, diagnostics, version),
      settings: (uri) => this.settings.get(uri),
      log: this.log,
      confirmSyntax: (state) => this.syntax.request(state.key, state.text),
      environment: (state, s) => this.rulesEnvironment(state, s),
      hooksChanged: () => this.hooksChanged(),
    });
  }

  /** What the rules know of the interpreter for one module; its imports are asked about on the way. */
  private rulesEnvironment(state: ModuleState, s: HooksmithSettings): RuleEnvironment | undefined {
    this.environment.use(s.pythonPath);
    // Only a Mantle module imports as the engine loads an agent; a Cayu module, from its project.
    const root = state.engine === 'mantle' ? state.root : undefined;
    const imports = state.model.imports.map((b) => b.module);
    this.environment.request({ key: state.key, path: state.path, root, imports });
    return this.environment.forRules(
      s.mantle.wiredPoints ?? undefined,
      () => root,
      s.mantle.apiLine ?? undefined,
      s.cayu.apiLine ?? undefined,
    );
  }

  /** Debounced: typing in a decorator line changes the hooks on every keystroke. */
  private hooksChanged(): void {
    if (this.hooksChangedTimer) clearTimeout(this.hooksChangedTimer);
    this.hooksChangedTimer = setTimeout(() => {
      // `{}`: the library sends no params as `params: [null]`, which strict clients reject.
      if (this.client.hooksChanged) void this.connection.sendNotification(HOOKS_CHANGED_NOTIFICATION, {});
      // A scenario's hook names are judged against the agent's hooks.
      for (const uri of this.cases.uris()) this.caseScheduler.schedule(uri);
    }, 200);
  }

  private send(uri: string, diagnostics: HookDiagnostic[], version: number | undefined): void {
    this.out.publish(uri, diagnostics, version);
  }

  /** The workspace folders now; the extra agent roots in the background (requests never wait for them). */
  async scanWorkspace(): Promise<void> {
    const t0 = performance.now();
    const s = await this.settings.get(undefined);
    this.out.configure(s);
    const base = this.folders[0] ?? process.cwd();
    this.extra = extraRoots(s.extraAgentRoots, base, this.log);
    this.analyser.files.extraRoots = this.extra; // an open buffer in an extra root is classified at once
    const files = this.analyser.scan(this.folders);
    void this.extraScanner.start(this.extra);
    // Read and validated one by one behind the open documents (server/scheduler.ts).
    await Promise.all(files.map((key) => this.scheduler.runNow(key, 'background')));
    const found = files.filter((key) => this.analyser.get(key));
    const what = `${this.folders.length} folder(s): ${found.length} hook module(s)`;
    if (what !== this.lastScan)
      this.log(`[hooksmith] scanned ${what} in ${Math.round(performance.now() - t0)} ms`);
    this.lastScan = what;
  }

  tellSaveOnly(state: ModuleState): void {
    if (this.toldSaveOnly.has(state.key)) return;
    this.toldSaveOnly.add(state.key);
    const name = state.path ? basename(state.path) : state.uri;
    const mb = SAVE_ONLY_CHARS / 1_000_000;
    this.log(`[hooksmith] ${state.key} is over ${mb} MB: analysed when opened and saved, not on every edit`);
    // A notification: the message needs no answer, and nothing waits on it.
    void this.connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Info,
      message: `Hooksmith: ${name} is larger than ${mb} MB, so its diagnostics are updated when you save it, not as you type.`,
    });
  }

  /** The installed engine and the settings, as the not-wired rule is told. */
  async wiring(uri: string | undefined): Promise<WiringSource | undefined> {
    const s = await this.settings.get(uri);
    return this.environment.forRules(
      s.mantle.wiredPoints ?? undefined,
      () => undefined,
      s.mantle.apiLine ?? undefined,
    );
  }

  /** The document as the client last sent it, with that version's diagnostics (server/snapshot.ts). */
  snapshot(uri: string): Promise<DocumentSnapshot | undefined> {
    return settledSnapshot(this.analyser, this.scheduler, uri);
  }

  /** Whether `snap` is still the document's current version (a result for an older one is not sent as current). */
  isCurrent(snap: DocumentSnapshot): boolean {
    const state = this.analyser.get(snap.uri);
    return state === snap.state && (state.buffer?.version ?? null) === snap.version;
  }

  /** Logged, never thrown: one bad file or request never stops the server. */
  logFailure(name: string, err: unknown): void {
    this.log(
      `[hooksmith] ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
  }

  /** As soon as `shutdown` is read: queued or running validations would only delay its answer. */
  stopWork(): void {
    this.scheduler.stop();
    this.caseScheduler.stop();
    this.analyser.stop();
  }

  dispose(): void {
    this.extraScanner.dispose();
    this.syntax.dispose();
    this.environment.dispose();
  }
}
