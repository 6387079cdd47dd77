// Lower scheduling priority for helpers of a one-shot check (python3, the tree worker's thread):
// the thread that builds models and runs rules is the critical path on a machine with few cores.

import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Nice 10 for a process, or on Linux a thread id; where that is not allowed, nothing. */
export function lowerPriority(id: number): void {
  try {
    setPriority(id, 10);
  } catch {
    // not permitted here (some containers, Windows without rights): run at normal priority
  }
}

/** The calling thread's id (/proc/thread-self → "<pid>/task/<tid>"); undefined off Linux. */
export function linuxThreadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}
