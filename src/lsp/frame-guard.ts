/**
 * Validates the base-protocol framing of a server's stdout before vscode-jsonrpc parses it.
 * vscode-jsonrpc buffers whatever a `Content-Length` announces (no cap) and, after a header it
 * cannot read, carries on parsing from an unknown point in the stream. This guard only checks
 * (it does not parse messages): headers must be `Key: value` lines holding a numeric
 * Content-Length no larger than `maxMessageBytes`, and a started body must complete within
 * `partialFrameMs`. On the first violation it stops passing data and reports it: the session then
 * resets the server, because nothing after that point can be trusted.
 * Content-Length counts bytes (slicing by string length breaks on non-ASCII).
 */
import { Transform, type TransformCallback } from 'node:stream';

export interface FrameGuardOptions {
  maxMessageBytes: number;
  maxHeaderBytes?: number;
  /** A body that stays incomplete this long means a lost frame (0 = never). */
  partialFrameMs?: number;
  onViolation(reason: string): void;
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

export class FrameGuard extends Transform {
  private header = Buffer.alloc(0);
  private bodyLeft = -1;
  private broken = false;
  private partialTimer: NodeJS.Timeout | undefined;
  framesPassed = 0;

  constructor(private readonly opts: FrameGuardOptions) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    if (this.broken) return cb();
    let rest = chunk;
    while (rest.length > 0 && !this.broken) {
      if (this.bodyLeft < 0) rest = this.readHeader(rest);
      else {
        const n = Math.min(this.bodyLeft, rest.length);
        this.push(rest.subarray(0, n));
        this.bodyLeft -= n;
        rest = rest.subarray(n);
        if (this.bodyLeft === 0) this.endFrame();
      }
    }
    cb();
  }

  private readHeader(data: Buffer): Buffer {
    const maxHeader = this.opts.maxHeaderBytes ?? 8192;
    const joined = this.header.length ? Buffer.concat([this.header, data]) : data;
    const end = joined.indexOf(CRLFCRLF);
    if (end < 0) {
      if (joined.length > maxHeader) this.violate(`header longer than ${maxHeader} bytes without a blank line`);
      else this.header = Buffer.from(joined);
      return Buffer.alloc(0);
    }
    const head = joined.subarray(0, end).toString('latin1');
    let length = -1;
    for (const line of head.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) return this.violate(`not a header line: ${JSON.stringify(line.slice(0, 80))}`);
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'content-length') {
        if (!/^\d{1,15}$/.test(value)) return this.violate(`bad Content-Length ${JSON.stringify(value.slice(0, 40))}`);
        length = Number(value);
      }
    }
    if (length < 0) return this.violate('header without Content-Length');
    if (length > this.opts.maxMessageBytes) {
      return this.violate(`Content-Length ${length} exceeds the ${this.opts.maxMessageBytes}-byte message limit`);
    }
    this.push(joined.subarray(0, end + CRLFCRLF.length));
    this.header = Buffer.alloc(0);
    this.bodyLeft = length;
    if (length === 0) this.endFrame();
    else this.armPartialTimer();
    return joined.subarray(end + CRLFCRLF.length);
  }

  private endFrame(): void {
    this.bodyLeft = -1;
    this.framesPassed++;
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = undefined;
  }

  private armPartialTimer(): void {
    const ms = this.opts.partialFrameMs ?? 0;
    if (ms <= 0) return;
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = setTimeout(() => {
      if (this.bodyLeft > 0) this.violate(`message body incomplete after ${ms} ms (${this.bodyLeft} bytes missing)`);
    }, ms);
    this.partialTimer.unref();
  }

  private violate(reason: string): Buffer {
    if (!this.broken) {
      this.broken = true;
      this.header = Buffer.alloc(0);
      if (this.partialTimer) clearTimeout(this.partialTimer);
      this.opts.onViolation(reason);
    }
    return Buffer.alloc(0);
  }

  override _flush(cb: TransformCallback): void {
    if (this.partialTimer) clearTimeout(this.partialTimer);
    cb();
  }
}
