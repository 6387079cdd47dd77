// The Hooksmith language server: `node dist/server.js --stdio` (or --node-ipc) starts in
// server/boot.ts, which loads this file's bundle (dist/server-main.js).
// Each LSP event is bound to a short handler that asks the Analyser and converts the answer;
// every handler is wrapped so one bad file or request is logged and never kills the server.
import {
  DidChangeWatchedFilesNotification,
  DidChangeWorkspaceFoldersNotification,
  FileChangeType,
  MessageType,
  ShowMessageNotification,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { initParser } from '../runtime/python/parser';
import { HOOKS_CHANGED_NOTIFICATION, SETTINGS_SECTION } from '../runtime/lsp/shared';
import { basename, dirname } from 'node:path';
import { Analyser, errText, SAVE_ONLY_CHARS, type ModuleState } from './analyser';
import { uriPath } from './convert';
import { clientProfile, type ClientProfile } from './client-profile';
import { registerRequests } from './requests';
import { CaseFiles } from './case-files';
import { EngineNotices } from './engine-notices';
import { Scheduler } from './scheduler';
import { SettingsCache, settingsSection } from './settings';
import { SyntaxConfirmer } from './syntax-check';
import { ServerEnvironment } from './environment';
import { createServerConnection, onShutdownSeen } from './transport';
import { initializeResult } from './capabilities';
import { DiagnosticsOut } from './pull-diagnostics';
import { ExtraRootsScanner, extraRoots } from './extra-roots';

export function startServer(connection: Connection): void {
  const log = (msg: string) => connection.console.log(msg);
  // The parser (WebAssembly) loads while the client initializes: `initialize` never waits for it,
  // every other handler does (safe()), in the order the messages came.
  const parserReady = initParser();
  let client: ClientProfile = clientProfile({ capabilities: {} });
  let canWatchDynamically = false;
  let folders: string[] = [];
  let hooksChangedTimer: NodeJS.Timeout | undefined;
  /** Settings the client gave without being asked: `initializationOptions`, then each didChangeConfiguration. */
  let givenSettings: unknown;

  // Pulled per document where the client answers workspace/configuration with something; else the given ones.
  const settings = new SettingsCache(async (uri) => {
    if (client.configuration) {
      const pulled: unknown = await connection.workspace.getConfiguration({
        scopeUri: uri,
        section: SETTINGS_SECTION,
      });
      if (pulled !== null && pulled !== undefined) return pulled;
    }
    return givenSettings;
  }, log);

  // Pushed or pulled as the client chose, capped per code.
  const out = new DiagnosticsOut(connection, (uri) => settings.peek(uri)?.maxDiagnosticsPerCode);
  // The engine-not-installed information: on one module per agent, not on every module.
  const notices = new EngineNotices(
    (uri, diagnostics, version) => out.publish(uri, diagnostics, version),
    (uri) => analyser.get(uri)?.root ?? dirname(uriPath(uri) ?? uri),
  );
  const analyser: Analyser = new Analyser({
    publish: (uri, diagnostics, version) => notices.publish(uri, diagnostics, version),
    settings: (uri) => settings.get(uri),
    log,
    confirmSyntax: (state) => syntax.request(state.key, state.text),
    environment: (state, s) => {
      environment.use(s.pythonPath);
      // Only a Mantle module imports as the engine loads an agent; a Cayu module, from its project.
      const root = state.engine === 'mantle' ? state.root : undefined;
      environment.request({
        key: state.key,
        path: state.path,
        root,
        imports: state.model.imports.map((b) => b.module),
      });
      return environment.forRules(
        s.mantle.wiredPoints ?? undefined,
        () => root,
        s.mantle.apiLine ?? undefined,
        s.cayu.apiLine ?? undefined,
      );
    },
    hooksChanged: () => {
      // Debounced: typing in a decorator line changes the hooks on every keystroke.
      if (hooksChangedTimer) clearTimeout(hooksChangedTimer);
      hooksChangedTimer = setTimeout(() => {
        // `{}`: the library sends no params as `params: [null]`, which strict clients reject.
        if (client.hooksChanged) void connection.sendNotification(HOOKS_CHANGED_NOTIFICATION, {});
        // A scenario's hook names are judged against the agent's hooks.
        for (const uri of cases.uris()) caseScheduler.schedule(uri);
      }, 200);
    },
  });
  const scheduler = new Scheduler((key) => analyser.validate(key), log);
  const cases = new CaseFiles(analyser, {
    publish: (uri, diagnostics, version) => out.publish(uri, diagnostics, version),
    folders: () => folders,
  });
  const caseScheduler = new Scheduler(async (uri) => cases.validate(uri), log);
  analyser.installedMantle = () => environment.installedMantle();
  // Engine facts and import answers arrive later; they revalidate what they concern.
  const environment = new ServerEnvironment(
    log,
    (keys) => {
      for (const s of analyser.all())
        if ((keys === 'all' || s.key === keys) && !analyser.waitsForSave(s)) scheduler.schedule(s.key);
    },
    undefined,
    (message) => void connection.window.showInformationMessage(message),
  );
  const syntax = new SyntaxConfirmer(
    async () => (await settings.get(undefined)).pythonPath,
    (key, text, verdict) => analyser.applyCpython(key, text, verdict),
    log,
  );

  /** Wraps a handler: errors are logged and answered with `fallback`. */
  function safe<P, R>(name: string, fallback: R, fn: (p: P) => R | Promise<R>): (p: P) => Promise<R> {
    return async (p: P) => {
      try {
        await parserReady;
        return await fn(p);
      } catch (err) {
        log(`[hooksmith] ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return fallback;
      }
    };
  }

  /**
   * The last scan's log line without its time: the same scan again (the client sends its settings once at
   * start) is not logged twice.
   */
  let lastScan: string | undefined;

  const extraScanner = new ExtraRootsScanner({
    log,
    adopt: (roots, modules) => analyser.adoptExtra(roots, modules),
    load: (file) => (analyser.loadDiscovered(file) ? file : undefined),
    validate: (key) => scheduler.runNow(key),
  });
  /** hooksmith.extraAgentRoots as last read (a created or deleted file rescans them). */
  let extra: string[] = [];

  /** The workspace folders now; the extra agent roots in the background (requests never wait for them). */
  async function scanWorkspace(): Promise<void> {
    const t0 = performance.now();
    const s = await settings.get(undefined);
    out.configure(s);
    const base = folders[0] ?? process.cwd();
    extra = extraRoots(s.extraAgentRoots, base, log);
    analyser.files.extraRoots = extra; // an open buffer in an extra root is classified at once
    const found = analyser.scan(folders);
    void extraScanner.start(extra);
    for (const key of found) await scheduler.runNow(key);
    const what = `${folders.length} folder(s): ${found.length} hook module(s)`;
    if (what !== lastScan) log(`[hooksmith] scanned ${what} in ${Math.round(performance.now() - t0)} ms`);
    lastScan = what;
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities ?? {};
    client = clientProfile(params);
    out.useClient(caps);
    givenSettings = settingsSection(params.initializationOptions);
    canWatchDynamically = caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    const roots = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    folders = roots.map((u) => uriPath(u)).filter((p): p is string => p !== undefined);
    // server/boot.ts may have sent this already (then the connection drops this copy).
    return initializeResult(params);
  });

  /** Resolves once the first workspace scan ended: a hooks request before it waits (no false "no hooks"). */
  let firstScanDone: () => void = () => undefined;
  const firstScan = new Promise<void>((resolve) => (firstScanDone = resolve));

  connection.onInitialized(
    safe('initialized', undefined, async () => {
      try {
        if (canWatchDynamically) {
          await connection.client.register(DidChangeWatchedFilesNotification.type, {
            watchers: [{ globPattern: '**/*.py' }, { globPattern: '**/hooks' }],
          });
        }
        await scanWorkspace();
      } finally {
        firstScanDone();
      }
    }),
  );

  /** Buffers already told they are analysed on save only (told once per buffer). */
  const toldSaveOnly = new Set<string>();
  function tellSaveOnly(state: ModuleState): void {
    if (toldSaveOnly.has(state.key)) return;
    toldSaveOnly.add(state.key);
    const name = state.path ? basename(state.path) : state.uri;
    const mb = SAVE_ONLY_CHARS / 1_000_000;
    log(`[hooksmith] ${state.key} is over ${mb} MB: analysed when opened and saved, not on every edit`);
    // A notification: the message needs no answer, and nothing waits on it.
    void connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Info,
      message: `Hooksmith: ${name} is larger than ${mb} MB, so its diagnostics are updated when you save it, not as you type.`,
    });
  }

  connection.onDidOpenTextDocument(
    safe('didOpen', undefined, ({ textDocument: d }) => {
      out.opened(d.uri);
      if (cases.handles(d.uri)) {
        cases.open(d.uri, d.text, d.version);
        return void caseScheduler.runNow(d.uri);
      }
      const state = analyser.open(d.uri, d.text, d.version);
      if (analyser.savesOnly(state)) tellSaveOnly(state);
      // The agent's other modules (an editor on one file, no root) once its classification is known.
      void scheduler.runNow(state.key).then(async () => {
        for (const key of analyser.adoptAgentOf(state)) await scheduler.runNow(key);
      });
    }),
  );
  connection.onDidChangeTextDocument(
    safe('didChange', undefined, ({ textDocument: d, contentChanges }) => {
      if (cases.handles(d.uri)) {
        cases.change(d.uri, contentChanges, d.version);
        return caseScheduler.schedule(d.uri);
      }
      const state = analyser.change(d.uri, contentChanges, d.version);
      if (!state) return;
      if (!analyser.savesOnly(state)) scheduler.schedule(state.key);
      else {
        scheduler.cancel(state.key);
        tellSaveOnly(state);
      }
    }),
  );
  connection.onDidSaveTextDocument(
    safe('didSave', undefined, async ({ textDocument: d }) => {
      const state = analyser.get(d.uri);
      if (state && analyser.savesOnly(state)) await scheduler.runNow(state.key);
    }),
  );
  connection.onDidCloseTextDocument(
    safe('didClose', undefined, ({ textDocument: d }) => {
      out.closed(d.uri);
      if (cases.handles(d.uri)) {
        caseScheduler.cancel(d.uri);
        return cases.close(d.uri);
      }
      scheduler.cancel(analyser.keyOf(d.uri));
      const state = analyser.close(d.uri);
      if (state) scheduler.schedule(state.key);
    }),
  );
  connection.onDidChangeWatchedFiles(
    safe('didChangeWatchedFiles', undefined, async ({ changes }) => {
      environment.filesChanged();
      let structural = false;
      const keys = new Set<string>();
      for (const c of changes) {
        const file = uriPath(c.uri);
        if (!file) continue;
        const kind =
          c.type === FileChangeType.Created
            ? 'created'
            : c.type === FileChangeType.Deleted
              ? 'deleted'
              : 'changed';
        if (kind !== 'changed') structural = true;
        try {
          for (const k of analyser.diskChanged(file, kind)) keys.add(k);
        } catch (err) {
          log(`[hooksmith] could not read ${file}: ${errText(err)}`); // one bad file never stops the rest
        }
      }
      // A created/deleted hooks.py or hooks/ can turn other files into hook modules or not.
      if (structural) {
        for (const k of analyser.rescan()) keys.add(k);
        void extraScanner.start(extra);
      }
      for (const k of keys) await scheduler.runNow(k);
    }),
  );
  connection.onDidChangeConfiguration(
    safe('didChangeConfiguration', undefined, async (p) => {
      const pushed = settingsSection(p?.settings);
      if (pushed !== undefined) givenSettings = pushed;
      settings.clear();
      environment.filesChanged();
      await scanWorkspace();
      for (const s of analyser.all()) if (s.buffer) await scheduler.runNow(s.key);
    }),
  );
  // Registered as a plain notification: the workspace-folders helper throws when the client lacks support.
  connection.onNotification(
    DidChangeWorkspaceFoldersNotification.type,
    safe('didChangeWorkspaceFolders', undefined, async ({ event: { added, removed } }) => {
      const gone = new Set(removed.map((f) => uriPath(f.uri)));
      folders = [
        ...folders.filter((f) => !gone.has(f)),
        ...added.map((f) => uriPath(f.uri)).filter((p): p is string => !!p),
      ];
      await scanWorkspace();
    }),
  );

  registerRequests(connection, {
    analyser,
    scheduler,
    settings,
    environment,
    cases,
    client: () => client,
    safe,
    firstScan,
  });
  // A pull waits as the other handlers do (the parser), so the didOpen before it has been handled.
  out.register(async (uri) => {
    await parserReady;
    return cases.handles(uri) ? caseScheduler.settle(uri) : scheduler.settle(analyser.keyOf(uri));
  });
  // As soon as `shutdown` is read: validations queued or in flight would only delay its answer
  // and `exit`, and nothing is published after it.
  onShutdownSeen(() => {
    scheduler.stop();
    caseScheduler.stop();
    analyser.stop();
  });
  connection.onShutdown(() => {
    extraScanner.dispose();
    syntax.dispose();
    environment.dispose();
  });

  parserReady.catch((err: unknown) => log(`[hooksmith] the Python parser failed to load: ${errText(err)}`));
  process.on('uncaughtException', (err) => log(`[hooksmith] uncaught: ${errText(err)}`));
  process.on('unhandledRejection', (err) => log(`[hooksmith] unhandled rejection: ${errText(err)}`));
  connection.listen();
}

startServer(createServerConnection());
