// The analyser owns all state: every hook module the server knows (open buffers and files on
// disk). Validation: parse (incrementally for buffers) → model → rules with the agent's sibling
// modules → publish; when a module's modify-hook registrations change, its siblings get
// `duplicate-modify-hook` again. CPython's syntax verdict arrives later (syntax-check.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { diagnoseModule } from '../runtime/analysis/diagnose';
import type { HookDiagnostic } from '../runtime/rules/diagnostics';
import { discover } from '../runtime/workspace/discovery';
import type { HooksmithSettings } from '../runtime/lsp/shared';
import type { HookModule, SyntaxIssue } from '../runtime/python/model';
import type { Tree } from '../runtime/python/parser';
import { duplicateModifyHook } from '../runtime/rules';
import { samePublished, uriPath } from './convert';
import { HookFiles } from './hook-files';
import { ParsedText } from './parsed-text';
import { readRegularFile } from '../runtime/workspace/regular-file';
import { analysisOptions } from './settings';
import type { AnalysisOptions, ModuleInput } from '../runtime/analysis/module';
import type { RuleEnvironment } from '../runtime/rules/rule';
import type { InstalledModule } from '../runtime/cpython/environment';
import { emptyModel, errText, listsHooks, modifySignature, refreshHooksSignature } from './module-state';
import { SAVE_ONLY_CHARS, withCpython, type ModuleState } from './module-state';
import { diskModuleState, modelOfText } from './module-from-text';

export type { ModuleState };

/** Over this many characters, a validation lets the event loop turn between parse and rules. */
const BIG_MODULE_CHARS = 200_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
export { errText, SAVE_ONLY_CHARS };

export interface AnalyserHost {
  publish(uri: string, diagnostics: HookDiagnostic[], version: number | undefined): void;
  settings(uri: string | undefined): Promise<HooksmithSettings>;
  log(message: string): void;
  /** Asks CPython about a module's text (after the fast diagnostics are out). */
  confirmSyntax?(state: ModuleState): void;
  /** The hooks of some module changed (for `hooksmith/hooksChanged`). */
  hooksChanged?(): void;
  /** The user's installed environment for this module's rules (imports asked for off the keystroke path). */
  environment?(state: ModuleState, settings: HooksmithSettings): RuleEnvironment | undefined;
}

export class Analyser {
  private modules = new Map<string, ModuleState>();
  readonly files = new HookFiles();
  /** The interpreter's real rasa.mantle.hooks, when read (set by the server). */
  installedMantle?: () => InstalledModule | undefined;
  private folders: string[] = [];

  /** Set by `shutdown`: validations in flight end at their next step instead of delaying `exit`. */
  private stopped = false;

  constructor(private readonly host: AnalyserHost) {}

  stop(): void {
    this.stopped = true;
  }

  keyOf(uri: string): string {
    return uriPath(uri) ?? uri;
  }

  get(uri: string): ModuleState | undefined {
    return this.modules.get(this.keyOf(uri));
  }

  all(): ModuleState[] {
    return [...this.modules.values()];
  }

  /** Whether an open buffer is analysed only when opened and saved (see SAVE_ONLY_CHARS). */
  savesOnly(state: ModuleState): boolean {
    return state.buffer !== undefined && state.text.length > SAVE_ONLY_CHARS;
  }

  /** A save-only buffer edited since its last analysis: late answers wait for its next save. */
  waitsForSave(state: ModuleState): boolean {
    return this.savesOnly(state) && state.modelVersion !== state.buffer?.version;
  }

  /**
   * The tree of an open buffer (re-parsed if edits are pending) with an up-to-date model. For a
   * buffer analysed on save only, nothing between an edit and the next save.
   */
  current(uri: string): { state: ModuleState; tree: Tree } | undefined {
    const state = this.get(uri);
    if (!state?.buffer) return undefined;
    if (this.savesOnly(state) && state.modelVersion !== state.buffer.version) return undefined;
    const tree = this.refreshModel(state);
    return tree ? { state, tree } : undefined;
  }

  // ---- workspace -------------------------------------------------------------------------

  /** Hook modules found in the workspace folders and in the extra roots (the last scan of each). */
  private folderModules = new Set<string>();
  private extraModules = new Set<string>();

  /** Found by the last scans and not read yet: each is read by its own validation (`validate`). */
  private unread = new Set<string>();

  /**
   * Scans the workspace folders for hook modules (extra roots: `adoptExtra`, extra-roots.ts). Returns
   * the files to validate; each is read from disk by its validation, one at a time, so a scan of
   * large modules never keeps an opened document (or `shutdown`) waiting for all of them.
   */
  scan(folders: string[]): string[] {
    this.folders = folders;
    this.files.invalidate();
    const { agents, unreadable, capped } = discover(folders.filter((p) => fs.existsSync(p)));
    for (const u of unreadable) this.host.log(`[hooksmith] cannot read folder ${u.path}: ${u.reason}`);
    if (capped)
      this.host.log(`[hooksmith] stopped looking for hook modules after ${capped} files and folders`);
    this.folderModules = new Set(agents.flatMap((a) => [...a.mantleModules, ...a.cayuModules]));
    this.forgetUndiscovered();
    const found = [...this.folderModules].filter((file) => !this.modules.get(file)?.buffer);
    for (const file of found) this.unread.add(file);
    return found;
  }

  /** Modules of agents read because a module of theirs was opened outside every scanned folder. */
  private adopted = new Set<string>();

  /**
   * An opened Mantle module whose agent no scan covers (an editor started on one file, no root): the
   * agent's other modules are read by the loader's rule, so cross-file checks see them. Their keys.
   */
  adoptAgentOf(state: ModuleState): string[] {
    const root = state.root;
    const scanned = this.folders.some((f) => !path.relative(f, root).startsWith('..'));
    if (state.engine !== 'mantle' || !root || scanned) return [];
    const mine = discover([root]).agents.flatMap((a) => a.mantleModules);
    const files = mine.filter((f) => !this.adopted.has(f) && f !== state.path);
    for (const f of files) this.adopted.add(f);
    return files.filter((f) => this.loadDiscovered(f));
  }

  /** The extra roots' scan found these modules (read next, one by one, with `loadDiscovered`). */
  adoptExtra(roots: string[], modules: Set<string>): void {
    this.files.extraRoots = roots;
    this.files.invalidate();
    this.extraModules = modules;
    this.forgetUndiscovered();
  }

  /** Reads a discovered module from disk (an open buffer wins); whether it is a hook module. */
  loadDiscovered(file: string): boolean {
    if (this.modules.get(file)?.buffer) return false;
    return this.loadFromDisk(file);
  }

  /** Disk modules no scan finds any more (a root removed from the settings, say) are dropped. */
  private forgetUndiscovered(): void {
    const found = (file: string) =>
      [this.folderModules, this.extraModules, this.adopted].some((m) => m.has(file));
    for (const s of this.all()) if (s.path && !s.buffer && !found(s.path)) this.forget(s);
  }

  /** A file on disk was created, changed or deleted. Returns keys to re-validate. */
  diskChanged(file: string, kind: 'created' | 'changed' | 'deleted'): string[] {
    if (kind !== 'changed') this.files.invalidate();
    const state = this.modules.get(file);
    if (state?.buffer) return []; // the open buffer wins
    if (kind === 'deleted' || !fs.existsSync(file)) {
      if (state) this.forget(state);
      return [];
    }
    if (!file.endsWith('.py')) return [];
    return this.loadFromDisk(file) ? [file] : [];
  }

  /** Re-reads the workspace folders after folders appeared or vanished (hooks.py created, …). */
  rescan(): string[] {
    return this.scan(this.folders);
  }

  // ---- buffers ---------------------------------------------------------------------------

  open(uri: string, text: string, version: number): ModuleState {
    const key = this.keyOf(uri);
    const prev = this.modules.get(key);
    prev?.buffer?.dispose();
    const buffer = new ParsedText(uri, version, text);
    const state: ModuleState = {
      key,
      path: uriPath(uri),
      uri,
      text,
      buffer,
      model: emptyModel(key),
      engine: 'none',
      root: '',
      diagnostics: prev?.diagnostics ?? [],
      modifySignature: prev?.modifySignature ?? '',
    };
    this.modules.set(key, state);
    // Parsed when it is validated (or asked about), not here: a burst of opens is read in
    // milliseconds, and the first one opened is analysed and published before the next is parsed.
    return state;
  }

  change(
    uri: string,
    changes: readonly TextDocumentContentChangeEvent[],
    version: number,
  ): ModuleState | undefined {
    const state = this.get(uri);
    if (!state?.buffer) return undefined;
    state.buffer.update(changes, version);
    state.text = state.buffer.text;
    return state;
  }

  /** Closing a buffer falls back to the disk content (or drops a file that is no hook module). */
  close(uri: string): ModuleState | undefined {
    const state = this.get(uri);
    if (!state) return undefined;
    state.buffer?.dispose();
    state.buffer = undefined;
    try {
      if (state.path && fs.existsSync(state.path) && this.loadFromDisk(state.path))
        return this.modules.get(state.key);
    } catch (err) {
      this.host.log(`[hooksmith] could not read ${state.path}: ${errText(err)}`);
    }
    this.forget(state);
    return undefined;
  }

  // ---- validation ------------------------------------------------------------------------

  /** Validates one module and publishes; refreshes siblings when its modify hooks changed. */
  async validate(key: string): Promise<void> {
    if (this.unread.delete(key) && !this.readScanned(key)) return;
    const state = this.modules.get(key);
    if (!state) return;
    const version = state.buffer?.version;
    const gone = () => this.stopped || this.modules.get(key) !== state || state.buffer?.version !== version;
    const settings = await this.host.settings(state.uri);
    if (gone()) return; // stopped, or superseded
    // A big module's parse and its rules are long steps: the client's messages (`shutdown`, an
    // edit) are read before and between them, not after.
    const big = state.text.length > BIG_MODULE_CHARS;
    if (big && (await nextTurn(), gone())) return;
    if (big) state.buffer?.tree(); // the parse, then (after a turn) the model built on it
    if (big && (await nextTurn(), gone())) return;
    this.refreshModel(state);
    if (big && (await nextTurn(), gone())) return;
    const diagnostics = this.diagnose(state, settings);
    state.diagnostics = diagnostics;
    state.diagnosticsVersion = version;
    this.host.publish(state.uri, diagnostics, version);
    if (refreshHooksSignature(state)) this.host.hooksChanged?.();
    const signature = modifySignature(state);
    if (signature !== state.modifySignature) {
      state.modifySignature = signature;
      await this.refreshSiblings(state);
    }
    if (state.engine !== 'none' && state.buffer) this.host.confirmSyntax?.(state);
  }

  /** CPython's verdict for `text`; republishes when it changes the syntax diagnostics. */
  async applyCpython(key: string, text: string, verdict: SyntaxIssue | null): Promise<void> {
    const state = this.modules.get(key);
    if (!state || state.text !== text) return; // stale verdict
    const before = state.cpython ? JSON.stringify(state.cpython.verdict) : undefined;
    state.cpython = { text, verdict };
    if (before === JSON.stringify(verdict)) return;
    // CPython's first word agreeing with a parse that found no syntax error changes nothing: no
    // second analysis (of an 800 KB module, seconds) to publish the same diagnostics again.
    const modelOfText = !state.buffer || state.modelVersion === state.buffer.version;
    if (before === undefined && verdict === null && modelOfText && !state.model.syntaxErrors.length) return;
    // A buffer analysed on save only keeps the verdict for its next save.
    if (this.waitsForSave(state)) return;
    await this.validate(key);
  }

  private diagnose(state: ModuleState, settings: HooksmithSettings): HookDiagnostic[] {
    if (state.engine === 'none') return [];
    const options = this.withEnvironment(analysisOptions(settings, this.host.log), state, settings);
    const { found, diagnostics } = diagnoseModule(this.input(state, state.text, withCpython(state), options));
    state.found = found;
    return diagnostics;
  }

  /**
   * The diagnostics the module would have with `text` instead of its current text, its agent's
   * other modules as they are: Fix All checks the result of its edits with this.
   */
  async diagnoseText(state: ModuleState, text: string): Promise<HookDiagnostic[]> {
    if (state.engine === 'none') return [];
    const model = modelOfText(text, state.path ?? state.key);
    const settings = await this.host.settings(state.uri);
    const options = this.withEnvironment(analysisOptions(settings, this.host.log), state, settings);
    return diagnoseModule(this.input(state, text, model, options)).diagnostics;
  }

  /** The rules' input for `state` with `text` and `model` (its Mantle siblings as they are). */
  private input(state: ModuleState, text: string, model: HookModule, options: AnalysisOptions): ModuleInput {
    const mantle = state.engine === 'mantle';
    return {
      path: state.path ?? state.key,
      text,
      module: model,
      agentModules: mantle ? this.siblings(state).map((s) => (s === state ? model : s.model)) : [model],
      isMantleModule: mantle,
      options,
    };
  }

  private withEnvironment(
    options: AnalysisOptions,
    state: ModuleState,
    settings: HooksmithSettings,
  ): AnalysisOptions {
    const environment = this.host.environment?.(state, settings);
    return environment ? { ...options, environment } : options;
  }

  /** Mantle modules of the same agent (this one included). */
  siblings(state: ModuleState): ModuleState[] {
    if (state.engine !== 'mantle') return [state];
    return this.all().filter((s) => s.engine === 'mantle' && s.root === state.root);
  }

  private async refreshSiblings(state: ModuleState): Promise<void> {
    for (const sib of this.siblings(state)) {
      // One sibling per turn of the event loop: the client's messages (an edit, `exit`) are read
      // between them, not after an agent-wide pass.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) return;
      // A sibling edited since its model was built revalidates itself: never publish its old text's analysis.
      if (sib === state || (sib.buffer && sib.modelVersion !== sib.buffer.version)) continue;
      const settings = await this.host.settings(sib.uri);
      if (this.stopped) return;
      const input = this.input(sib, sib.text, sib.model, analysisOptions(settings, this.host.log));
      const earlier = sib.found ?? sib.diagnostics;
      const { found, diagnostics: next } = diagnoseModule(input, { rules: [duplicateModifyHook], earlier });
      sib.found = found;
      const changed = !samePublished(next, sib.diagnostics);
      sib.diagnostics = next;
      if (changed) this.host.publish(sib.uri, next, sib.buffer?.version);
    }
  }

  /** Re-parses a buffer when needed and rebuilds its model and classification. */
  private refreshModel(state: ModuleState): Tree | undefined {
    if (!state.buffer) return undefined;
    const tree = state.buffer.tree();
    if (state.modelVersion !== state.buffer.version) {
      state.model = state.buffer.model(state.path ?? state.key);
      state.modelVersion = state.buffer.version;
      const c = this.files.classify(state.path, state.model);
      state.engine = c.engine;
      state.root = c.root;
    }
    return tree;
  }

  /** A module the scan found, read now (an open buffer wins); whether it is a hook module. */
  private readScanned(file: string): boolean {
    if (this.stopped) return false;
    try {
      return this.modules.get(file)?.buffer !== undefined || this.loadFromDisk(file);
    } catch (err) {
      this.host.log(`[hooksmith] skipped ${file}: ${errText(err)}`);
      return false;
    }
  }

  /** Reads a file from disk; keeps it when it is a hook module. */
  private loadFromDisk(file: string): boolean {
    const text = readRegularFile(file).toString('utf8');
    const model = modelOfText(text, file);
    const c = this.files.classify(file, model);
    const prev = this.modules.get(file);
    if (c.engine === 'none') {
      if (prev) this.forget(prev);
      return false;
    }
    this.modules.set(file, diskModuleState(file, text, model, c, prev));
    return true;
  }

  /** Drops a module: its diagnostics are cleared and its siblings re-checked. */
  private forget(state: ModuleState): void {
    this.modules.delete(state.key);
    state.buffer?.dispose();
    this.host.publish(state.uri, [], undefined);
    if (listsHooks(state.hooksSignature)) this.host.hooksChanged?.();
    if (state.engine === 'mantle' && state.modifySignature) {
      void this.refreshSiblings({ ...state, key: '\0gone' }).catch((err: unknown) =>
        this.host.log(`[hooksmith] sibling refresh failed: ${errText(err)}`),
      );
    }
  }
}
