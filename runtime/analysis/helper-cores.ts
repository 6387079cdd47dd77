// A core for the main thread. In a large single-threaded check the main thread (parse, models,
// rules) is the critical path, yet on a 2-core machine it waited 130–250 ms of a 1.5 s check for a
// core, behind python3 and V8's background threads (compiler, GC helpers). On Linux python3 moves
// itself and those threads onto all usable cores but one (CpythonSyntaxChecker.confineHelpers:
// Node has no affinity API), and the main thread, whose mask is left whole, has that core to
// itself. The core kept is the fastest: on this project's 2-core VMs one virtual CPU often ran a
// loop 1.7 times slower than the other for minutes, and a main thread kept on it lost more than
// the confinement won.
//
// Helpers sharing a core must still finish in time. python3 runs at nice 10, behind V8's threads,
// and should: V8's early work (compiling the hot code and tree-sitter's parser) is what makes the
// main thread fast, while CPython's verdicts are needed only at the end. It judged almost nothing
// while the main thread parsed its first 20–30% of files, then caught up. When the machine is slow
// it may not catch up; once the main thread is well past its warm-up and python3 has fallen behind,
// V8's threads drop to python3's priority so that they share the core evenly.
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { CpythonSyntaxChecker } from '../python/cpython-syntax';
import { lowerPriority } from '../priority';

/** The main thread's progress (share of files parsed) after which V8's threads may yield. */
const WARM_UP_SHARE = 0.4;
/** How far behind the main thread (share of files) python3 may fall before they do. */
const LAG_ALLOWED = 0.1;

export class ConfinedHelpers {
  private yielded = false;

  constructor(
    /** This process's threads confined with python3 (V8's background threads). */
    readonly threads: readonly number[],
    private readonly log: ((m: string) => void) | undefined,
  ) {}

  /**
   * Called as the main thread parses: `parsed` of `total` files parsed, `judged` of them answered
   * by python3. Lowers V8's threads to python3's priority once, when python3 lags too far.
   */
  keepPace(parsed: number, judged: number, total: number): void {
    if (this.yielded || parsed < total * WARM_UP_SHARE || judged >= parsed - total * LAG_ALLOWED) return;
    this.yielded = true;
    for (const tid of this.threads) lowerPriority(tid);
    this.log?.(
      `[hooksmith] python3 had judged ${judged} of ${total} files when ${parsed} were parsed: V8's background threads now yield to it as much as it does to them`,
    );
  }
}

/**
 * Confines python3 and this process's threads so far to all usable cores but one (see above);
 * undefined where that is not done: not Linux, one core, python3 not started, /proc unreadable.
 * Call before any worker thread starts: threads started later keep the whole machine.
 */
export function confineHelpers(
  checker: CpythonSyntaxChecker,
  log: ((m: string) => void) | undefined,
): ConfinedHelpers | undefined {
  if (process.platform !== 'linux' || availableParallelism() < 2) return undefined;
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => Number.isInteger(tid) && tid !== process.pid);
  } catch {
    return undefined;
  }
  if (!checker.confineHelpers(threads)) return undefined;
  log?.(
    `[hooksmith] python3 and ${threads.length} background thread(s) share all cores but one, which the main thread keeps`,
  );
  return new ConfinedHelpers(threads, log);
}
