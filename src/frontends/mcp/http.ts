/**
 * `lspgate mcp --http`: Streamable HTTP on 127.0.0.1 only, at `/mcp`. createMcpHandler serves the
 * 2026-07-28 revision per request and 2025-era traffic through its stateless fallback, both from
 * the same server factory. Host/Origin (403) and bearer token (401) are checked before the SDK
 * sees the request; bodies over the limit are answered 413 by the Node adapter.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Gateway } from '../../gateway/gateway.js';
import { installLifecycle } from '../lifecycle.js';
import { checkBearer, checkHostAndOrigin, resolveToken, type GuardVerdict } from './http-guards.js';
import { createMcpServer } from './server.js';

export const MCP_HTTP_PATH = '/mcp';
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface McpHttpOptions {
  /** 0 = any free port (the chosen one is printed). */
  port: number;
  maxBodyBytes?: number;
}

export interface McpHttpServer {
  url: string;
  port: number;
  tokenFile?: string;
  close(): Promise<void>;
}

export async function startMcpHttp(gateway: Gateway, opts: McpHttpOptions): Promise<McpHttpServer> {
  const logger = gateway.context.logger.child('mcp-http');
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const handler = createMcpHandler(() => createMcpServer(gateway), {
    maxRequestBodySize: maxBodyBytes,
    onerror: (e) => logger.debug('mcp http', e),
  });
  const node = toNodeHandler(handler, { maxRequestBodySize: maxBodyBytes, onerror: (e) => logger.warn('mcp http adapter', e) });
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
    node(req, res).catch((e: unknown) => {
      logger.warn('mcp http request failed', e);
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: nothing else on the network can connect.
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const source = resolveToken(gateway.context.cacheDir, port);
  token = source.token;
  const url = `http://127.0.0.1:${port}${MCP_HTTP_PATH}`;
  return {
    url,
    port,
    tokenFile: source.file,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
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
export async function runMcpHttp(gateway: Gateway, opts: McpHttpOptions): Promise<void> {
  const logger = gateway.context.logger.child('mcp-http');
  const http = await startMcpHttp(gateway, opts);
  process.stderr.write(`lspgate: MCP Streamable HTTP listening on ${http.url}\n`);
  process.stderr.write(
    http.tokenFile
      ? `lspgate: bearer token written to ${http.tokenFile} (send "Authorization: Bearer <token>")\n`
      : 'lspgate: bearer token taken from LSPGATE_TOKEN\n',
  );
  installLifecycle(gateway, { watchStdin: false, closeFrontend: () => http.close(), logger });
}
