/** One request and its reply over a daemon socket (node builtins only, src/link's framing). */
import type net from 'node:net';

import { encodeFrame, type JsonRpcReply, nextFrame, readFrame } from '../../link/frame.js';

/** Sends one request and reads its reply; leftover bytes after it come back with it. Undefined: the socket closed or the reply was not this request's. */
export async function call(socket: net.Socket, id: number, method: string, params: unknown): Promise<{ reply: JsonRpcReply; rest: Buffer } | undefined> {
  const next = nextFrame(socket);
  socket.write(encodeFrame({ jsonrpc: '2.0', id, method, params }));
  const frame = await next;
  const reply = frame?.message as JsonRpcReply | undefined;
  return reply && typeof reply === 'object' && reply.id === id ? { reply, rest: frame!.rest } : undefined;
}

/**
 * Sends one request and reads frames until its reply, handing each notification before it to
 * `onNotification` (the daemon's `$/progress` while a one-shot call runs). Undefined: the socket
 * closed, or a frame was malformed or another request's reply.
 */
export function callWithNotifications(
  socket: net.Socket,
  id: number,
  method: string,
  params: unknown,
  onNotification: (method: string, params: unknown) => void,
): Promise<{ reply: JsonRpcReply } | undefined> {
  return new Promise((resolve) => {
    let buf: Buffer = Buffer.alloc(0);
    const done = (v: { reply: JsonRpcReply } | undefined) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      resolve(v);
    };
    const onClose = () => done(undefined);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const r = readFrame(buf);
        if (r.kind === 'more') return;
        if (r.kind === 'bad') return done(undefined);
        buf = r.rest;
        const m = r.message as JsonRpcReply & { method?: unknown; params?: unknown };
        if (m && typeof m === 'object' && m.id === undefined && typeof m.method === 'string') {
          onNotification(m.method, m.params);
          continue;
        }
        return done(m && typeof m === 'object' && m.id === id ? { reply: m } : undefined);
      }
    };
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onClose);
    socket.resume();
    socket.write(encodeFrame({ jsonrpc: '2.0', id, method, params }));
  });
}
