// The flood (#42 item 4): ten files of one agent, each registering one modify point 4,000 times
// (4,000 duplicate-modify-hook diagnostics apiece), opened at once over stdio. Measured from when
// the opens are written: when the first diagnostics reach the client, when every file has some,
// and the JSON published. Once with the default cap (hooksmith.maxDiagnosticsPerCode 100), once
// with it off (0: what the server published before the cap). Target: first diagnostics ≤ 1 s.
// Beside the wall time, the server's CPU time from the opens to the first diagnostics: on the
// shared machine the wall time is mostly waiting for a core, the CPU time is what an idle one takes.
import { loadavg } from 'node:os';
import { ShutdownRequest, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { cpuMsOf, LspClient, workspace } from '../test/lsp/lsp-client';
import { line } from './stats';

function duplicateModifiers(n: number, tag: string): string {
  const head = 'from rasa.mantle.hooks import ModelRequestPayload, modify_model_request\n\n';
  const body = Array.from(
    { length: n },
    (_, i) =>
      `@modify_model_request()\nasync def ${tag}_${i}(p: ModelRequestPayload) -> ModelRequestPayload:\n    return p  # ${'x'.repeat(120)}\n`,
  );
  return head + body.join('\n');
}

interface Flood {
  firstMs: number;
  /** Server CPU time (ms) from the opens to the first diagnostics. */
  firstCpuMs: number;
  allMs: number;
  mb: number;
  shown: number;
}

async function flood(cap: number): Promise<Flood> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`agent/hooks/big${i}.py`] = duplicateModifiers(4000, `b${i}`);
  const ws = workspace(files);
  const c = await LspClient.start({ folders: [ws.dir], settings: { maxDiagnosticsPerCode: cap } });
  try {
    let bytes = 0;
    let first = 0;
    let firstCpu = 0;
    // Replaces the client's own handler: it is kept, counting the bytes on the way.
    c.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      if (!first && p.diagnostics.length) [first, firstCpu] = [performance.now(), cpuMsOf(c.proc.pid)];
      bytes += JSON.stringify(p).length;
      c.published.set(p.uri, [...(c.published.get(p.uri) ?? []), p]);
    });
    const [t0, cpu0] = [performance.now(), cpuMsOf(c.proc.pid)];
    await Promise.all(Object.entries(files).map(([rel, text]) => c.open(ws.path(rel), text)));
    const uris = Object.keys(files).map((rel) => `file://${ws.path(rel)}`);
    for (const u of uris) await c.waitFor(u, (p) => p.diagnostics.length > 0, 300_000);
    const allMs = performance.now() - t0;
    const shown = c.last(uris[0]!)!.diagnostics.length;
    return { firstMs: first - t0, firstCpuMs: firstCpu - cpu0, allMs, mb: bytes / 1e6, shown };
  } finally {
    await c.stop();
    ws.cleanup();
  }
}

/** The same ten files opened at once, then `shutdown` after `delayMs`: ms until its answer. */
async function shutdownAfterBurst(delayMs: number): Promise<number> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`agent/hooks/big${i}.py`] = duplicateModifiers(4000, `b${i}`);
  const ws = workspace(files);
  const c = await LspClient.start({ folders: [ws.dir] });
  try {
    await Promise.all(Object.entries(files).map(([rel, text]) => c.open(ws.path(rel), text)));
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const t0 = performance.now();
    await c.conn.sendRequest(ShutdownRequest.type);
    return performance.now() - t0;
  } finally {
    await c.stop();
    ws.cleanup();
  }
}

export async function benchFlood(): Promise<string[]> {
  const out: string[] = [];
  for (const cap of [100, 0]) {
    const r = await flood(cap);
    if (cap) {
      const first = `${Math.round(r.firstMs)} ms (server CPU ${Math.round(r.firstCpuMs)} ms)`;
      out.push(
        line('flood: first diagnostics after the opens, wall (CPU)', first, '≤ 1,000 ms', r.firstMs <= 1000),
      );
    }
    out.push(
      `flood, 10 files x 4,000 diagnostics, maxDiagnosticsPerCode ${cap}: first diagnostics ${Math.round(r.firstMs)} ms after the opens (target ≤ 1,000 ms), all ten ${Math.round(r.allMs)} ms, ${r.mb.toFixed(1)} MB of JSON published, ${r.shown} shown per file (load average ${loadavg()[0]!.toFixed(1)})`,
    );
  }
  // Work in flight ends at its next step: the answer waits for the step running when it is read.
  const waits = [];
  for (const delay of [0, 1000, 3000]) waits.push(await shutdownAfterBurst(delay));
  const worst = Math.max(...waits);
  const all = waits.map((w) => Math.round(w)).join(' / ');
  out.push(
    line('shutdown after the burst, 0 / 1 / 3 s later: answered in', `${all} ms`, '≤ 200 ms', worst <= 200),
  );
  return out;
}
