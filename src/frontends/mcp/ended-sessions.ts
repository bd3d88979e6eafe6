/**
 * What a client whose session ended is told. The transport spec: a server that ended a session
 * answers its id with 404, and the client must then start a new session with `initialize` (no
 * Mcp-Session-Id). Neither TypeScript SDK client does that by itself: each throws the error text to
 * its caller. So the 404 carries a JSON-RPC error that says why the session ended (closed for room,
 * idle, deleted) and what to do, with the request's id when the body was one request; the reasons
 * of recently ended ids are kept (bounded) to say so.
 */

/** Ended session ids remembered, with why (each ~100 bytes). */
const REMEMBERED = 1024;
/** JSON-RPC error code the SDKs use for "Session not found". */
export const SESSION_NOT_FOUND = -32001;

export type EndReason = 'evicted' | 'idle' | 'handshake' | 'deleted' | 'shutdown';

export interface Ended {
  reason: EndReason;
  why: string;
}

export class EndedSessions {
  private readonly ended = new Map<string, Ended>();

  note(id: string, reason: EndReason, why: string): void {
    this.ended.delete(id);
    this.ended.set(id, { reason, why });
    if (this.ended.size > REMEMBERED) this.ended.delete(this.ended.keys().next().value!);
  }

  get(id: string): Ended | undefined {
    return this.ended.get(id);
  }
}

/** 404 for a request naming a session that is not open. */
export async function sessionNotFound(request: Request, ended: Ended | undefined): Promise<Response> {
  const message =
    `Session not found: ${ended ? `this session was closed (${ended.why})` : 'no open session has this id'}; ` +
    'start a new session: send initialize without an Mcp-Session-Id header';
  const error = { code: SESSION_NOT_FOUND, message, data: { reason: ended?.reason ?? 'unknown', initialize: true } };
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: await requestId(request) }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });
}

/** The id of a POST body holding one JSON-RPC request, else null. */
async function requestId(request: Request): Promise<string | number | null> {
  if (request.method !== 'POST') return null;
  const body = (await request.json().catch(() => undefined)) as { id?: unknown } | undefined;
  const id = body && typeof body === 'object' && !Array.isArray(body) ? body.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
