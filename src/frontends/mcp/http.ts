/**
 * `lspgate mcp --http`: Streamable HTTP on 127.0.0.1 only, at `/mcp`. 2026-07-28 requests go to the
 * SDK's per-request handler; 2025-era traffic gets sessions (http-sessions.ts: Mcp-Session-Id, GET
 * stream, resumability, DELETE, idle expiry), or with `stateless` the SDK's stateless fallback.
 * Host/Origin (403) and bearer token (401) are checked before the SDK sees the request; bodies
 * over the limit are answered 413 by the Node adapter.
 */
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type McpHandlerRequestOptions } from '@modelcontextprotocol/server';

import type { Logger } from '../../util/logger.js';
import type { FrontendGateway } from '../host.js';
import { installLifecycle } from '../lifecycle.js';
import { checkBearer, checkHostAndOrigin, type GuardVerdict, resolveToken } from './http-guards.js';
import { HttpSessions } from './http-sessions.js';
import { createMcpServer } from './server.js';

export const MCP_HTTP_PATH = '/mcp';
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** How long an idle keep-alive connection stays open (Node's default is 5 s). */
export const KEEP_ALIVE_MS = 65_000;

export interface McpHttpOptions {
  /** 0 = any free port (the chosen one is printed). */
  port: number;
  maxBodyBytes?: number;
  /** No sessions: every 2025-era request is served alone (no GET stream, no resumability). */
  stateless?: boolean;
  /** Stateful mode: close a session unused for this long. */
  sessionIdleMs?: number;
  /** Stateful mode: sessions open at once (the least recently used is closed past it). */
  maxSessions?: number;
  /** Stateful mode: close a session whose client has not finished the handshake this long after initialize. */
  handshakeMs?: number;
  /** The tools to list (a tool profile); all when absent. */
  tools?: ReadonlySet<string>;
  /** Configuration ignored at start, said in the server's instructions. */
  warnings?: readonly string[];
}

export interface McpHttpServer {
  url: string;
  port: number;
  tokenFile?: string;
  close(): Promise<void>;
}

/** The SDK's handlers behind the endpoint: per-request for 2026-07-28 traffic, sessions (or stateless) for 2025-era traffic. */
function mcpHandlers(gateway: FrontendGateway, opts: McpHttpOptions, logger: Logger, maxBodyBytes: number) {
  const factory = () => createMcpServer(gateway, opts.tools, { warnings: opts.warnings ?? [] });
  // 2026-07-28 requests carry their own state and go to the SDK's per-request handler; 2025-era
  // traffic gets sessions (http-sessions.ts), or the SDK's stateless fallback with --stateless.
  const handler = createMcpHandler(factory, {
    maxRequestBodySize: maxBodyBytes,
    onerror: (e) => logger.debug('mcp http', e),
    legacy: opts.stateless ? 'stateless' : 'reject',
  });
  const sessions = opts.stateless
    ? undefined
    : new HttpSessions(factory, { maxBodyBytes, logger, idleMs: opts.sessionIdleMs, maxSessions: opts.maxSessions, handshakeMs: opts.handshakeMs });
  const routed = sessions
    ? {
        fetch: async (request: Request, o?: McpHandlerRequestOptions) =>
          (await isLegacyRequest(request, undefined, { maxRequestBodySize: maxBodyBytes })) ? sessions.fetch(request) : handler.fetch(request, o),
      }
    : handler;
  const node = toNodeHandler(routed, { maxRequestBodySize: maxBodyBytes, onerror: (e) => logger.warn('mcp http adapter', e) });
  return { handler, sessions, node };
}

export async function startMcpHttp(gateway: FrontendGateway, opts: McpHttpOptions): Promise<McpHttpServer> {
  const logger = gateway.context.logger.child('mcp-http');
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { handler, sessions, node } = mcpHandlers(gateway, opts, logger, maxBodyBytes);
  let port = 0;
  // Read by the request handler before it is set: requests before then are answered 401 'not ready'.
  let token: string | undefined = undefined;

  const server: Server = createServer((req, res) => {
    const verdict = guard(req, port, token);
    if (!verdict.ok) return reject(res, verdict);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== MCP_HTTP_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found; the MCP endpoint is ${MCP_HTTP_PATH}\n`);
      return;
    }
    if (refuseAnnouncedOversize(req, res, maxBodyBytes)) return;
    node(req, res).catch((e: unknown) => {
      logger.warn('mcp http request failed', e);
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: nothing else on the network can connect.
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const source = resolveToken(gateway.context.cacheDir, port);
  token = source.token;
  const forgetToken = removeOnExit(source.file);
  const url = `http://127.0.0.1:${port}${MCP_HTTP_PATH}`;
  return {
    url,
    port,
    tokenFile: source.file,
    close: async () => {
      forgetToken();
      await sessions?.closeAll();
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * A generated token's file lives as long as the server: removed on close, and on any exit of the
 * process (a signal's graceful close, a second signal, the close watchdog all end in process.exit),
 * so no token of a server that is gone stays on disk. Returns the remover.
 */
function removeOnExit(file: string | undefined): () => void {
  if (file === undefined) return () => undefined;
  const remove = () => {
    process.off('exit', remove);
    try {
      rmSync(file, { force: true });
    } catch {
      // a cache directory made read-only meanwhile: nothing more to do on the way out
    }
  };
  process.on('exit', remove);
  return remove;
}

/**
 * Node closes an idle keep-alive socket after 5 s: a client still busy with the last answer (an SDK
 * client compiling 40 tools' output schemas on a loaded machine) then sends its next request on a
 * socket already closed and gets "other side closed". Idle loopback sockets cost nothing.
 */
function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
}

/** Announced bodies up to this size are read (and dropped) before the 413, beyond it the socket is closed. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A body whose Content-Length is over the limit: answered 413 with the adapter's JSON-RPC error, but
 * only once the body has been read. Answering while the client still uploads and closing the socket
 * made the client see a reset instead of the answer in 1 of 5 red-team runs ("fetch failed").
 */
function refuseAnnouncedOversize(req: IncomingMessage, res: ServerResponse, limit: number): boolean {
  const announced = Number(req.headers['content-length']);
  if (!Number.isFinite(announced) || announced <= limit) return false;
  const reply = () => {
    const body = { jsonrpc: '2.0', error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${limit} bytes` }, id: null };
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(body));
  };
  if (announced > DRAIN_LIMIT_BYTES) reply();
  else
    req
      .once('end', reply)
      .once('error', () => res.destroy())
      .resume();
  return true;
}

function guard(req: IncomingMessage, port: number, token: string | undefined): GuardVerdict {
  const origin = checkHostAndOrigin(req, port);
  if (!origin.ok) return origin;
  if (token === undefined) return { ok: false, status: 401, message: 'not ready' };
  return checkBearer(req, token);
}

function reject(res: ServerResponse, v: Exclude<GuardVerdict, { ok: true }>): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (v.status === 401) headers['www-authenticate'] = 'Bearer realm="lspgate"';
  res.writeHead(v.status, headers).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: v.message }, id: null }));
}

/** The CLI entry: start, print where to connect (stderr), run until a signal. */
export async function runMcpHttp(gateway: FrontendGateway, opts: McpHttpOptions): Promise<void> {
  const logger = gateway.context.logger.child('mcp-http');
  // Signals are handled before the token file is written and its path announced: a client that
  // stops the server as soon as it reads the line (or while it starts) gets the graceful close,
  // whose exit removes the file. Installed after the line, a SIGTERM sent in between killed the
  // process outright and left the token on disk (seen once on a loaded CI machine).
  const started: { http?: McpHttpServer } = {};
  installLifecycle(gateway, { watchStdin: false, closeFrontend: () => started.http?.close(), logger });
  const http = (started.http = await startMcpHttp(gateway, opts));
  process.stderr.write(`lspgate: MCP Streamable HTTP listening on ${http.url}\n`);
  process.stderr.write(
    http.tokenFile
      ? `lspgate: bearer token written to ${http.tokenFile} (send "Authorization: Bearer <token>")\n`
      : 'lspgate: bearer token taken from LSPGATE_TOKEN\n',
  );
}
