/** One request and its reply over a daemon socket (node builtins only, src/link's framing). */
import type net from 'node:net';
import { encodeFrame, nextFrame, type JsonRpcReply } from '../../link/frame.js';

/** Sends one request and reads its reply; leftover bytes after it come back with it. Undefined: the socket closed or the reply was not this request's. */
export async function call(socket: net.Socket, id: number, method: string, params: unknown): Promise<{ reply: JsonRpcReply; rest: Buffer } | undefined> {
  const next = nextFrame(socket);
  socket.write(encodeFrame({ jsonrpc: '2.0', id, method, params }));
  const frame = await next;
  const reply = frame?.message as JsonRpcReply | undefined;
  return reply && typeof reply === 'object' && reply.id === id ? { reply, rest: frame!.rest } : undefined;
}
