/**
 * Stateful Streamable HTTP for 2025-era clients (the 2026-07-28 revision is per request and needs
 * no session): an `initialize` POST opens a session with its own MCP server instance and the SDK's
 * WebStandardStreamableHTTPServerTransport, which does the rest of the transport spec itself:
 * `Mcp-Session-Id` on every answer, 404 for an unknown session, DELETE to end one, the GET SSE
 * stream for server-initiated messages (list changes, resource updates, log messages), event ids
 * with a priming event and `retry`, and replay after `Last-Event-ID` (event-store.ts). This file
 * only routes requests to sessions and ends sessions left idle.
 */
import { randomUUID } from 'node:crypto';
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';
import type { Logger } from '../../util/logger.js';
import { MemoryEventStore } from './event-store.js';

/** A session nobody has used for this long is closed (its client must initialize again: 404). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;
/**
 * Sessions open at once. Each holds an MCP server instance and up to MAX_EVENT_BYTES of replayable
 * events: past the cap the least recently used session is closed (its client gets 404 and
 * initializes again, as after an idle close), so clients that never DELETE cannot grow the process.
 */
export const DEFAULT_MAX_SESSIONS = 32;
/** What the priming event's `retry` field asks a client to wait before reconnecting. */
export const SSE_RETRY_MS = 2000;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  timer?: NodeJS.Timeout;
}

export interface HttpSessionsOptions {
  idleMs?: number | undefined;
  maxSessions?: number | undefined;
  maxBodyBytes: number;
  logger: Logger;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}

export class HttpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly idleMs: number;
  private readonly maxSessions: number;

  constructor(
    private readonly factory: () => McpServer,
    private readonly opts: HttpSessionsOptions,
  ) {
    this.idleMs = opts.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.maxSessions = Math.max(1, opts.maxSessions ?? DEFAULT_MAX_SESSIONS);
  }

  get size(): number {
    return this.sessions.size;
  }

  async fetch(request: Request): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const s = this.sessions.get(id);
      if (!s) return jsonRpcError(404, -32001, 'Session not found: initialize a new one');
      this.touch(id, s);
      return s.transport.handleRequest(request);
    }
    if (request.method !== 'POST' || !isInitializeRequest(await request.clone().json().catch(() => undefined))) {
      return jsonRpcError(400, -32000, 'Bad Request: no Mcp-Session-Id; send initialize first');
    }
    return this.open(request);
  }

  private async open(request: Request): Promise<Response> {
    const server = this.factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      retryInterval: SSE_RETRY_MS,
      maxRequestBodySize: this.opts.maxBodyBytes,
      onsessioninitialized: (sid) => {
        this.makeRoom();
        const s: Session = { transport, server };
        this.sessions.set(sid, s);
        this.touch(sid, s);
        this.opts.logger.debug(`mcp http session ${sid} opened`);
      },
      onsessionclosed: (sid) => void this.close(sid, 'deleted by the client'),
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  }

  /** Closes the least recently used sessions until one more fits under maxSessions. */
  private makeRoom(): void {
    for (const id of this.sessions.keys()) {
      if (this.sessions.size < this.maxSessions) return;
      void this.close(id, `least recently used of ${this.maxSessions} open sessions`);
    }
  }

  private touch(id: string, s: Session): void {
    // Map order is use order: the first key is the least recently used session.
    this.sessions.delete(id);
    this.sessions.set(id, s);
    if (s.timer) clearTimeout(s.timer);
    s.timer = setTimeout(() => void this.close(id, `idle for ${this.idleMs} ms`), this.idleMs);
    s.timer.unref();
  }

  async close(id: string, why: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    if (s.timer) clearTimeout(s.timer);
    this.opts.logger.debug(`mcp http session ${id} closed: ${why}`);
    await s.server.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, 'server shutting down')));
  }
}
