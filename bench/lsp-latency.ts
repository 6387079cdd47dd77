// Language server over stdio: edit → publishDiagnostics latency (p50/p99 over 500 edits)
// on a 160-line and a 3,000-line hook module, and the server's RSS after 10,000 edits.
// Drives the real `node dist/server.js --stdio` through test/lsp/lsp-client.ts. Each edit
// types or deletes one character inside a hook body and waits for the publication of
// exactly that version, so the (adaptive) debounce is part of the measured latency.
//
// Where the edit lands matters: tree-sitter-python re-lexes everything after an edit that
// turns the end of a line into a comment (its external indentation scanner), ~10x slower
// than typing in a string or a name. We type inside a string literal of the first hook,
// as when editing a message.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspClient, workspace } from '../test/lsp/lsp-client';
import { hookModuleSource } from './generate';
import { line, ms, percentile } from './stats';

interface Run {
  samples: number[];
  rssMb: number;
  /** Server CPU time (user + system) per measured edit: what latency would be on an idle core. */
  cpuMsPerEdit: number;
}

/** User + system CPU time of a process in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A place inside a hook body to type at: just inside the first string literal of a call. */
function typingSpot(text: string): number {
  const i = text.indexOf('("', text.indexOf('async def '));
  return i < 0 ? text.length : i + 2;
}

function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function editLoop(lines: number, edits: number, warmup = 20): Promise<Run> {
  const text = hookModuleSource(lines);
  const ws = workspace({ 'agent/hooks.py': text });
  const c = await LspClient.start({ folders: [ws.dir] });
  try {
    const uri = await c.open(ws.path('agent/hooks.py'), text);
    await c.waitFor(uri, (p) => p.version === 1, 30000);
    let doc = TextDocument.create(uri, 'python', 1, text);
    const spot = typingSpot(text);
    const samples: number[] = [];
    let cpu0 = cpuMs(c.proc.pid);
    for (let i = 0; i < edits + warmup; i++) {
      if (i === warmup) cpu0 = cpuMs(c.proc.pid);
      // Alternate: type "abcd" one char at a time, then delete it, keeping the module valid.
      const typed = i % 8 < 4;
      const k = i % 4;
      const at = doc.positionAt(spot + (typed ? k : 3 - k));
      const change = typed
        ? { range: { start: at, end: at }, text: 'abcd'[k]! }
        : { range: { start: at, end: doc.positionAt(spot + 4 - k) }, text: '' };
      doc = TextDocument.update(doc, [change], doc.version + 1);
      const t0 = performance.now();
      await c.change(uri, [change]);
      await c.waitFor(uri, (p) => p.version === doc.version, 30000);
      if (i >= warmup) samples.push(performance.now() - t0);
    }
    return { samples, rssMb: rssMb(c.proc.pid), cpuMsPerEdit: (cpuMs(c.proc.pid) - cpu0) / edits };
  } finally {
    await c.stop();
    ws.cleanup();
  }
}

export async function benchLsp(): Promise<string[]> {
  const out: string[] = [];
  const small = await editLoop(160, 500);
  out.push(line('edit → diagnostics, 160-line module, p50', ms(percentile(small.samples, 50)), '≤ 5 ms'));
  out.push(line('edit → diagnostics, 160-line module, p99', ms(percentile(small.samples, 99)), '≤ 20 ms'));
  out.push(line('server CPU per edit, 160-line module', ms(small.cpuMsPerEdit)));
  const large = await editLoop(3000, 500);
  out.push(line('edit → diagnostics, 3,000-line module, p50', ms(percentile(large.samples, 50)), '≤ 25 ms'));
  out.push(line('edit → diagnostics, 3,000-line module, p99', ms(percentile(large.samples, 99))));
  out.push(line('server CPU per edit, 3,000-line module', ms(large.cpuMsPerEdit)));
  const soak = await editLoop(160, 10000, 0);
  out.push(
    line('server RSS after 10,000 edits (160-line module)', `${soak.rssMb.toFixed(1)} MB`, '≤ 150 MB'),
  );
  // Latency is CPU-bound: on a shared machine the load average explains most of the spread.
  out.push(line('machine load average (1 min) / cores', `${loadavg()[0]!.toFixed(1)} / ${cpus().length}`));
  return out;
}

// Run directly (not when bundled into dist/bench/run.js, where every module is the main one).
if (require.main === module && /lsp-latency\.[jt]s$/.test(process.argv[1] ?? '')) {
  void benchLsp().then((lines) => {
    for (const l of lines) console.log(l);
    process.exit(0);
  });
}
