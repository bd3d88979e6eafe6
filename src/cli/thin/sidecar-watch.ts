/**
 * What a relayed sidecar needs to know of the bytes it pipes (node builtins only), read with one
 * Content-Length frame reader per direction. Towards the daemon: the client's own `shutdown` request
 * and `exit` notification — as in the in-process sidecar, `exit` after `shutdown` is 0, `exit` without
 * it 1. From the daemon: the parse error (-32700, id null) it answers a client that broke the
 * framing with, so this process can say why the connection ends. Large bodies are skipped, not
 * buffered (only small messages matter).
 */
const SMALL = 4096;

/** Content-Length frames of one direction; `onMessage` gets each small body parsed (not JSON: skipped). */
export class FrameReader {
  private header = Buffer.alloc(0);
  private body: Buffer[] = [];
  private remaining = -1;
  private keep = false;
  /** Framing this reader cannot follow (the other side answers it). */
  broken = false;

  constructor(private readonly onMessage: (msg: Record<string, unknown>) => void) {}

  feed(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length && !this.broken) {
      if (this.remaining < 0) rest = this.readHeader(rest);
      else {
        const take = rest.subarray(0, this.remaining);
        if (this.keep) this.body.push(take);
        this.remaining -= take.length;
        rest = rest.subarray(take.length);
        if (this.remaining === 0) this.finish();
      }
    }
  }

  private readHeader(chunk: Buffer): Buffer {
    this.header = Buffer.concat([this.header, chunk]);
    const end = this.header.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.header.length > 8192) this.broken = true;
      return Buffer.alloc(0);
    }
    const m = /content-length: *(\d+)/i.exec(this.header.subarray(0, end).toString('ascii'));
    if (!m) {
      this.broken = true;
      return Buffer.alloc(0);
    }
    const rest = this.header.subarray(end + 4);
    this.header = Buffer.alloc(0);
    this.remaining = Number(m[1]);
    this.keep = this.remaining <= SMALL;
    this.body = [];
    if (this.remaining === 0) this.finish();
    return rest;
  }

  private finish(): void {
    this.remaining = -1;
    if (!this.keep) return;
    let msg: unknown;
    try {
      msg = JSON.parse(Buffer.concat(this.body).toString('utf8'));
    } catch {
      return; // not JSON: the daemon's sidecar answers the parse error
    }
    if (msg && typeof msg === 'object') this.onMessage(msg as Record<string, unknown>);
  }
}

/** The JSON-RPC parse error code the sidecar closes a connection with after broken framing. */
const PARSE_ERROR = -32700;

export class SidecarWatch {
  shutdown = false;
  exitCode: number | undefined;
  /** Why the daemon closes this client: its parse error's message, after framing the client broke. */
  framingError: string | undefined;

  private readonly toDaemon = new FrameReader((msg) => {
    if (msg.method === 'shutdown' && msg.id !== undefined) this.shutdown = true;
    if (msg.method === 'exit' && msg.id === undefined) this.exitCode ??= this.shutdown ? 0 : 1;
  });

  private readonly fromDaemon = new FrameReader((msg) => {
    const error = msg.error as { code?: unknown; message?: unknown } | undefined;
    if (msg.id === null && error?.code === PARSE_ERROR && typeof error.message === 'string') this.framingError = error.message;
  });

  /** Bytes the client sent. */
  feed(chunk: Buffer): void {
    this.toDaemon.feed(chunk);
  }

  /** Bytes the daemon answered. */
  answer(chunk: Buffer): void {
    this.fromDaemon.feed(chunk);
  }
}
