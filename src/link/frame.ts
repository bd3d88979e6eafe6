/**
 * Content-Length framed JSON-RPC by hand (node builtins only: the thin client loads it): enough for the daemon
 * handshake, so a thin client need not load vscode-jsonrpc. The reader is bounded: a header over
 * 8 KiB, a missing or non-numeric length, or a body over the cap ends it with an error.
 */
import type { Socket } from 'node:net';

export const MAX_HEADER_BYTES = 8192;
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

export type FrameResult = { kind: 'more' } | { kind: 'bad'; reason: string } | { kind: 'message'; message: unknown; rest: Buffer };

/** One message from the start of `buf`, if it holds a whole one. */
export function readFrame(buf: Buffer, maxBytes = MAX_FRAME_BYTES): FrameResult {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return buf.length > MAX_HEADER_BYTES ? { kind: 'bad', reason: 'header too long' } : { kind: 'more' };
  const header = buf.subarray(0, end).toString('ascii');
  const m = /^content-length: *(\d+) *$/im.exec(header);
  if (!m) return { kind: 'bad', reason: 'no Content-Length header' };
  const length = Number(m[1]);
  if (length > maxBytes) return { kind: 'bad', reason: `message of ${length} bytes` };
  const start = end + 4;
  if (buf.length < start + length) return { kind: 'more' };
  try {
    return { kind: 'message', message: JSON.parse(buf.subarray(start, start + length).toString('utf8')), rest: buf.subarray(start + length) };
  } catch {
    return { kind: 'bad', reason: 'body is not JSON' };
  }
}

export interface JsonRpcReply {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: { code?: string; details?: Record<string, unknown> } };
}

export interface SocketFrame {
  /** The parsed message; undefined when the bytes are not a well-framed JSON message. */
  message: unknown;
  /** Every byte read (to push back). */
  raw: Buffer;
  /** The bytes after the message. */
  rest: Buffer;
}

/** The next framed message on `socket` (left paused after it), or undefined if the socket closed first. */
export function nextFrame(socket: Socket): Promise<SocketFrame | undefined> {
  return new Promise((resolve) => {
    let raw = Buffer.alloc(0);
    const done = (v: SocketFrame | undefined) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      socket.pause();
      resolve(v);
    };
    const onData = (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      const r = readFrame(raw);
      if (r.kind === 'more') return;
      done(r.kind === 'bad' ? { message: undefined, raw, rest: Buffer.alloc(0) } : { message: r.message, raw, rest: r.rest });
    };
    const onClose = () => done(undefined);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onClose);
    // a socket paused after an earlier message does not flow again by itself
    socket.resume();
  });
}
