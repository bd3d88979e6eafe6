/**
 * `lspgate daemon`: one Gateway for every client of this user (per cache directory), on a Unix
 * domain socket in a private directory (socket-dir.ts). Each connection speaks the sidecar's
 * JSON-RPC (operations, `$/progress`, `$/cancelRequest`) after an `lspgate/attach` handshake that
 * carries the client's version and root; the client gets a view of the gateway (Gateway.forClient)
 * that reaches only its own root and what it opens, while each (server, root) session and each
 * catalog exists once. A client that disconnects aborts only its own calls. With no client
 * attached for `idleMs` the daemon stops every server and exits.
 */
import { existsSync, unlinkSync } from 'node:fs';
import net from 'node:net';

import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { serverMemoryBudgetMb } from '../broker/memory-budget.js';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import {
  ATTACH,
  AttachParams,
  type AttachResult,
  CLI,
  type DaemonClientStatus,
  type DaemonStatus,
  STATUS,
  STOP,
  StopParams,
} from '../frontends/daemon-client/protocol.js';
import { checkCacheDir, daemonPaths, ensurePrivateDir } from '../frontends/daemon-client/socket-dir.js';
import { installLifecycle, type Lifecycle } from '../frontends/lifecycle.js';
import { guardClientInput } from '../frontends/sidecar/client-framing.js';
import { serveOperations } from '../frontends/sidecar/sidecar.js';
import { packageVersion } from '../frontends/version.js';
import { defaultCacheDir, Gateway } from '../gateway/gateway.js';
import { attachEnvironment } from '../link/config-env.js';
import { sessionStatuses } from '../service/workspace/daemon-status.js';
import type { Logger } from '../util/logger.js';
import { runCli } from './cli-host.js';
import { type Client, clientFrontend } from './client-view.js';
import { envDifferences, envDiffersError } from './env-check.js';
import { FairScheduler } from './fair-scheduler.js';
import { readFirstMessage } from './first-message.js';
import { type HostingDaemon, hostRelay } from './hosted.js';
import { registerReplMethods } from './repl-methods.js';
import { rpcError } from './rpc-error.js';
import { positiveIntFromEnv, traceLimitFromEnv } from './trace-limit.js';
import { registerWatchMethods } from './watch-methods.js';

export const DEFAULT_IDLE_MS = 10 * 60_000;
/** Operation calls running at once over all clients (fair-scheduler.ts); LSPGATE_DAEMON_CALLS. */
export const DEFAULT_CALL_SLOTS = 4;
/** A session nobody used for this long stops with its server; the next call starts it again. */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;

export interface DaemonOptions {
  /** Exit after this long without an attached client (default 10 min; LSPGATE_DAEMON_IDLE_MS). */
  idleMs?: number;
  /** Stop a session unused this long (default 10 min, 0 never; LSPGATE_DAEMON_SERVER_IDLE_MS). */
  sessionIdleMs?: number;
  /** Trace lines a second per tracing client (default 200; LSPGATE_DAEMON_TRACE_MAX). */
  tracePerSecond?: number;
  /** Operation calls running at once over all clients (default 4; LSPGATE_DAEMON_CALLS). */
  callSlots?: number;
}

class Daemon implements HostingDaemon {
  private readonly clients = new Set<Client>();
  private readonly sockets = new Set<net.Socket>();
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private readonly startedAt = new Date().toISOString();
  /** Its own environment, as clients send theirs. */
  private readonly env = attachEnvironment();
  lifecycle!: Lifecycle;

  constructor(
    readonly core: Gateway,
    readonly socketPath: string,
    readonly idleMs: number,
    readonly logger: Logger,
    readonly tracePerSecond: number,
    readonly scheduler: FairScheduler,
    readonly sessionIdleMs: number,
  ) {}

  accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('error', (e) => this.logger.debug('client socket error', e));
    socket.once('close', () => this.sockets.delete(socket));
    void readFirstMessage(socket).then((first) => {
      if (!first) return;
      const m = first.message;
      const relay = m?.method === ATTACH && typeof m.params === 'object' && m.params !== null && 'relay' in m.params;
      if (relay) return hostRelay(this, socket, m.id, m.params, first.rest);
      socket.unshift(first.raw);
      this.serveRpc(socket);
    });
  }

  /** Today's protocol: the sidecar's JSON-RPC on the socket (RemoteGateway clients, status, stop, one-shot calls). */
  private serveRpc(socket: net.Socket): void {
    const guarded = guardClientInput(socket, socket, (reason) => {
      this.logger.warn(`closing a client that broke the message framing (${reason})`);
      socket.destroy();
    });
    const connection = createMessageConnection(new StreamMessageReader(guarded), new StreamMessageWriter(socket));
    let client: Client | undefined;
    const running = new Set<number>();
    const lifetime = new AbortController();
    const queue = this.scheduler.client();
    connection.onRequest(ATTACH, (params: unknown) => {
      if (client) throw new ResponseError(-32600, 'already attached', { code: 'INVALID_INPUT', details: {} });
      const attached = this.attach(params);
      client = { status: attached.status, view: attached.view, running: () => running.size, queue };
      this.register(client);
      return { version: packageVersion(), pid: process.pid, client_id: client.status.id } satisfies AttachResult;
    });
    connection.onRequest(STATUS, () => this.status());
    connection.onRequest(STOP, (params: unknown) => this.stop(params, client));
    registerReplMethods(connection, () => client?.view, this.core, this.logger, { perSecond: this.tracePerSecond, backlog: () => socket.writableLength });
    registerWatchMethods(connection, () => client?.view, this.logger);
    connection.onRequest(CLI, (params: unknown) => {
      if (!client) throw rpcError(new LspgateError('DAEMON_FAILED', `send ${ATTACH} before ${CLI}`, { reason: 'not_attached' }));
      const progress = (value: unknown) => void connection.sendNotification('$/progress', { token: 'cli', value }).catch(() => undefined);
      return runCli(this.core, params, { lifetime: lifetime.signal, running, queue, logger: this.logger.child(`client-${client.status.id}`), progress });
    });
    const abortAll = serveOperations(
      connection,
      clientFrontend(this.core, () => client?.view, { lifetime: lifetime.signal, running, queue }),
      this.logger,
      { fullResult: true },
    );
    let done = false;
    const gone = () => {
      if (done) return;
      done = true;
      lifetime.abort();
      queue.close();
      abortAll();
      connection.dispose();
      if (client) void this.detach(client);
    };
    socket.on('close', gone);
    connection.onClose(gone);
    connection.listen();
  }

  register(client: Client): void {
    this.clients.add(client);
    this.armIdle();
  }

  attach(params: unknown): { status: DaemonClientStatus; view: Gateway; params: AttachParams } {
    const parsed = AttachParams.safeParse(params);
    if (!parsed.success) throw rpcError(new LspgateError('INVALID_INPUT', `bad ${ATTACH} params: ${parsed.error.message}`));
    const p = parsed.data;
    if (p.version !== packageVersion()) {
      throw rpcError(
        new LspgateError('DAEMON_FAILED', `the running lspgate daemon is version ${packageVersion()}, this client is ${p.version}`, {
          reason: 'version_skew',
          daemon_version: packageVersion(),
          client_version: p.version,
          clients: this.clients.size,
          daemon_pid: process.pid,
        }),
      );
    }
    const differs = p.environment && envDifferences(p.environment, this.env, this.core.context.servers, this.core.context.cacheDir);
    if (differs) throw rpcError(envDiffersError(differs, this.clients.size));
    let view: Gateway;
    try {
      view = this.core.forClient(p.root);
    } catch (e) {
      throw rpcError(toLspgateError(e));
    }
    const status: DaemonClientStatus = {
      id: this.nextId++,
      frontend: p.frontend,
      ...(p.pid !== undefined ? { pid: p.pid } : {}),
      root: view.defaultRoot,
      attached_at: new Date().toISOString(),
      running_requests: 0,
    };
    this.logger.info(`client ${status.id} attached (${p.frontend}, pid ${p.pid ?? '?'}, root ${view.defaultRoot})`);
    return { status, view, params: p };
  }

  async detach(client: Client): Promise<void> {
    this.clients.delete(client);
    this.logger.info(`client ${client.status.id} detached`);
    try {
      await client.view.close();
    } catch (e) {
      this.logger.warn(`releasing client ${client.status.id} failed`, e);
    }
    this.armIdle();
  }

  /** With no client attached, exit after idleMs; an attach cancels it. */
  armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.clients.size > 0) return;
    this.idleTimer = setTimeout(() => void this.lifecycle.shutdown(`no client for ${this.idleMs} ms`), this.idleMs);
  }

  private stop(params: unknown, self: Client | undefined): { stopping: boolean; clients: number; pid: number } {
    const p = StopParams.safeParse(params ?? {});
    const others = [...this.clients].filter((c) => c !== self).length;
    if (p.success && p.data.if_idle && others > 0) return { stopping: false, clients: others, pid: process.pid };
    // answered first: the reply must leave before the sockets close
    setTimeout(() => void this.lifecycle.shutdown('lspgate daemon stop'), 100);
    return { stopping: true, clients: others, pid: process.pid };
  }

  status(): DaemonStatus {
    const holders = (root: string) => [...this.clients].filter((c) => c.view.workspaces().some((w) => w.root === root)).length;
    const sessions = sessionStatuses(this.core.context.broker);
    const budget = serverMemoryBudgetMb(this.core.context.limits.serverMemoryMb);
    const running = sessions.filter((x) => x.state !== 'evicted' && x.state !== 'stopped');
    return {
      version: packageVersion(),
      pid: process.pid,
      socket: this.socketPath,
      started_at: this.startedAt,
      idle_exit_ms: this.idleMs,
      server_idle_ms: this.sessionIdleMs,
      memory_budget: { limit_bytes: budget.mb * 1024 * 1024, source: budget.source, servers_bytes: running.reduce((a, x) => a + (x.rss_bytes ?? 0), 0) },
      rss_bytes: process.memoryUsage.rss(),
      clients: [...this.clients].map((c) => ({ ...c.status, running_requests: c.running(), queued_requests: c.queue.counts().queued })),
      sessions,
      workspaces: this.core.workspaces().map((w) => ({ id: w.id, root: w.root, clients: holders(w.root) })),
    };
  }

  closeSockets(): void {
    clearTimeout(this.idleTimer);
    for (const s of this.sockets) s.destroy();
  }
}

export function idleMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return positiveIntFromEnv('LSPGATE_DAEMON_IDLE_MS', DEFAULT_IDLE_MS, env);
}

export function sessionIdleMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return positiveIntFromEnv('LSPGATE_DAEMON_SERVER_IDLE_MS', DEFAULT_SESSION_IDLE_MS, env, 0);
}

/** Runs the daemon in this process until stop, idle exit or a signal. */
export async function runDaemon(opts: DaemonOptions = {}): Promise<void> {
  const cacheDir = defaultCacheDir();
  const paths = daemonPaths(cacheDir);
  checkCacheDir(cacheDir);
  ensurePrivateDir(paths.dir);
  await clearStaleSocket(paths.socket);
  const sessionIdleMs = opts.sessionIdleMs ?? sessionIdleMsFromEnv();
  // The daemon's own root is its private directory: no workspace config there, and no client's root.
  const core = await Gateway.create({ root: paths.dir, cacheDir, sessionIdleMs });
  const logger = core.context.logger.child('daemon');
  const slots = opts.callSlots ?? positiveIntFromEnv('LSPGATE_DAEMON_CALLS', DEFAULT_CALL_SLOTS);
  const daemon = new Daemon(
    core,
    paths.socket,
    opts.idleMs ?? idleMsFromEnv(),
    logger,
    opts.tracePerSecond ?? traceLimitFromEnv(),
    new FairScheduler(slots),
    sessionIdleMs,
  );
  const server = net.createServer((socket) => daemon.accept(socket));
  daemon.lifecycle = installLifecycle(core, {
    watchStdin: false,
    logger,
    closeFrontend: () =>
      new Promise<void>((resolve) => {
        daemon.closeSockets();
        server.close(() => resolve());
        removeSocket(paths.socket);
      }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(paths.socket, () => resolve());
  });
  server.on('error', (e) => logger.warn('daemon socket error', e));
  core.provideDaemonStatus(() => daemon.status());
  daemon.armIdle();
  logger.info(
    `lspgate daemon ${packageVersion()} listening on ${paths.socket} (pid ${process.pid}, idle exit ${daemon.idleMs} ms, session idle stop ${sessionIdleMs || 'never'} ms)`,
  );
}

/** A socket file nobody answers on is left from a daemon that died: remove it. One that answers: refuse. */
async function clearStaleSocket(socketPath: string): Promise<void> {
  if (!existsSync(socketPath)) return;
  const alive = await new Promise<boolean>((resolve) => {
    const s = net.connect(socketPath);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
  if (alive) throw new LspgateError('DAEMON_FAILED', `an lspgate daemon already listens on ${socketPath}`, { reason: 'already_running', socket: socketPath });
  removeSocket(socketPath);
}

function removeSocket(socketPath: string): void {
  try {
    unlinkSync(socketPath);
  } catch {
    // already gone
  }
}
