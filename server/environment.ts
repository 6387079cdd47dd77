// The user's installed environment for the language server (runtime/cpython/environment.ts):
// per interpreter, what the real engine modules export and which imports resolve. Both are asked
// for off the keystroke path: engine facts once per interpreter, imports debounced per module;
// an answer that changes something revalidates. How the installed engine differs from the
// bundled catalogue is logged once per interpreter. Where an agent-local import resolves is
// looked up on disk once and remembered until a watched file changes, the settings change, or
// LOCAL_TTL_MS pass (a folder made outside the watched patterns): not on every keystroke.
import {
  PythonEnvironment,
  readable,
  type EngineFacts,
  type InstalledModule,
} from '../runtime/cpython/environment';
import {
  interpreterImports,
  resolveLocally,
  ruleEnvironment,
  type LocalResolver,
} from '../runtime/cpython/rule-environment';
import { selectEngineLine } from '../runtime/cpython/engine-line';
import type { RuleEnvironment } from '../runtime/rules/rule';
import { engineDifferences } from '../runtime/rules/util/installed';
import { untestedEngineHints } from '../runtime/catalogue/tested-engines';

/** Long enough to skip most keystrokes of a burst, like the syntax confirmation. */
const DEBOUNCE_MS = 300;
/** Agent-local import answers older than this are looked up again. */
const LOCAL_TTL_MS = 2000;

export interface EnvironmentModule {
  key: string;
  path: string | undefined;
  /** The agent root of a Mantle module; undefined for a Cayu module. */
  root: string | undefined;
  imports: readonly string[];
}

export class ServerEnvironment {
  private env: PythonEnvironment | undefined;
  private engine: EngineFacts | undefined;
  private timers = new Map<string, NodeJS.Timeout>();
  private local = new Map<string, boolean | undefined>();
  private localSince = 0;

  constructor(
    private readonly log: (msg: string) => void,
    private readonly revalidate: (keys: 'all' | string) => void,
    private readonly cache = !process.env.HOOKSMITH_NO_CACHE,
    /** Shows the user a hint (an installed engine newer than the newest tested), once each. */
    private readonly hint: (message: string) => void = () => undefined,
  ) {}

  private readonly hinted = new Set<string>();

  /** The interpreter the settings name (empty: python3); a new one starts afresh. */
  use(python: string): void {
    const wanted = python || 'python3';
    if (this.env?.python === wanted) return;
    this.env?.dispose();
    this.env = PythonEnvironment.withDefaultCache({ python: wanted, log: this.log }, this.cache);
    this.engine = undefined;
    const env = this.env;
    void env.engine().then((facts) => {
      if (this.env !== env || !facts) return;
      this.engine = facts;
      for (const line of engineDifferences(this.forRules(undefined, () => undefined)))
        this.log(`[hooksmith] installed engine (${wanted}): ${line}`);
      for (const hint of untestedEngineHints(facts))
        if (!this.hinted.has(hint)) {
          this.hinted.add(hint);
          this.hint(`Hooksmith: ${hint}`);
        }
      this.revalidate('all');
    });
  }

  /** Files or settings changed: agent-local imports are looked up on disk again. */
  filesChanged(): void {
    this.local.clear();
  }

  /** resolveLocally, answered from what was last read while nothing says the files changed. */
  private readonly resolveLocal: LocalResolver = (module, file, root) => {
    const now = performance.now();
    if (now - this.localSince > LOCAL_TTL_MS) {
      this.local.clear();
      this.localSince = now;
    }
    const key = `${module}\0${file}\0${root ?? ''}`;
    if (this.local.has(key)) return this.local.get(key);
    const found = resolveLocally(module, file, root);
    this.local.set(key, found);
    return found;
  };

  /** The real rasa.mantle.hooks of the interpreter, once read (completions follow it). */
  installedMantle(): InstalledModule | undefined {
    return readable(this.engine?.mantle ?? null);
  }

  /** What rules see for a module now (imports not answered yet stay unknown: no diagnostic). */
  forRules(
    wiredPoints: readonly string[] | undefined,
    rootOf: (file: string) => string | undefined,
    apiLine?: string,
    cayuApiLine?: string,
  ): RuleEnvironment | undefined {
    // The lines the installed engines (or hooksmith.mantle.apiLine / hooksmith.cayu.apiLine) speak:
    // every feature follows them.
    const { engine } = selectEngineLine(this.engine, apiLine, cayuApiLine);
    if (!this.env) return undefined;
    return ruleEnvironment({
      env: this.env,
      local: this.resolveLocal,
      rootOf,
      reportShimmed: true,
      ...(engine ? { engine } : {}),
      ...(wiredPoints ? { wiredPoints } : {}),
    });
  }

  /** Asks, a little later, about the module's imports the interpreter has not answered yet. */
  request(m: EnvironmentModule): void {
    const env = this.env;
    if (!env || !m.path) return;
    const ask = interpreterImports(m.imports, m.path, m.root, this.resolveLocal).filter(
      (n) => env.known(n) === undefined,
    );
    if (!ask.length) return;
    const t = this.timers.get(m.key);
    if (t) clearTimeout(t);
    this.timers.set(
      m.key,
      setTimeout(() => {
        this.timers.delete(m.key);
        void env
          .resolve(ask)
          .then(() => {
            if (this.env === env && ask.some((n) => env.known(n) !== undefined)) this.revalidate(m.key);
          })
          .catch((err: unknown) => this.log(`[hooksmith] import resolution failed: ${String(err)}`));
      }, DEBOUNCE_MS),
    );
  }

  /** Ends every interpreter probe (shutdown): none outlives the server. */
  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.env?.dispose();
  }
}
