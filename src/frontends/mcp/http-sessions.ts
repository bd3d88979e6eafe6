/**
 * Stateful Streamable HTTP for 2025-era clients (the 2026-07-28 revision is per request and needs
 * no session): an `initialize` POST opens a session with its own MCP server instance and the SDK's
 * WebStandardStreamableHTTPServerTransport, which does the rest of the transport spec itself:
 * `Mcp-Session-Id` on every answer, 404 for an unknown session, DELETE to end one, the GET SSE
 * stream for server-initiated messages (list changes, resource updates, log messages), event ids
 * with a priming event and `retry`, and replay after `Last-Event-ID` (event-store.ts). This file
 * routes requests to sessions, ends sessions left idle, past the cap or past the handshake deadline,
 * tells a client whose session ended why and to initialize again, and makes SSE streams behave
 * (sse-streams.ts).
 */
import { randomUUID } from 'node:crypto';

import { isInitializeRequest, type McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

import type { Logger } from '../../util/logger.js';
import { EndedSessions, type EndReason, sessionNotFound } from './ended-sessions.js';
import { MemoryEventStore } from './event-store.js';
import { streamAtOnce } from './sse-streams.js';

/** A session nobody has used for this long is closed (its client must initialize again: 404). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;
/**
 * Sessions open at once, counting those still in their handshake (initialize answered,
 * `notifications/initialized` not yet received). Each holds an MCP server instance and up to
 * MAX_EVENT_BYTES of replayable events, so clients that never DELETE, or never finish the
 * handshake, cannot grow the process (3,000 clients that sent only `initialize` took it from 94 to
 * 568 MB while half-open sessions were exempt). Past the cap the oldest half-open session is closed
 * first, then the least recently used established one: a flood of half-open sessions never closes a
 * working client ahead of itself. A closed session's client gets 404 with the reason and
 * initializes again, as after an idle close.
 */
export const DEFAULT_MAX_SESSIONS = 32;
/**
 * A session whose client has not sent `notifications/initialized` this long after `initialize` is
 * closed: a real client sends it at once, and a half-open session otherwise holds its room until
 * the idle timeout.
 */
export const DEFAULT_HANDSHAKE_MS = 10_000;
/** What the priming event's `retry` field asks a client to wait before reconnecting. */
export const SSE_RETRY_MS = 2000;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  timer?: NodeJS.Timeout;
  /** Closes the session if the handshake is not over in time; cleared when it is. */
  handshakeTimer?: NodeJS.Timeout;
  /** `notifications/initialized` received: the handshake is over, the session may be closed for room. */
  initialized: boolean;
}

export interface HttpSessionsOptions {
  idleMs?: number | undefined;
  maxSessions?: number | undefined;
  handshakeMs?: number | undefined;
  maxBodyBytes: number;
  logger: Logger;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}

export class HttpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly ended = new EndedSessions();
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly handshakeMs: number;

  constructor(
    private readonly factory: () => McpServer,
    private readonly opts: HttpSessionsOptions,
  ) {
    this.idleMs = opts.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.maxSessions = Math.max(1, opts.maxSessions ?? DEFAULT_MAX_SESSIONS);
    this.handshakeMs = opts.handshakeMs ?? DEFAULT_HANDSHAKE_MS;
  }

  get size(): number {
    return this.sessions.size;
  }

  async fetch(request: Request): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const s = this.sessions.get(id);
      if (!s) return sessionNotFound(request, this.ended.get(id));
      this.touch(id, s);
      const dropped = () => this.opts.logger.debug(`mcp http session ${id}: the client dropped its ${request.method} stream`);
      return streamAtOnce(await s.transport.handleRequest(request), request.signal, dropped);
    }
    if (
      request.method !== 'POST' ||
      !isInitializeRequest(
        await request
          .clone()
          .json()
          .catch(() => undefined),
      )
    ) {
      return jsonRpcError(400, -32000, 'Bad Request: no Mcp-Session-Id; send initialize first');
    }
    return streamAtOnce(await this.open(request), request.signal);
  }

  private async open(request: Request): Promise<Response> {
    const server = this.factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      retryInterval: SSE_RETRY_MS,
      maxRequestBodySize: this.opts.maxBodyBytes,
      onsessioninitialized: (sid) => {
        const s: Session = { transport, server, initialized: false };
        this.sessions.set(sid, s);
        this.touch(sid, s);
        s.handshakeTimer = setTimeout(
          () => void this.close(sid, 'handshake', `no notifications/initialized within ${this.handshakeMs} ms of initialize (--handshake-ms)`),
          this.handshakeMs,
        );
        s.handshakeTimer.unref();
        this.opts.logger.debug(`mcp http session ${sid} opened`);
        const previous = server.server.oninitialized;
        server.server.oninitialized = () => {
          previous?.();
          s.initialized = true;
          clearTimeout(s.handshakeTimer);
        };
        this.makeRoom(sid);
      },
      onsessionclosed: (sid) => void this.close(sid, 'deleted', 'deleted by the client'),
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  }

  /**
   * Closes sessions until the open ones fit under maxSessions: the oldest still in their handshake
   * first, then the least recently used established ones; never `opening`, the session being opened.
   */
  private makeRoom(opening: string): void {
    for (const established of [false, true]) {
      for (const [id, s] of this.sessions) {
        if (this.sessions.size <= this.maxSessions) return;
        if (id === opening || s.initialized !== established) continue;
        const why = established
          ? `least recently used of ${this.maxSessions} open sessions (--max-sessions)`
          : `oldest of the sessions still in their handshake, past ${this.maxSessions} open sessions (--max-sessions)`;
        void this.close(id, 'evicted', why);
      }
    }
  }

  private touch(id: string, s: Session): void {
    // Map order is use order: the first key is the least recently used session.
    this.sessions.delete(id);
    this.sessions.set(id, s);
    if (s.timer) clearTimeout(s.timer);
    s.timer = setTimeout(() => void this.close(id, 'idle', `idle for ${this.idleMs} ms (--session-idle-ms)`), this.idleMs);
    s.timer.unref();
  }

  async close(id: string, reason: EndReason, why: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    this.ended.note(id, reason, why);
    if (s.timer) clearTimeout(s.timer);
    clearTimeout(s.handshakeTimer);
    this.opts.logger.debug(`mcp http session ${id} closed: ${why}`);
    await s.server.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, 'shutdown', 'server shutting down')));
  }
}
