// How much CPU other programs are using right now, measured rather than guessed: the machine's
// busy time (os.cpus()) over a short window, minus what this process and its python3 used in it.
// The load average is a poor guide on shared or virtual machines (it sits at 1–2 there while a
// core is idle, and it lags a minute behind); a check worker pays only when a core is really free.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

export interface CpuSample {
  /** performance.now() when taken (ms). */
  at: number;
  /** Busy time of every core since boot (ms): user + nice + sys + irq. */
  busy: number;
  /** CPU time of this process, all threads (ms). */
  own: number;
  /** CPU time of the given child processes and their waited-for children (ms); 0 where unknown. */
  children: number;
}

/** CPU time (ms) of a process and its waited-for children, from /proc (Linux); 0 elsewhere. */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined || process.platform !== 'linux') return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3,
    // utime/stime/cutime/cstime are fields 14–17, in clock ticks (USER_HZ: 100 on Linux).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10 || 0;
  } catch {
    return 0;
  }
}

export function sampleCpu(childPids: readonly (number | undefined)[] = []): CpuSample {
  let busy = 0;
  for (const c of cpus()) busy += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  const u = process.cpuUsage();
  return {
    at: performance.now(),
    busy,
    own: (u.user + u.system) / 1000,
    children: childPids.reduce<number>((n, p) => n + processCpuMs(p), 0),
  };
}

/**
 * Cores' worth of CPU that other programs used between two samples (0 = the machine was ours);
 * undefined when the window is too short to say (the counters tick every 10 ms).
 */
export function othersBusyCores(before: CpuSample, after: CpuSample): number | undefined {
  const window = after.at - before.at;
  if (window < 40) return undefined;
  const others = after.busy - before.busy - (after.own - before.own) - (after.children - before.children);
  return Math.max(0, others / window);
}
