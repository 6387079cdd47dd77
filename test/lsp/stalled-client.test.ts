// Issue #44 item 14: a client that keeps writing requests but stops reading the answers must not
// push the server into gigabytes. The server stops reading input while its output is backed up
// (server/transport.ts), so the stall reaches the client's writes instead of the server's heap.
// Afterwards, once the client reads again, the server answers and exits cleanly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DocumentSymbolRequest, ExitNotification, ShutdownRequest } from 'vscode-languageserver-protocol';
import { GOOD_HOOKS } from './fixtures';
import { LspClient, workspace } from './lsp-client';

/** Resident set size of a process in MB (/proc/<pid>/status; NaN elsewhere). */
function rssMb(pid: number | undefined): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function frame(msg: unknown): string {
  const body = JSON.stringify(msg);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const STALL_MS = 15_000;
const RSS_BOUND_MB = 300;

describe('a client that stops reading', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  it('the server stops reading too: its memory stays bounded, then it answers and exits 0', async (t) => {
    const ws = workspace({ 'agent/hooks/h.py': GOOD_HOOKS });
    const c = await LspClient.start({ folders: [ws.dir] });
    try {
      const uri = await c.open(ws.path('agent/hooks/h.py'), GOOD_HOOKS);
      await c.waitFor(uri, () => true, 20_000);
      const startMb = rssMb(c.proc.pid);
      // Stop reading the server's stdout: its pipe fills, and so would the server's own buffers.
      c.proc.stdout!.pause();
      const stdin = c.proc.stdin!;
      let sent = 0;
      let maxMb = startMb;
      let nextSample = 0;
      const end = Date.now() + STALL_MS;
      while (Date.now() < end) {
        if (Date.now() >= nextSample) {
          maxMb = Math.max(maxMb, rssMb(c.proc.pid));
          nextSample = Date.now() + 250;
        }
        if (stdin.writableNeedDrain) {
          await new Promise((r) => setTimeout(r, 20)); // the server is not reading: neither do we write
          continue;
        }
        // Requests the client never cancels; answers it never reads. Ids the connection does not know.
        for (let i = 0; i < 50; i++) {
          const id = `stall-${sent++}`;
          const method = i % 2 ? 'textDocument/hover' : DocumentSymbolRequest.method;
          const params = { textDocument: { uri }, position: { line: 9, character: 12 } };
          stdin.write(frame({ jsonrpc: '2.0', id, method, params }));
        }
        await new Promise((r) => setImmediate(r));
      }
      maxMb = Math.max(maxMb, rssMb(c.proc.pid));
      t.diagnostic(
        `server RSS ${Math.round(startMb)} → max ${Math.round(maxMb)} MB; ${sent} requests written`,
      );
      assert.ok(
        maxMb < RSS_BOUND_MB,
        `server RSS reached ${Math.round(maxMb)} MB (from ${Math.round(startMb)} MB) after ${sent} unread requests`,
      );
      // Reading again: every queued answer drains, then a fresh request is answered.
      c.proc.stdout!.resume();
      const symbols = await Promise.race([
        c.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }),
        new Promise<'late'>((r) => setTimeout(() => r('late'), 60_000).unref()),
      ]);
      assert.notEqual(symbols, 'late', `no answer 60 s after reading resumed (${sent} requests sent)`);
      assert.ok(Array.isArray(symbols) && symbols.length > 0, JSON.stringify(symbols));
      await c.conn.sendRequest(ShutdownRequest.type);
      const exited = new Promise<number | null>((r) => c.proc.once('exit', (code) => r(code)));
      await c.conn.sendNotification(ExitNotification.type);
      const code = await Promise.race([
        exited,
        new Promise<'late'>((r) => setTimeout(() => r('late'), 10_000).unref()),
      ]);
      assert.equal(code, 0, `exit code ${code}`);
    } finally {
      await c.stop();
      ws.cleanup();
    }
  });
});
