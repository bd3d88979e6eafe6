/**
 * Front-ends hosted in the daemon for thin clients (src/cli/thin/thin-client.ts): after an
 * `lspgate/attach` with `relay`, the client's socket is the byte stream of its front-end, run
 * here on the client's view — `mcp`: the same serveStdio / StdioServerTransport / createMcpServer
 * as `lspgate mcp` on stdio, behind the StdioSizeGuard, with the client's tool profile; `sidecar`:
 * serveSidecar on the socket. The client only pipes its stdin and stdout. The client's end of
 * input (EOF) or its death closes the socket: its calls still running are aborted.
 */
import type net from 'node:net';
import path from 'node:path';

import { userOnlyKeyWarnings } from '../config/trust.js';
import type { AttachParams, AttachResult, DaemonClientStatus } from '../frontends/daemon-client/protocol.js';
import type { FrontendGateway } from '../frontends/host.js';
import { serveSidecar } from '../frontends/sidecar/sidecar.js';
import { packageVersion } from '../frontends/version.js';
import type { Gateway } from '../gateway/gateway.js';
import { encodeFrame } from '../link/frame.js';
import { type ConfiguredTools, configuredTools, parseToolsFlag, selectTools } from '../operations/profiles.js';
import { operations } from '../operations/registry.js';
import type { Logger } from '../util/logger.js';
import { type Client, clientFrontend } from './client-view.js';
import type { FairScheduler } from './fair-scheduler.js';
import { rpcErrorBody } from './rpc-error.js';

export interface HostingDaemon {
  readonly core: Gateway;
  readonly logger: Logger;
  readonly scheduler: FairScheduler;
  /** Checks the attach params and makes the client's view; throws a ResponseError to answer. */
  attach(params: unknown): { status: DaemonClientStatus; view: Gateway; params: AttachParams };
  register(client: Client): void;
  detach(client: Client): Promise<void>;
}

function toolsFor(p: AttachParams, root: string): ConfiguredTools | undefined {
  if (p.relay !== 'mcp') return undefined;
  // The same as a stand-alone `lspgate mcp`: the user's profile, which the repository may only narrow.
  const profile = p.tools !== undefined ? { tools: selectTools(parseToolsFlag(p.tools), operations), warnings: [] } : configuredTools(root, operations);
  return { tools: profile.tools, warnings: [...profile.warnings, ...userOnlyKeyWarnings(path.resolve(root))] };
}

/** Answers the relay attach on `socket`, then serves the front-end on it; `rest` is what the client sent after the attach. */
export function hostRelay(d: HostingDaemon, socket: net.Socket, id: unknown, params: unknown, rest: Buffer): void {
  let attached: ReturnType<HostingDaemon['attach']>;
  let tools: ConfiguredTools | undefined;
  try {
    attached = d.attach(params);
    try {
      tools = toolsFor(attached.params, attached.view.defaultRoot);
    } catch (e) {
      void attached.view.close();
      throw e;
    }
  } catch (e) {
    // The thin client falls back to the full CLI, which reports this the way it always has (--tools: exit 2).
    socket.end(encodeFrame({ jsonrpc: '2.0', id, error: rpcErrorBody(e) }));
    return;
  }
  const running = new Set<number>();
  const lifetime = new AbortController();
  const { view, status } = attached;
  const queue = d.scheduler.client();
  const client: Client = { status, view, running: () => running.size, queue };
  d.register(client);
  const gateway = clientFrontend(d.core, () => view, { lifetime: lifetime.signal, running, queue });
  socket.write(encodeFrame({ jsonrpc: '2.0', id, result: { version: packageVersion(), pid: process.pid, client_id: status.id } satisfies AttachResult }));
  if (rest.length) socket.unshift(rest);
  const log = d.logger.child(`client-${status.id}`);
  d.logger.info(`client ${status.id}: hosting its ${attached.params.relay} front-end`);
  let closeFrontend: Promise<() => unknown>;
  if (attached.params.relay === 'mcp') {
    // the MCP server and its SDK are loaded when a first thin mcp client comes, not at the daemon's start
    socket.pause();
    closeFrontend = hostMcp(socket, gateway, tools, log);
  } else {
    const { connection, exited } = serveSidecar(gateway, socket, socket);
    void exited.then(() => socket.end());
    closeFrontend = Promise.resolve(() => connection.dispose());
  }
  socket.once('close', () => {
    lifetime.abort();
    queue.close();
    void closeFrontend
      .then((close) => close())
      .catch((e: unknown) => log.debug('closing a hosted front-end failed', e))
      .then(() => d.detach(client));
  });
  void closeFrontend.then(
    () => socket.resume(),
    (e: unknown) => {
      log.warn('could not host the mcp front-end', e);
      socket.destroy();
    },
  );
}

/** `lspgate mcp` on the socket: the same server, transport and size guard as on stdio. */
async function hostMcp(socket: net.Socket, gateway: FrontendGateway, profile: ConfiguredTools | undefined, log: Logger): Promise<() => unknown> {
  const [{ serveStdio, StdioServerTransport }, { createMcpServer }, { MAX_STDIO_MESSAGE_BYTES, StdioSizeGuard }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('../frontends/mcp/server.js'),
    import('../frontends/mcp/stdio-size-guard.js'),
  ]);
  const guard = new StdioSizeGuard(
    MAX_STDIO_MESSAGE_BYTES,
    (line) => socket.write(line),
    (m) => log.warn(m),
  );
  socket.pipe(guard);
  for (const w of profile?.warnings ?? []) log.warn(w);
  const handle = serveStdio(() => createMcpServer(gateway, profile?.tools, { forwardLogs: false, warnings: profile?.warnings ?? [] }), {
    transport: new StdioServerTransport(guard, socket),
    onerror: (e) => log.debug('mcp relay error', e),
  });
  return () => handle.close();
}
