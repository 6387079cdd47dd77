// server/transport.ts FrameGuard: passes well-formed LSP frames through unchanged however the
// bytes are split, and fails on the first frame without a usable Content-Length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameGuard } from '../../server/transport';

function frame(body: string): Buffer {
  const b = Buffer.from(body);
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\nContent-Type: x\r\n\r\n`), b]);
}

async function through(chunks: Buffer[]): Promise<{ out: Buffer; error?: string }> {
  const g = new FrameGuard();
  const out: Buffer[] = [];
  g.on('data', (d: Buffer) => out.push(d));
  const ended = new Promise<string | undefined>((resolve) => {
    g.on('end', () => resolve(undefined));
    g.on('error', (e) => resolve(e.message));
  });
  for (const c of chunks) g.write(c);
  g.end();
  const error = await ended;
  return { out: Buffer.concat(out), ...(error ? { error } : {}) };
}

test('frames pass unchanged, split anywhere (byte by byte, or many in one chunk)', async () => {
  const all = Buffer.concat([frame('{"a":1}'), frame(''), frame('{"é":"ü🎉"}'), frame('x'.repeat(70_000))]);
  const bytes = [...all].map((b) => Buffer.from([b]));
  assert.deepEqual((await through(bytes)).out, all);
  assert.deepEqual((await through([all])).out, all);
  const thirds = [all.subarray(0, 30), all.subarray(30, 70_010), all.subarray(70_010)];
  assert.deepEqual((await through(thirds)).out, all);
});

test('a frame without a usable Content-Length fails the stream, after the good frames before it', async () => {
  for (const [bad, says] of [
    ['Content-Type: x\r\n\r\n{}', /without Content-Length/],
    ['Content-Length: 1e3\r\n\r\n', /bad Content-Length: "1e3"/],
    ['Content-Length: -1\r\n\r\n', /bad Content-Length: "-1"/],
    ['Content-Length:\r\n\r\n', /bad Content-Length: ""/],
    [`Content-Length: 2${'0'.repeat(12)}\r\n\r\n`, /at most/],
    ['X'.repeat(9000), /header of over 8 KiB/],
  ] as const) {
    const good = frame('{}');
    const r = await through([good, Buffer.from(bad)]);
    assert.match(r.error ?? 'no error', says);
    assert.deepEqual(r.out, good);
  }
});

test('a `shutdown` request is told as its bytes pass, split anywhere, behind large frames; nothing else is', async () => {
  const text = 'x'.repeat(100_000);
  const open = frame(JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { text } }));
  const look = frame('{"jsonrpc":"2.0","method":"shutdown"}'); // a notification named so: not the request
  const shutdown = frame('{"jsonrpc":"2.0","id":7,"method":"shutdown"}');
  const all = Buffer.concat([open, look, shutdown]);
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  for (const cut of [1, 7, 1000, all.length - 10]) {
    let seen = 0;
    const g = new FrameGuard(() => seen++);
    g.on('data', () => undefined);
    g.write(all.subarray(0, all.length - cut));
    await turn();
    assert.equal(seen, 0, `not before its last byte (cut ${cut})`);
    g.write(all.subarray(all.length - cut));
    await turn();
    assert.equal(seen, 1, `told once (cut ${cut})`);
  }
});
