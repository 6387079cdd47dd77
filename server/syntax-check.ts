// CPython's syntax verdict for open hook modules, off the fast path: tree-sitter diagnostics
// are published first; this asks a long-lived `python3` (one process, line-delimited JSON)
// to compile() the text a little later and hands back its issues. Requests per module are
// debounced and only the newest text is checked. No python: the check is silently off.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { SyntaxIssue } from '../runtime/python/model';

const CHECKER = String.raw`
import sys, json
for line in sys.stdin:
    try:
        req = json.loads(line)
        out = {"id": req["id"], "issues": []}
        try:
            compile(req["text"], req.get("path") or "<hook>", "exec", dont_inherit=True)
        except SyntaxError as e:
            out["issues"].append({"msg": e.msg, "line": e.lineno or 1, "col": e.offset or 1,
                                  "endLine": getattr(e, "end_lineno", None), "endCol": getattr(e, "end_offset", None)})
        except Exception:
            pass
    except Exception as e:
        out = {"id": -1, "issues": []}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
`;

/** Delay before asking CPython: long enough to skip most keystrokes of a burst. */
const DEBOUNCE_MS = 150;

type Done = (issues: SyntaxIssue[]) => void;

export class SyntaxConfirmer {
  private proc: ChildProcessWithoutNullStreams | undefined;
  private broken = false;
  private nextId = 1;
  private waiting = new Map<number, Done>();
  private timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly python: () => Promise<string>,
    private readonly onVerdict: (key: string, text: string, issues: SyntaxIssue[]) => Promise<void>,
    private readonly log: (msg: string) => void,
  ) {}

  request(key: string, text: string): void {
    if (this.broken) return;
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.check(key, text).catch((err: unknown) => this.log(`[hooksmith] CPython check failed: ${String(err)}`));
      }, DEBOUNCE_MS),
    );
  }

  private async check(key: string, text: string): Promise<void> {
    const proc = await this.process();
    if (!proc) return;
    const id = this.nextId++;
    const issues = await new Promise<SyntaxIssue[]>((resolve) => {
      this.waiting.set(id, resolve);
      proc.stdin.write(JSON.stringify({ id, text, path: key }) + '\n');
    });
    await this.onVerdict(key, text, issues);
  }

  private async process(): Promise<ChildProcessWithoutNullStreams | undefined> {
    if (this.proc) return this.proc;
    if (this.broken) return undefined;
    const exe = (await this.python()) || 'python3';
    const proc = spawn(exe, ['-I', '-c', CHECKER], { stdio: 'pipe' });
    this.proc = proc;
    proc.on('error', (err) => {
      this.log(`[hooksmith] no CPython syntax check (${exe}: ${err.message}); tree-sitter only`);
      this.broken = true;
      this.reset();
    });
    proc.on('exit', () => this.reset());
    proc.stderr.on('data', () => undefined);
    createInterface({ input: proc.stdout }).on('line', (line) => this.answer(line));
    return proc;
  }

  private answer(line: string): void {
    let msg: { id: number; issues: { msg: string; line: number; col: number; endLine?: number | null; endCol?: number | null }[] };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      return;
    }
    const done = this.waiting.get(msg.id);
    if (!done) return;
    this.waiting.delete(msg.id);
    done(
      msg.issues.map((i) => {
        const start = { line: Math.max(0, i.line - 1), character: Math.max(0, i.col - 1) };
        const sameLine = i.endLine === i.line && typeof i.endCol === 'number' && i.endCol > i.col;
        const end = sameLine ? { line: start.line, character: (i.endCol as number) - 1 } : { line: start.line, character: start.character + 1 };
        return { message: i.msg, range: { start, end }, source: 'cpython' as const };
      }),
    );
  }

  /** The process died: pending checks are dropped (their modules keep tree-sitter's verdict). */
  private reset(): void {
    this.proc = undefined;
    this.waiting.clear();
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.proc?.kill();
    this.reset();
  }
}
