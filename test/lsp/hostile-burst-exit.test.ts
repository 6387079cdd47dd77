// Issue #34 item 15, first half: after a burst of hostile documents (50 opened at once, ten of
// them 800 KB modules registering one modify point 4,000 times each, in one agent), the
// server answers `shutdown` and exits on `exit` within 10 s each, with code 0.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExitNotification, ShutdownRequest } from 'vscode-languageserver-protocol';
import { LspClient, workspace } from './lsp-client';

/** A module registering `modify_model_request` `n` times (a generated or hostile file). */
function duplicateModifiers(n: number, tag: string): string {
  const head = 'from rasa.mantle.hooks import ModelRequestPayload, modify_model_request\n\n';
  const body = Array.from(
    { length: n },
    (_, i) =>
      `@modify_model_request()\nasync def ${tag}_${i}(p: ModelRequestPayload) -> ModelRequestPayload:\n    return p  # ${'x'.repeat(120)}\n`,
  );
  return head + body.join('\n');
}

/** The other forty: half-typed code, deep nesting, long lines, control bytes, a lone decorator. */
function otherHostile(i: number): string {
  switch (i % 5) {
    case 0:
      return 'from rasa.mantle.hooks import (\n@modify_tool_call(\nasync def x(p:\n';
    case 1:
      return `x = ${'('.repeat(2000)}1${')'.repeat(2000)}\n`;
    case 2:
      return `s = "${'a'.repeat(200_000)}"\n`;
    case 3:
      return '\u0000\u0001\ufffe\ud800 def \u202e@on_turn_started()\n';
    default:
      return '@on_turn_started()\n'.repeat(3000);
  }
}

describe('a burst of hostile documents', () => {
  it('shutdown is answered and exit obeyed within 10 s each, exit code 0', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`agent/hooks/big${i}.py`] = duplicateModifiers(4000, `b${i}`);
    for (let i = 0; i < 40; i++) files[`agent/hooks/h${i}.py`] = otherHostile(i);
    const ws = workspace(files);
    const c = await LspClient.start({ folders: [ws.dir] });
    try {
      // The client sends `shutdown` once its opens are written (8 MB: the writes go at the pace the
      // server reads them); the bound runs from there, not from this process's own encoding.
      await Promise.all(Object.entries(files).map(([rel, text]) => c.open(ws.path(rel), text)));
      const t0 = performance.now();
      await c.conn.sendRequest(ShutdownRequest.type);
      const shutdownMs = performance.now() - t0;
      assert.ok(shutdownMs < 10_000, `shutdown answered after ${Math.round(shutdownMs)} ms`);
      const exited = new Promise<number | null>((r) => c.proc.once('exit', (code) => r(code)));
      const t1 = performance.now();
      await c.conn.sendNotification(ExitNotification.type);
      const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), 10_000).unref());
      const code = await Promise.race([exited, timer]);
      assert.notEqual(code, 'late', `the server was still running 10 s after exit`);
      assert.equal(code, 0, `exit code ${code} after ${Math.round(performance.now() - t1)} ms`);
    } finally {
      await c.stop();
      ws.cleanup();
    }
  });
});
