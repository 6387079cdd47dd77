// Abuse of the language server over stdio (issue #16, items 11–13): a FIFO among the hook
// modules, frames without a usable Content-Length, and requests after `shutdown`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { FileChangeType, MessageType, ResponseError } from 'vscode-languageserver-protocol/node';
import { hookModuleSource } from '../../bench/generate';
import { ensureBuilt, LspClient, SERVER, uriOf, workspace } from './lsp-client';
import { GOOD_HOOKS } from './fixtures';

const hasMkfifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).status === 0;
const SYNC_HANDLER =
  'from rasa.mantle.hooks import on_turn_started\n\n\n@on_turn_started()\ndef sync_one(payload) -> None:\n    return None\n';

describe('a FIFO named like a hook module', { skip: !hasMkfifo && 'no mkfifo' }, () => {
  const ws = workspace({ 'agent/hooks.py': GOOD_HOOKS, 'agent/hooks/a.py': SYNC_HANDLER });
  let c: LspClient;
  before(async () => {
    // Present from the start (the first scan) and announced by a watched-file event later.
    spawnSync('mkfifo', [ws.path('agent/hooks/x.py')]);
    spawnSync('mkfifo', [ws.path('agent/hooks/early.py')]);
    c = await LspClient.start({ folders: [ws.dir] });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('is skipped: the server keeps answering after events for it', async () => {
    await c.waitFor(uriOf(ws.path('agent/hooks/a.py')), (p) => p.diagnostics.length > 0, 15000);
    const fifo = uriOf(ws.path('agent/hooks/x.py'));
    await c.watched([
      { uri: fifo, type: FileChangeType.Created },
      { uri: fifo, type: FileChangeType.Changed },
    ]);
    // Still alive and answering: a buffer opened after the events gets its diagnostics.
    const uri = await c.open(ws.path('agent/hooks/b.py'), SYNC_HANDLER.replace('sync_one', 'sync_two'));
    const p = await c.waitFor(uri, (p) => p.version === 1, 10000);
    assert.ok(p.diagnostics.some((d) => d.code === 'sync-handler'));
    assert.ok(
      c.logs.some((l) => l.includes('hooks/x.py: not a regular file')),
      'the log says why x.py was skipped',
    );
    assert.equal(c.published.has(fifo), false, 'nothing published for the FIFO');
    assert.ok(c.alive);
  });
});

/** Starts the server, initializes it over raw frames, then sends `bad`; resolves with how it ended. */
async function afterBadFrame(
  bad: string,
): Promise<{ code: number | null; stderr: string; answered: boolean }> {
  ensureBuilt();
  const proc = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const frame = (o: object) => {
    const body = Buffer.from(JSON.stringify(o));
    return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
  };
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  proc.stdin.write(
    frame({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { processId: null, rootUri: null, capabilities: {} },
    }),
  );
  const deadline = Date.now() + 15000;
  while (!stdout.includes('"id":1') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(stdout.includes('"id":1'), 'the server answered initialize');
  proc.stdin.write(bad);
  proc.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
  const code = await exited;
  clearTimeout(timer);
  return { code, stderr, answered: stdout.includes('"id":2') };
}

describe('a frame without a usable Content-Length', () => {
  for (const [what, bad, says] of [
    [
      'missing',
      'Content-Type: application/vscode-jsonrpc\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
      /without Content-Length/,
    ],
    ['not a number', 'Content-Length: abc\r\n\r\n', /bad Content-Length: "abc"/],
    ['negative', 'Content-Length: -5\r\n\r\n{}', /bad Content-Length: "-5"/],
    ['too large', 'Content-Length: 99999999999\r\n\r\n', /Content-Length of 99999999999 bytes/],
    ['a body that is not JSON', 'Content-Length: 5\r\n\r\nnotjs', /unreadable message/],
  ] as const) {
    it(`${what}: the server exits with code 1 (the client restarts it) and says why`, async () => {
      const r = await afterBadFrame(bad);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.answered, false);
      assert.match(r.stderr, says);
      assert.match(r.stderr, /exiting so that it starts a new server/);
    });
  }
});

describe('requests after shutdown', () => {
  const ws = workspace({ 'agent/hooks.py': GOOD_HOOKS });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('are refused with InvalidRequest; exit then ends the server with code 0', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), GOOD_HOOKS);
    await c.waitFor(uri, (p) => p.version === 1);
    // Answered normally before shutdown.
    const symbols = await c.conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    assert.ok(Array.isArray(symbols) && symbols.length > 0);
    assert.equal(await c.conn.sendRequest('shutdown'), null);
    for (const [method, params] of [
      ['textDocument/documentSymbol', { textDocument: { uri } }],
      ['textDocument/hover', { textDocument: { uri }, position: { line: 8, character: 12 } }],
      ['hooksmith/hooks', {}],
      ['shutdown', undefined],
    ] as const) {
      const err = await c.conn.sendRequest(method, params).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof ResponseError, `${method} was answered after shutdown`);
      assert.equal(err.code, -32600, `${method}: ${err.message}`);
      assert.match(err.message, new RegExp(`^${method}: the server is shut down`));
    }
    const exited = new Promise<number | null>((r) => c.proc.once('exit', (code) => r(code)));
    await c.conn.sendNotification('exit');
    assert.equal(await exited, 0);
  });
});

describe('a module over 2 MB', () => {
  // A sync handler first (sync-handler), then generated hooks up to just over the limit.
  const text =
    SYNC_HANDLER + hookModuleSource(75_000).replace(/^[^]*?from __future__ import annotations\n/, '');
  const ws = workspace({ 'agent/hooks.py': '# the agent\n' });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('is analysed when opened and saved, not on every edit, and the user is told so once', async () => {
    assert.ok(text.length > 2_000_000, `${text.length} characters`);
    const uri = await c.open(ws.path('agent/hooks/big.py'), text);
    const first = await c.waitFor(uri, (p) => p.version === 1, 60000);
    assert.ok(first.diagnostics.some((d) => d.code === 'sync-handler'));
    assert.equal(c.messages.length, 1);
    assert.equal(c.messages[0]?.type, MessageType.Info);
    assert.match(c.messages[0]?.message ?? '', /big\.py is larger than 2 MB.*updated when you save it/);
    // Fix the handler: `def` → `async def`. No analysis until the save.
    const at = { line: 4, character: 0 };
    await c.change(uri, [{ range: { start: at, end: at }, text: 'async ' }]);
    const v = await c.change(uri, [{ range: { start: at, end: at }, text: '' }]);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(
      c.last(uri)?.version,
      1,
      `nothing published for the edits: ${JSON.stringify(c.published.get(uri)?.map((p) => p.version))}`,
    );
    await c.save(uri);
    const saved = await c.waitFor(uri, (p) => p.version === v, 60000);
    assert.equal(
      saved.diagnostics.some((d) => d.code === 'sync-handler'),
      false,
    );
    assert.equal(c.messages.length, 1, 'told once');
  });
});
