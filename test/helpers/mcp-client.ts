/**
 * MCP clients for tests (the real @modelcontextprotocol/client): in-process over a linked
 * in-memory transport pair, a spawned `lspgate mcp` over stdio, or Streamable HTTP. `era`
 * pins the protocol: 'legacy' = the 2025-11-25 `initialize` handshake (the client default),
 * '2026-07-28' = the modern per-request era.
 */
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { createMcpServer, type McpServerOptions } from '../../src/frontends/mcp/server.js';
import type { Gateway } from '../../src/gateway/gateway.js';
import { childEnv } from './spawn.js';

export type Era = 'legacy' | '2026-07-28';

function newClient(era: Era): Client {
  return new Client({ name: 'lspgate-tests', version: '0.0.0' }, era === 'legacy' ? {} : { versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

/** `tools`: the profile's tool names (all when absent). */
export async function connectInProcess(
  gateway: Gateway,
  tools?: ReadonlySet<string>,
  opts?: McpServerOptions,
): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(gateway, tools, opts);
  await server.connect(serverSide);
  const client = newClient('legacy');
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export interface StdioConnection {
  client: Client;
  transport: StdioClientTransport;
  /** pid of the spawned lspgate. */
  pid: number;
  stderr: () => string;
}

export async function connectStdio(
  script: string,
  args: string[],
  opts: { cacheDir: string; era?: Era; cwd?: string; env?: Record<string, string> },
): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script, ...args],
    env: childEnv({ LSPGATE_CACHE_DIR: opts.cacheDir, ...opts.env }),
    stderr: 'pipe',
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = newClient(opts.era ?? 'legacy');
  await client.connect(transport);
  if (transport.pid === null) throw new Error('stdio transport has no pid');
  return { client, transport, pid: transport.pid, stderr: () => err };
}

export async function connectHttp(url: string, token: string, era: Era = 'legacy'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = newClient(era);
  await client.connect(transport);
  return client;
}

/** The one text item of a tool result. */
export function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('');
}

/**
 * A minimal MCP stdio driver over a process the test spawned itself (newline-delimited JSON-RPC,
 * 2025-11-25 handshake), for lifecycle tests that must control stdin EOF and signals exactly:
 * the SDK client's close() escalates to SIGTERM on its own.
 */
export class RawMcpStdio {
  private buf = '';
  private nextId = 1;
  private readonly pending = new Map<number, (msg: { result?: unknown; error?: unknown }) => void>();

  constructor(private readonly child: import('node:child_process').ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      this.buf += d;
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl).trim();
        this.buf = this.buf.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
        if (typeof msg.id === 'number' && this.pending.has(msg.id)) {
          this.pending.get(msg.id)!(msg);
          this.pending.delete(msg.id);
        }
      }
    });
  }

  request(method: string, params: unknown): Promise<{ result?: unknown; error?: unknown }> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  notify(method: string, params?: unknown): void {
    this.child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }) + '\n');
  }

  async initialize(): Promise<void> {
    const r = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } });
    if (r.error) throw new Error(`initialize failed: ${JSON.stringify(r.error)}`);
    this.notify('notifications/initialized');
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<{ structuredContent?: unknown; isError?: boolean }> {
    const r = await this.request('tools/call', { name, arguments: args });
    if (r.error) throw new Error(`tools/call failed: ${JSON.stringify(r.error)}`);
    return r.result as { structuredContent?: unknown; isError?: boolean };
  }
}

/**
 * The coded error of an `isError` tool result: the JSON in its text, which must equal the copy
 * under `_meta["lspgate/error"]`. Error results carry no structuredContent (see error-result.ts).
 */
export function errorOf(result: { content?: unknown; structuredContent?: unknown; _meta?: unknown }): { error: string; code: string; details?: unknown } {
  const payload = JSON.parse(textOf(result)) as { error: string; code: string; details?: unknown };
  const meta = (result._meta as Record<string, unknown> | undefined)?.['lspgate/error'];
  if (JSON.stringify(meta) !== JSON.stringify(payload)) throw new Error(`_meta["lspgate/error"] differs from the text: ${JSON.stringify(meta)}`);
  if (result.structuredContent !== undefined) throw new Error('an error result must not carry structuredContent');
  return payload;
}
