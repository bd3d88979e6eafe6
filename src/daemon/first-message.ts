/**
 * The daemon reads each connection's first message itself: an `lspgate/attach` with `relay`
 * makes the socket a hosted front-end's byte stream (hosted.ts); anything else is pushed back
 * and served as the daemon's JSON-RPC (RemoteGateway clients, status, stop).
 */
import type net from 'node:net';

import { nextFrame } from '../link/frame.js';

export interface FirstMessage {
  /** The parsed message; undefined when the bytes are not a well-framed JSON object. */
  message: { id?: unknown; method?: unknown; params?: unknown } | undefined;
  /** Every byte read so far (to push back). */
  raw: Buffer;
  /** The bytes after the message. */
  rest: Buffer;
}

/** Resolves with the first message (the socket paused), or undefined if the socket closed first. */
export async function readFirstMessage(socket: net.Socket): Promise<FirstMessage | undefined> {
  const f = await nextFrame(socket);
  if (!f) return undefined;
  const m = f.message;
  return { ...f, message: typeof m === 'object' && m !== null && !Array.isArray(m) ? m : undefined };
}
