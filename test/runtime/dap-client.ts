// A minimal Debug Adapter Protocol client over TCP (Content-Length framing), enough to attach to
// debugpy, set breakpoints, wait for `stopped`, read variables and continue. Test helper only.
import { connect, type Socket } from 'node:net';

export interface DapMessage {
  seq: number;
  type: 'request' | 'response' | 'event';
  command?: string;
  event?: string;
  request_seq?: number;
  success?: boolean;
  message?: string;
  body?: Record<string, unknown>;
}

export class DapClient {
  private seq = 1;
  private buffer = Buffer.alloc(0);
  private readonly waiting = new Map<
    number,
    { resolve: (m: DapMessage) => void; reject: (e: Error) => void }
  >();
  private readonly events: DapMessage[] = [];
  private readonly eventWaiters: {
    name: string;
    resolve: (m: DapMessage) => void;
    reject: (e: Error) => void;
  }[] = [];
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => this.onData(d));
    socket.on('close', () => {
      this.closed = true;
      for (const [, w] of this.waiting)
        w.reject(new Error('the debuggee closed the connection during a request'));
      this.waiting.clear();
      for (const w of this.eventWaiters.splice(0))
        w.reject(new Error(`the debuggee closed the connection before '${w.name}'`));
    });
  }

  static open(host: string, port: number): Promise<DapClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => resolve(new DapClient(socket)));
      socket.once('error', reject);
    });
  }

  request(command: string, args: Record<string, unknown> = {}): Promise<DapMessage> {
    if (this.closed)
      return Promise.reject(new Error(`the debuggee closed the connection before '${command}'`));
    const seq = this.seq++;
    const json = JSON.stringify({ seq, type: 'request', command, arguments: args });
    this.socket.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    return new Promise((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
  }

  /** The first event of that name not yet taken (already received, or the next one). */
  event(name: string, timeoutMs = 60_000): Promise<DapMessage> {
    const i = this.events.findIndex((e) => e.event === name);
    if (i >= 0) return Promise.resolve(this.events.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no '${name}' event within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const fail = (e: Error) => (clearTimeout(timer), reject(e));
      this.eventWaiters.push({ name, resolve: (m) => (clearTimeout(timer), resolve(m)), reject: fail });
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(d: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, d]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const msg = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString()) as DapMessage;
      this.buffer = this.buffer.subarray(end + 4 + length);
      if (msg.type === 'response') {
        this.waiting.get(msg.request_seq!)?.resolve(msg);
        this.waiting.delete(msg.request_seq!);
      } else if (msg.type === 'event') {
        const w = this.eventWaiters.findIndex((x) => x.name === msg.event);
        if (w >= 0) this.eventWaiters.splice(w, 1)[0].resolve(msg);
        else this.events.push(msg);
      }
    }
  }
}
