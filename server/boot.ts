// dist/server.js, the server's entry: over stdio it answers `initialize` at once, while the rest
// of the server (dist/server-main.js, a bundle of ~2 MB) loads — an editor learns what the server
// can do in about the time Node takes to start, not after the parser and the rules loaded
// (#30 item 11). It reads the first frame only: when that is `initialize`, the answer goes out
// here and the main server, handed the same bytes, drops its own answer to that id
// (server/transport.ts). Anything else (another first message, a broken frame, --node-ipc)
// goes to the main server untouched.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { handOver, initializeResult } from './capabilities';

const HEADER_END = '\r\n\r\n';

/** The first frame's body once it is all in `buf`; undefined while more is needed; null if no frame can be read. */
function firstBody(buf: Buffer): string | undefined | null {
  const end = buf.indexOf(HEADER_END);
  if (end < 0) return buf.length > 8192 ? null : undefined;
  const m = /^content-length\s*:\s*(\d+)\s*$/im.exec(buf.subarray(0, end).toString('ascii'));
  if (!m) return null;
  const start = end + HEADER_END.length;
  const length = Number(m[1]);
  return buf.length - start >= length ? buf.subarray(start, start + length).toString('utf8') : undefined;
}

function answerInitialize(body: string | null): number | string | undefined {
  let msg: { method?: unknown; id?: unknown; params?: Parameters<typeof initializeResult>[0] } | undefined;
  try {
    msg = JSON.parse(body ?? 'null') as typeof msg;
  } catch {
    return undefined;
  }
  const id = msg?.id;
  if (msg?.method !== 'initialize' || (typeof id !== 'number' && typeof id !== 'string')) return undefined;
  const answer = JSON.stringify({ jsonrpc: '2.0', id, result: initializeResult(msg.params) });
  process.stdout.write(`Content-Length: ${Buffer.byteLength(answer)}\r\n\r\n${answer}`);
  return id;
}

function loadMain(): void {
  // A path esbuild does not follow: the main server stays its own bundle, loaded only now.
  const main = join(__dirname, 'server-main.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the answer
  require(main);
}

if (!process.argv.includes('--stdio')) loadMain();
else {
  let buf = Buffer.alloc(0);
  const handOff = (ended: boolean) => {
    process.stdin.off('data', onData).off('end', onEnd);
    process.stdin.pause();
    const body = ended ? null : firstBody(buf);
    const input = new PassThrough();
    input.write(buf);
    if (ended) input.end();
    else process.stdin.pipe(input);
    handOver({ input, answered: answerInitialize(body ?? null) });
    loadMain();
  };
  const onData = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    if (firstBody(buf) !== undefined) handOff(false);
  };
  const onEnd = () => handOff(true);
  process.stdin.on('data', onData).on('end', onEnd);
}
