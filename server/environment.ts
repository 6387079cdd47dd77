// The user's installed environment for the language server (runtime/cpython/environment.ts):
// per interpreter, what the real engine modules export and which imports resolve. Both are asked
// for off the keystroke path: engine facts once per interpreter, imports debounced per module;
// an answer that changes something revalidates. How the installed engine differs from the
// bundled catalogue is logged once per interpreter.
import {
  PythonEnvironment,
  readable,
  type EngineFacts,
  type InstalledModule,
} from '../runtime/cpython/environment';
import { interpreterImports, ruleEnvironment } from '../runtime/cpython/rule-environment';
import { selectEngineLine } from '../runtime/cpython/engine-line';
import type { RuleEnvironment } from '../runtime/rules/rule';
import { engineDifferences } from '../runtime/rules/util/installed';

/** Long enough to skip most keystrokes of a burst, like the syntax confirmation. */
const DEBOUNCE_MS = 300;

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

  constructor(
    private readonly log: (msg: string) => void,
    private readonly revalidate: (keys: 'all' | string) => void,
    private readonly cache = !process.env.HOOKSMITH_NO_CACHE,
  ) {}

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
      this.revalidate('all');
    });
  }

  /** The real rasa.mantle.hooks of the interpreter, once read (completions follow it). */
  installedMantle(): InstalledModule | undefined {
    return readable(this.engine?.mantle ?? null);
  }

  /** What rules see for a module now (imports not answered yet stay unknown: no diagnostic). */
  forRules(
    wiredPoints: readonly string[] | undefined,
    rootOf: (file: string) => string | undefined,
    apiLine?: string,
  ): RuleEnvironment | undefined {
    // The line the installed engine (or hooksmith.mantle.apiLine) speaks: every feature follows it.
    const { engine } = selectEngineLine(this.engine, apiLine);
    if (!this.env) return undefined;
    return ruleEnvironment({
      env: this.env,
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
    const ask = interpreterImports(m.imports, m.path, m.root).filter((n) => env.known(n) === undefined);
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
