// The flood (#42 item 4): ten files of one agent, each registering one modify point 4,000 times
// (4,000 duplicate-modify-hook diagnostics apiece), opened at once over stdio. Measured from when
// the opens are written: when the first diagnostics reach the client, when every file has some,
// and the JSON published. Once with the default cap (hooksmith.maxDiagnosticsPerCode 100), once
// with it off (0: what the server published before the cap). Target: first diagnostics ≤ 1 s.
import { loadavg } from 'node:os';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { LspClient, workspace } from '../test/lsp/lsp-client';

function duplicateModifiers(n: number, tag: string): string {
  const head = 'from rasa.mantle.hooks import ModelRequestPayload, modify_model_request\n\n';
  const body = Array.from(
    { length: n },
    (_, i) =>
      `@modify_model_request()\nasync def ${tag}_${i}(p: ModelRequestPayload) -> ModelRequestPayload:\n    return p  # ${'x'.repeat(120)}\n`,
  );
  return head + body.join('\n');
}

async function flood(cap: number): Promise<{ firstMs: number; allMs: number; mb: number; shown: number }> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`agent/hooks/big${i}.py`] = duplicateModifiers(4000, `b${i}`);
  const ws = workspace(files);
  const c = await LspClient.start({ folders: [ws.dir], settings: { maxDiagnosticsPerCode: cap } });
  try {
    let bytes = 0;
    let first = 0;
    // Replaces the client's own handler: it is kept, counting the bytes on the way.
    c.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      if (!first && p.diagnostics.length) first = performance.now();
      bytes += JSON.stringify(p).length;
      c.published.set(p.uri, [...(c.published.get(p.uri) ?? []), p]);
    });
    const t0 = performance.now();
    await Promise.all(Object.entries(files).map(([rel, text]) => c.open(ws.path(rel), text)));
    const uris = Object.keys(files).map((rel) => `file://${ws.path(rel)}`);
    for (const u of uris) await c.waitFor(u, (p) => p.diagnostics.length > 0, 300_000);
    const allMs = performance.now() - t0;
    return { firstMs: first - t0, allMs, mb: bytes / 1e6, shown: c.last(uris[0]!)!.diagnostics.length };
  } finally {
    await c.stop();
    ws.cleanup();
  }
}

export async function benchFlood(): Promise<string[]> {
  const out: string[] = [];
  for (const cap of [100, 0]) {
    const r = await flood(cap);
    out.push(
      `flood, 10 files x 4,000 diagnostics, maxDiagnosticsPerCode ${cap}: first diagnostics ${Math.round(r.firstMs)} ms after the opens (target ≤ 1,000 ms), all ten ${Math.round(r.allMs)} ms, ${r.mb.toFixed(1)} MB of JSON published, ${r.shown} shown per file (load average ${loadavg()[0]!.toFixed(1)})`,
    );
  }
  return out;
}
