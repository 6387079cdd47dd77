// Test helper: drives the REAL server process (`node dist/server.js --stdio`) through a real
// JSON-RPC client (vscode-languageserver-protocol over the child's stdio). Builds dist/ once
// when the bundle is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import {
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShowMessageNotification,
  ShutdownRequest,
  type ClientCapabilities,
  type FileEvent,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type ServerCapabilities,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';

import { HOOKS_CHANGED_NOTIFICATION } from '../../runtime/lsp/shared';

export const ROOT = join(__dirname, '..', '..');
export const SERVER = join(ROOT, 'dist', 'server.js');

export function ensureBuilt(): void {
  if (existsSync(SERVER)) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('build failed');
}

/** User + system CPU time of a process in ms (/proc/<pid>/stat, clock ticks of 10 ms; NaN elsewhere). */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

export function uriOf(path: string): string {
  return pathToFileURL(path).href;
}

/** A temporary workspace: files written from a map of relative path → content. */
export function workspace(files: Record<string, string>): {
  dir: string;
  path: (rel: string) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-lsp-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return { dir, path: (rel) => join(dir, rel), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface StartOptions {
  folders: string[];
  /** What the client answers to workspace/configuration (section hooksmith). */
  settings?: unknown;
  /** Advertise the configuration capability (default true). */
  configuration?: boolean;
  /** Extra node flags for the server process (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Environment variables for the server process, over this one's (PYTHONPATH, say). */
  env?: NodeJS.ProcessEnv;
  /**
   * Say what Hooksmith's VS Code client says (the experimental `hooksmith` capability: command
   * links, hooksChanged). Default true: most suites test what the extension gets.
   */
  vscode?: boolean;
  /** Client capabilities instead of the defaults (a generic editor's; `vscode` is still added when true). */
  capabilities?: ClientCapabilities;
  /** What `initialize` carries as initializationOptions. */
  initializationOptions?: unknown;
  /** No workspace folders and no rootUri (an editor started on a single file). */
  noRoot?: boolean;
}

export class LspClient {
  readonly published = new Map<string, PublishDiagnosticsParams[]>();
  readonly logs: string[] = [];
  /** window/showMessage notifications, in order. */
  readonly messages: { type: number; message: string }[] = [];
  readonly registrations: string[] = [];
  /** How many `hooksmith/hooksChanged` notifications arrived. */
  hooksChanged = 0;
  /** The params the handler got for each `hooksmith/hooksChanged` (`[]`: none on the wire). */
  hooksChangedParams: unknown[] = [];
  /** How long `initialize` took to answer (ms), and what it answered. */
  initializeMs = 0;
  /** performance.now() when `initialize` was answered. */
  initializedAt = 0;
  /** The server's CPU time (user + system, ms) when `initialize` was answered. */
  initializeCpuMs = 0;
  serverCapabilities: ServerCapabilities = {};
  /** window/showDocument requests, in order. */
  readonly shownDocuments: { uri: string; external?: boolean }[] = [];
  settings: unknown;
  private waiters: (() => void)[] = [];
  private versions = new Map<string, number>();
  private exited = false;

  private constructor(
    readonly proc: ChildProcess,
    readonly conn: ProtocolConnection,
  ) {}

  static async start(opts: StartOptions): Promise<LspClient> {
    ensureBuilt();
    const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), SERVER, '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
    });
    const conn = createProtocolConnection(
      new StreamMessageReader(proc.stdout!),
      new StreamMessageWriter(proc.stdin!),
    );
    const c = new LspClient(proc, conn);
    c.settings = opts.settings ?? {};
    proc.on('exit', () => (c.exited = true));
    proc.stderr!.on('data', (d: Buffer) => c.logs.push(d.toString()));
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const list = c.published.get(p.uri) ?? [];
      list.push(p);
      c.published.set(p.uri, list);
      c.wake();
    });
    conn.onNotification(LogMessageNotification.type, (p) => c.logs.push(p.message));
    conn.onNotification(ShowMessageNotification.type, (p) => c.messages.push(p));
    conn.onNotification(HOOKS_CHANGED_NOTIFICATION, (...params: unknown[]) => {
      c.hooksChanged++;
      c.hooksChangedParams.push(params);
      c.wake();
    });
    conn.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => c.settings));
    conn.onRequest(RegistrationRequest.type, (p) => {
      for (const r of p.registrations) c.registrations.push(r.method);
      return null;
    });
    conn.onRequest('window/showDocument', (p: { uri: string; external?: boolean }) => {
      c.shownDocuments.push(p);
      return { success: true };
    });
    conn.listen();
    const capabilities: ClientCapabilities = opts.capabilities ?? {
      workspace: {
        configuration: opts.configuration ?? true,
        didChangeWatchedFiles: { dynamicRegistration: true },
      },
      textDocument: {
        publishDiagnostics: { versionSupport: true, relatedInformation: true },
        completion: { completionItem: { snippetSupport: true } },
      },
    };
    if (opts.vscode ?? true) capabilities.experimental = { hooksmith: { vscode: true, hooksChanged: true } };
    const t0 = performance.now();
    const init = await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: opts.folders[0] && !opts.noRoot ? uriOf(opts.folders[0]) : null,
      workspaceFolders: opts.noRoot ? null : opts.folders.map((f) => ({ uri: uriOf(f), name: f })),
      capabilities,
      initializationOptions: opts.initializationOptions,
    });
    c.initializeMs = performance.now() - t0;
    c.initializedAt = performance.now();
    c.initializeCpuMs = cpuMsOf(proc.pid);
    c.serverCapabilities = init.capabilities;
    await conn.sendNotification(InitializedNotification.type, {});
    return c;
  }

  get alive(): boolean {
    return !this.exited && this.proc.exitCode === null;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** The last diagnostics published for `uri`. */
  last(uri: string): PublishDiagnosticsParams | undefined {
    const list = this.published.get(uri);
    return list?.[list.length - 1];
  }

  /** Resolves with the first (latest) publication for `uri` that satisfies `ok`. */
  async waitFor(
    uri: string,
    ok: (p: PublishDiagnosticsParams) => boolean,
    timeoutMs = 5000,
  ): Promise<PublishDiagnosticsParams> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const p = this.last(uri);
      if (p && ok(p)) return p;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `timed out waiting for diagnostics on ${uri}; last: ${JSON.stringify(p?.diagnostics.map((d) => [d.code, d.message]))}`,
        );
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Resolves once `hooksChanged` exceeds `count`. */
  async waitForHooksChanged(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.hooksChanged <= count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for hooksmith/hooksChanged');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  codes(uri: string): string[] {
    return (this.last(uri)?.diagnostics ?? []).map((d) => String(d.code));
  }

  async open(path: string, text: string, languageId = 'python'): Promise<string> {
    const uri = uriOf(path);
    this.versions.set(uri, 1);
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
    return uri;
  }

  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<number> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: changes,
    });
    return version;
  }

  async save(uri: string): Promise<void> {
    await this.conn.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  async close(uri: string): Promise<void> {
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  async watched(changes: FileEvent[]): Promise<void> {
    await this.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  async configure(settings: unknown): Promise<void> {
    this.settings = settings;
    await this.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  }

  /** didChangeConfiguration with the settings in it (a client without workspace/configuration). */
  async push(settings: unknown): Promise<void> {
    await this.conn.sendNotification(DidChangeConfigurationNotification.type, { settings });
  }

  async stop(): Promise<void> {
    if (this.alive) {
      try {
        await Promise.race([
          this.conn.sendRequest(ShutdownRequest.type),
          new Promise((r) => setTimeout(r, 1000)),
        ]);
        await this.conn.sendNotification(ExitNotification.type);
      } catch {
        // already gone
      }
    }
    this.conn.dispose();
    const exited = new Promise((r) => (this.exited ? r(undefined) : this.proc.once('exit', r)));
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(t);
  }
}
