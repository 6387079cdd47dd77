// The server's connection, with two rules of the protocol vscode-languageserver leaves to us:
// - After `shutdown`, every request is answered with InvalidRequest and notifications other
//   than `exit` are dropped (LSP: "If a server receives requests after a shutdown request
//   those requests should error with InvalidRequest").
// - Over stdio, a frame without a valid Content-Length (missing, not a number, negative,
//   absurdly large) or whose body is not JSON leaves the stream out of step for good: the
//   server says why on stderr and exits with code 1, so the client starts a fresh one
//   (client/restart-policy.ts) instead of talking to a server that never answers again.
// - Over stdio, a client that stops reading (a stalled editor) must not push the server into
//   gigabytes of unsent answers: while too many messages wait to be flushed to stdout, the
//   server stops reading its input (OutputValve), so the stall reaches the client's writes.
import { Transform, type TransformCallback } from 'node:stream';
import { format } from 'node:util';
import {
  createConnection,
  ErrorCodes,
  Message,
  ProposedFeatures,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type Connection,
  type MessageReader,
  type MessageStrategy,
  type MessageWriter,
} from 'vscode-languageserver/node';
import { takeOver } from './capabilities';

const AFTER_SHUTDOWN = 'hooksmith/$requestAfterShutdown';
/** Header block and body bounds: far above anything a client sends. */
const MAX_HEADER_BYTES = 8 * 1024;
const MAX_BODY_BYTES = 512 * 1024 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

/** Bodies up to this size are looked at for `shutdown` as their bytes arrive (it is ~50 bytes). */
const SMALL_BODY_BYTES = 256;

/**
 * Passes LSP frames through unchanged and fails (an 'error' event) on the first frame whose
 * header has no usable Content-Length: after that, no later byte can be framed with certainty.
 * A small frame that is the `shutdown` request is told to `onShutdown` as soon as its bytes are
 * read: vscode-jsonrpc's reader hands on one message per turn of the event loop, so after a
 * burst of opens `shutdown` reached the server's handlers only after one analysis step per
 * message queued before it (seconds).
 */
export class FrameGuard extends Transform {
  private header = Buffer.alloc(0);
  /** Body bytes still to pass through (0: reading a header). */
  private bodyLeft = 0;
  /** A small body's bytes so far (undefined: the body is not a small one). */
  private small: Buffer | undefined;

  constructor(private readonly onShutdown?: () => void) {
    super();
  }

  private body(bytes: Buffer): void {
    this.push(bytes);
    if (!this.small) return;
    this.small = Buffer.concat([this.small, bytes]);
    if (this.bodyLeft === 0 && isShutdown(this.small)) this.onShutdown?.();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let data = chunk;
    while (data.length > 0) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, data.length);
        this.bodyLeft -= n;
        this.body(data.subarray(0, n));
        data = data.subarray(n);
        continue;
      }
      this.header = Buffer.concat([this.header, data]);
      const end = this.header.indexOf(HEADER_END);
      if (end < 0) {
        if (this.header.length > MAX_HEADER_BYTES) return done(new Error('a header of over 8 KiB'));
        break; // the rest of the header comes with the next chunk
      }
      const length = contentLength(this.header.subarray(0, end).toString('ascii'));
      if (typeof length === 'string') return done(new Error(length));
      this.push(this.header.subarray(0, end + HEADER_END.length));
      data = this.header.subarray(end + HEADER_END.length);
      this.header = Buffer.alloc(0);
      this.bodyLeft = length;
      this.small = length <= SMALL_BODY_BYTES && this.onShutdown ? Buffer.alloc(0) : undefined;
    }
    done();
  }
}

/** Whether a frame's body is the `shutdown` request. */
function isShutdown(body: Buffer): boolean {
  if (!body.includes('shutdown')) return false;
  try {
    const msg = JSON.parse(body.toString('utf8')) as unknown;
    return Message.isRequest(msg as Message) && (msg as { method?: unknown }).method === 'shutdown';
  } catch {
    return false; // not JSON: the reader reports it
  }
}

/** The Content-Length of a header block, or why there is none usable. */
function contentLength(header: string): number | string {
  const lines = header.split('\r\n');
  const field = lines.find((l) => /^content-length\s*:/i.test(l));
  if (!field) return `a frame without Content-Length (${JSON.stringify(header.slice(0, 200))})`;
  const value = field.slice(field.indexOf(':') + 1).trim();
  if (!/^\d+$/.test(value)) return `a bad Content-Length: ${JSON.stringify(value.slice(0, 50))}`;
  const n = Number(value);
  if (n > MAX_BODY_BYTES) return `a Content-Length of ${n} bytes (at most ${MAX_BODY_BYTES})`;
  return n;
}

/** Messages written but not yet flushed to stdout above which input stops being read, and below which it resumes. */
const PENDING_HIGH = 256;
const PENDING_LOW = 64;

/**
 * Backpressure from output to input. `track` counts the messages a writer has not flushed yet
 * (vscode-jsonrpc writes one at a time, each waiting for the last: a stalled reader piles them
 * up in the heap, not in stdout's buffer). While PENDING_HIGH are waiting, the chunk just passed
 * is not acknowledged, so the pipe from stdin pauses; it resumes at PENDING_LOW.
 */
export class OutputValve extends Transform {
  private pending = 0;
  private held: TransformCallback | undefined;

  constructor(
    private readonly high = PENDING_HIGH,
    private readonly low = PENDING_LOW,
  ) {
    super();
  }

  /** How many written messages are waiting to be flushed. */
  get waiting(): number {
    return this.pending;
  }

  track(writer: MessageWriter): MessageWriter {
    return {
      onError: writer.onError,
      onClose: writer.onClose,
      end: () => writer.end(),
      dispose: () => writer.dispose(),
      write: (msg: Message) => {
        this.pending++;
        const written = writer.write(msg);
        const settle = () => {
          this.pending--;
          if (this.pending <= this.low) this.release();
        };
        written.then(settle, settle);
        return written;
      },
    };
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.push(chunk);
    if (this.pending >= this.high) this.held = done;
    else done();
  }

  private release(): void {
    const done = this.held;
    this.held = undefined;
    done?.();
  }
}

const shutdownListeners: (() => void)[] = [];
let shutdownSeen = false;

/** `fn` runs once, as soon as the client's `shutdown` is read (over stdio; else at its turn). */
export function onShutdownSeen(fn: () => void): void {
  shutdownListeners.push(fn);
}

function seeShutdown(): void {
  if (shutdownSeen) return;
  shutdownSeen = true;
  for (const fn of shutdownListeners) fn();
}

/**
 * Refuses requests and drops notifications after `shutdown` (see the top of this file). A
 * notification still queued when `shutdown` was read is dropped too: its work (a document to
 * parse) would only delay the answer, and nothing is published after it.
 */
function shutdownGate(): { strategy: MessageStrategy; isShutDown: () => boolean } {
  let shutDown = false;
  return {
    isShutDown: () => shutDown,
    strategy: {
      handleMessage(message, next) {
        if (Message.isRequest(message)) {
          if (shutDown) {
            next({ ...message, method: AFTER_SHUTDOWN, params: { method: message.method } } as Message);
            return;
          }
          if (message.method === 'shutdown') {
            shutDown = true;
            seeShutdown();
          }
        } else if (shutdownSeen && Message.isNotification(message) && message.method !== 'exit') return;
        next(message);
      },
    },
  };
}

/** `reader`, telling the `shutdown` listeners when it is read rather than when its turn comes. */
function tapShutdown(reader: MessageReader): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    dispose: () => reader.dispose(),
    listen: (callback) =>
      reader.listen((message) => {
        if (Message.isRequest(message) && message.method === 'shutdown') seeShutdown();
        callback(message);
      }),
  };
}

/** `writer`, less the one answer to the request boot.ts already answered (`initialize`). */
function answeredOnce(writer: MessageWriter, id: number | string | undefined): MessageWriter {
  if (id === undefined) return writer;
  let dropped = false;
  return {
    onError: writer.onError,
    onClose: writer.onClose,
    end: () => writer.end(),
    dispose: () => writer.dispose(),
    write(msg: Message) {
      if (!dropped && Message.isResponse(msg) && msg.id === id) {
        dropped = true;
        return Promise.resolve();
      }
      return writer.write(msg);
    },
  };
}

function fail(why: string): never {
  process.stderr.write(`[hooksmith] the client sent ${why}: exiting so that it starts a new server\n`);
  process.exit(1);
}

export function createServerConnection(argv: readonly string[] = process.argv): Connection {
  const gate = shutdownGate();
  const options = { messageStrategy: gate.strategy };
  let connection: Connection;
  if (argv.includes('--stdio')) {
    const guard = new FrameGuard(seeShutdown);
    guard.on('error', (err) => fail(err.message));
    // Started by server/boot.ts: the client's bytes from there, `initialize` perhaps answered.
    const early = takeOver();
    const valve = new OutputValve();
    (early?.input ?? process.stdin).pipe(guard).pipe(valve);
    const reader = new StreamMessageReader(valve);
    reader.onError((err) => fail(`an unreadable message (${err.message})`));
    reader.onClose(() => process.exit(gate.isShutDown() ? 0 : 1));
    connection = createConnection(
      ProposedFeatures.all,
      tapShutdown(reader),
      valve.track(answeredOnce(new StreamMessageWriter(process.stdout), early?.answered)),
      options,
    );
    // Stdout carries the protocol: anything printed goes to the client's log instead (as the
    // library does when it opens stdio itself).
    const log = (...args: unknown[]) => connection.console.log(format(...args));
    console.log = console.info = console.debug = log;
    console.warn = (...args: unknown[]) => connection.console.warn(format(...args));
    console.error = (...args: unknown[]) => connection.console.error(format(...args));
  } else connection = createConnection(ProposedFeatures.all, options);
  connection.onRequest(AFTER_SHUTDOWN, (p: { method?: unknown }) => {
    throw new ResponseError(
      ErrorCodes.InvalidRequest,
      `${String(p?.method)}: the server is shut down (only exit is accepted now)`,
    );
  });
  return connection;
}
