// #30 item 11: `initialize` is answered by the light entry (dist/server.js, server/boot.ts) while
// the main bundle still loads, with what the full server answers, and only once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './lsp-client';

const frame = (msg: object) => {
  const body = JSON.stringify(msg);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { processId: null, rootUri: null, capabilities: {} },
};

/** Runs `server`, sends `input`, collects the JSON bodies it writes until `done(bodies)`. */
function talk(
  server: string,
  input: string,
  done: (bodies: { id?: unknown; result?: unknown }[]) => boolean,
) {
  const child = spawn(process.execPath, [server, '--stdio'], { stdio: 'pipe' });
  let out = '';
  return new Promise<{ id?: unknown; result?: unknown }[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no answer; got ${out.slice(0, 500)}`));
    }, 20000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const bodies = out
        .split(/Content-Length: \d+\r\n\r\n/)
        .filter(Boolean)
        .flatMap((b) => {
          try {
            return [JSON.parse(b) as { id?: unknown; result?: unknown }];
          } catch {
            return []; // the rest of it comes with the next chunk
          }
        });
      if (done(bodies)) {
        clearTimeout(timer);
        // Not killed at once: what the server started after answering may still be seen.
        setTimeout(() => child.kill(), 1000);
        resolve(bodies);
      }
    });
    child.stdin.write(input);
  });
}

describe('the server answers initialize before its main bundle has loaded', () => {
  it('with the main bundle still loading (a stub that never ends), initialize is answered', async () => {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'hooksmith-boot-'));
    try {
      copyFileSync(join(ROOT, 'dist', 'server.js'), join(dir, 'server.js'));
      const marker = join(dir, 'main-started');
      writeFileSync(
        join(dir, 'server-main.js'),
        `require('fs').writeFileSync(${JSON.stringify(marker)}, '');\nAtomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\n`,
      );
      const early = await talk(join(dir, 'server.js'), frame(INIT), (b) => b.some((m) => m.id === 1));
      // The answer may come before the main bundle starts loading (boot.ts loads it right after):
      // it starts, and never ends, all the same.
      for (let i = 0; i < 20 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(existsSync(marker), 'the main bundle was loading (and never ends) when the answer came');
      const full = await talk(join(ROOT, 'dist', 'server.js'), frame(INIT), (b) => b.some((m) => m.id === 1));
      assert.deepEqual(early.find((m) => m.id === 1)!.result, full.find((m) => m.id === 1)!.result);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the full server answers initialize once, then goes on as usual', async () => {
    ensureBuilt();
    const bodies = await talk(
      join(ROOT, 'dist', 'server.js'),
      frame(INIT) +
        frame({ jsonrpc: '2.0', method: 'initialized', params: {} }) +
        frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }),
      (b) => b.some((m) => m.id === 2),
    );
    assert.equal(bodies.filter((m) => m.id === 1).length, 1, JSON.stringify(bodies.map((m) => m.id)));
    assert.ok(bodies.some((m) => m.id === 2 && m.result === null));
  });
});
