// Ending a Python process and everything it started: the host and what its hooks started, the
// environment probe and what an installed engine's import started (#44 item 17). Both run in
// their own process group and, on Linux, as a child subreaper (hooksmith_host.py,
// environment_probe.py), so even a setsid daemon stays their descendant: the tree is found in
// /proc, frozen (SIGSTOP: nothing forks meanwhile), then killed, descendants before the process
// itself (a dead process's orphans would go to init). Elsewhere: the group.
import { readdirSync, readFileSync } from 'node:fs';

function parentsByPid(): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return kids;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = kids.get(ppid);
    if (list) list.push(Number(name));
    else kids.set(ppid, [Number(name)]);
  }
  return kids;
}

/**
 * Whether pid has a child process now, from its threads' children lists (Linux): a few small
 * reads, not a walk of /proc. Every descendant sits under a child, so false means none at all
 * (a daemon a hook double-forks is re-parented to the host, a subreaper, so it is a child).
 * undefined: the kernel does not say (no /proc, or no children lists); ask descendantsOf.
 */
export function hasChildren(pid: number): boolean | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let read = 0;
  for (const tid of tids) {
    let list: string;
    try {
      list = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
    } catch {
      continue; // the thread ended meanwhile, or the kernel keeps no children lists
    }
    read++;
    if (list.trim()) return true;
  }
  return read ? false : undefined;
}

/** Every descendant of pid now (Linux; [] elsewhere). */
export function descendantsOf(pid: number): number[] {
  const kids = parentsByPid();
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    for (const c of kids.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Kills pid, its process group and (Linux) every descendant, wherever it moved to. */
export function killTree(pid: number): void {
  if (process.platform === 'linux') {
    const seen = new Set<number>();
    signal(pid, 'SIGSTOP');
    for (let pass = 0; pass < 5; pass++) {
      const fresh = descendantsOf(pid).filter((p) => !seen.has(p));
      if (!fresh.length) break;
      for (const p of fresh) {
        seen.add(p);
        signal(p, 'SIGSTOP');
      }
    }
    for (const p of seen) signal(p, 'SIGKILL');
  }
  signal(-pid, 'SIGKILL');
  signal(pid, 'SIGKILL');
}

/** After the host died on its own: what is left of its process group (its orphans keep the group id). */
export function killGroup(pid: number): void {
  signal(-pid, 'SIGKILL');
}
