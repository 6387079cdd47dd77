// Splits a byte stream into lines with a bound: a line longer than `maxBytes` is never
// buffered whole; its first bytes are kept (to read the request id) and the rest dropped.

export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;
  private oversized = false;
  private head = '';

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (head: string, bytes: number) => void,
  ) {}

  push(data: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = data.indexOf(10, start);
      if (nl < 0) {
        this.append(data.subarray(start));
        return;
      }
      this.append(data.subarray(start, nl));
      this.finish();
      start = nl + 1;
    }
  }

  private append(b: Buffer): void {
    if (b.length === 0) return;
    if (!this.oversized && this.size + b.length > this.maxBytes) {
      this.oversized = true;
      this.head = Buffer.concat([...this.chunks, b])
        .subarray(0, 512)
        .toString('utf8');
      this.chunks = [];
    }
    this.size += b.length;
    if (!this.oversized) this.chunks.push(b);
  }

  private finish(): void {
    if (this.oversized) this.onOversized(this.head, this.size);
    else if (this.size > 0) this.onLine(Buffer.concat(this.chunks, this.size).toString('utf8'));
    this.chunks = [];
    this.size = 0;
    this.oversized = false;
    this.head = '';
  }
}
