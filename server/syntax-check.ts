// CPython's syntax verdict for open hook modules, off the fast path: tree-sitter diagnostics
// are published first; the core's long-lived checker (runtime/cpython/syntax-checker.ts)
// compile()s the text a little later and the verdict is handed back. Requests per module
// are debounced and only the newest text is checked. No python: the check is silently off.
import { CpythonSyntaxChecker } from '../runtime/cpython/syntax-checker';
import type { SyntaxIssue } from '../runtime/python/model';

/** Delay before asking CPython: long enough to skip most keystrokes of a burst. */
const DEBOUNCE_MS = 150;

export class SyntaxConfirmer {
  private checker: Promise<CpythonSyntaxChecker> | undefined;
  private timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly python: () => Promise<string>,
    private readonly onVerdict: (key: string, text: string, verdict: SyntaxIssue | null) => Promise<void>,
    private readonly log: (msg: string) => void,
  ) {}

  request(key: string, text: string): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.check(key, text).catch((err: unknown) =>
          this.log(`[hooksmith] CPython check failed: ${String(err)}`),
        );
      }, DEBOUNCE_MS),
    );
  }

  private async check(key: string, text: string): Promise<void> {
    const checker = await this.ensureChecker();
    const verdict = await checker.check(text, key);
    // Undefined: no verdict (no python3, or it crashed or timed out) — tree-sitter's stands.
    if (verdict === undefined) return;
    await this.onVerdict(key, text, verdict);
  }

  /** One checker for the server's life, started with the interpreter the settings name. */
  private ensureChecker(): Promise<CpythonSyntaxChecker> {
    this.checker ??= this.python().then(
      (python) =>
        new CpythonSyntaxChecker({ python: python || 'python3', log: (m) => this.log(`[hooksmith] ${m}`) }),
    );
    return this.checker;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    void this.checker?.then((c) => c.close());
  }
}
