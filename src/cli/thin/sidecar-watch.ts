/**
 * What a relayed sidecar's exit status is (node builtins only): the client's own `shutdown` request and
 * `exit` notification, seen on the way to the daemon. As in the in-process sidecar, `exit` after
 * `shutdown` is 0, `exit` without it 1. Large bodies are skipped, not buffered (only the methods
 * of small messages matter).
 */
const SMALL = 4096;

export class SidecarWatch {
  private header = Buffer.alloc(0);
  private body: Buffer[] = [];
  private remaining = -1;
  private keep = false;
  private broken = false;
  shutdown = false;
  exitCode: number | undefined;

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
    try {
      const msg = JSON.parse(Buffer.concat(this.body).toString('utf8')) as { method?: unknown; id?: unknown };
      if (msg.method === 'shutdown' && msg.id !== undefined) this.shutdown = true;
      if (msg.method === 'exit' && msg.id === undefined) this.exitCode ??= this.shutdown ? 0 : 1;
    } catch {
      // not JSON: the daemon's sidecar answers the parse error
    }
  }
}
