/**
 * The daemon reads each connection's first message itself: an `lspgate/attach` with `relay`
 * makes the socket a hosted front-end's byte stream (hosted.ts); anything else is pushed back
 * and served as the daemon's JSON-RPC (RemoteGateway clients, status, stop).
 */
import type net from 'node:net';
import { readFrame } from '../../light/frame.js';

export interface FirstMessage {
  /** The parsed message; undefined when the bytes are not a well-framed JSON message. */
  message: { id?: unknown; method?: unknown; params?: unknown } | undefined;
  /** Every byte read so far (to push back). */
  raw: Buffer;
  /** The bytes after the message. */
  rest: Buffer;
}

/** Resolves with the first message (the socket paused), or undefined if the socket closed first. */
export function readFirstMessage(socket: net.Socket): Promise<FirstMessage | undefined> {
  return new Promise((resolve) => {
    let raw = Buffer.alloc(0);
    const done = (v: FirstMessage | undefined) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.pause();
      resolve(v);
    };
    const onData = (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      const r = readFrame(raw);
      if (r.kind === 'more') return;
      if (r.kind === 'bad') return done({ message: undefined, raw, rest: Buffer.alloc(0) });
      const m = r.message;
      done({ message: typeof m === 'object' && m !== null && !Array.isArray(m) ? m : undefined, raw, rest: r.rest });
    };
    const onClose = () => done(undefined);
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}
