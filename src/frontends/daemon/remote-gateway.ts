/**
 * The front-ends' gateway when attached to `lspgate daemon`: every operation is forwarded over
 * the daemon's socket as the sidecar's JSON-RPC; `$/progress` notifications come back to the
 * caller's progress callback by token; an aborted signal sends `$/cancelRequest` for that call
 * only. Operations are listed from this process's own registry (the daemon runs the same
 * version: attach refuses another).
 */
import { realpathSync } from 'node:fs';
import type net from 'node:net';
import {
  CancellationTokenSource,
  createMessageConnection,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { ERROR_CODES, LspgateError, type ErrorCode } from '../../errors/errors.js';
import type { RunOptions, RunResult } from '../../operations/runner.js';
import { operations as registry } from '../../operations/registry.js';
import type { Operation, ProgressUpdate } from '../../operations/types.js';
import type { Logger } from '../../util/logger.js';
import type { FrontendGateway } from '../host.js';
import { PROGRESS_TOKEN_PARAM } from '../sidecar/sidecar.js';
import { packageVersion } from '../version.js';
import { ATTACH, STATUS, STOP, type AttachResult, type DaemonStatus } from './protocol.js';

export class RemoteGateway implements FrontendGateway {
  readonly context: FrontendGateway['context'];
  private readonly progress = new Map<number, (p: ProgressUpdate) => void>();
  private nextToken = 1;
  private closed = false;
  private expectClose = false;
  daemonPid = 0;

  private constructor(
    readonly defaultRoot: string,
    private readonly connection: MessageConnection,
    private readonly socket: net.Socket,
    logger: Logger,
    cacheDir: string,
  ) {
    this.context = { logger, cacheDir, servers: [], broker: { existing: () => [], info: () => [] } };
    connection.onNotification('$/progress', (p: { token?: unknown; value?: ProgressUpdate }) => {
      if (typeof p?.token === 'number' && p.value) this.progress.get(p.token)?.(p.value);
    });
    connection.onClose(() => {
      if (!this.closed && !this.expectClose) logger.warn('the lspgate daemon closed the connection');
      // vscode-jsonrpc leaves calls pending on close, for ever: disposing rejects them (DAEMON_FAILED below)
      connection.dispose();
    });
  }

  /** Connects on an open socket (no attach yet). */
  static open(socket: net.Socket, root: string, logger: Logger, cacheDir: string): RemoteGateway {
    const connection = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
    connection.listen();
    return new RemoteGateway(safeReal(root), connection, socket, logger, cacheDir);
  }

  /** The handshake: throws DAEMON_FAILED (details.reason version_skew, with the daemon's client count) on another version. */
  async attach(frontend: string): Promise<AttachResult> {
    const r = await this.request<AttachResult>(ATTACH, { version: packageVersion(), root: this.defaultRoot, frontend, pid: process.pid });
    this.daemonPid = r.pid;
    return r;
  }

  status(): Promise<DaemonStatus> {
    return this.request<DaemonStatus>(STATUS, {});
  }

  async stop(ifIdle = false): Promise<{ stopping: boolean; clients: number }> {
    // the daemon closes this connection as it goes: not a failure to warn about
    this.expectClose = true;
    // a daemon that closes the socket before its answer arrives has stopped all the same
    const gone = new Promise<{ stopping: boolean; clients: number }>((resolve) => this.connection.onClose(() => resolve({ stopping: true, clients: 0 })));
    const asked = this.request<{ stopping: boolean; clients: number }>(STOP, { if_idle: ifIdle }).catch((e: unknown) => {
      if (e instanceof LspgateError && e.details?.reason === 'connection') return gone;
      throw e;
    });
    const r = await Promise.race([asked, gone]);
    if (r.stopping) this.closed = true;
    else this.expectClose = false;
    return r;
  }

  /** One of the daemon's own methods (e.g. the REPL's, repl-protocol.ts), its errors coded. */
  call<T>(method: string, params: unknown): Promise<T> {
    return this.request<T>(method, params);
  }

  onNotification(method: string, handler: (params: unknown) => void): void {
    this.connection.onNotification(method, handler);
  }

  operations(): Operation[] {
    return [...registry];
  }

  async run(name: string, input: unknown, opts: RunOptions = {}): Promise<RunResult> {
    if (opts.signal?.aborted) throw new LspgateError('CANCELLED', 'cancelled before start');
    const params: Record<string, unknown> = { ...((input ?? {}) as Record<string, unknown>) };
    let token: number | undefined;
    if (opts.progress) {
      token = this.nextToken++;
      params[PROGRESS_TOKEN_PARAM] = token;
      this.progress.set(token, opts.progress);
    }
    try {
      return await this.request<RunResult>(name, params, opts.signal);
    } finally {
      if (token !== undefined) this.progress.delete(token);
    }
  }

  private async request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    if (this.closed) throw new LspgateError('DAEMON_FAILED', 'detached from the lspgate daemon', { reason: 'closed' });
    const cts = new CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return (await this.connection.sendRequest(method, params, cts.token)) as T;
    } catch (e) {
      throw fromRpcError(e, method);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }

  async close(): Promise<void> {
    if (this.closed && this.socket.destroyed) return;
    this.closed = true;
    this.connection.dispose();
    this.socket.end();
  }
}

/** The daemon's ResponseError back to the LspgateError it was made from; a lost connection is DAEMON_FAILED. */
function fromRpcError(e: unknown, method: string): LspgateError {
  if (e instanceof ResponseError && e.code === ErrorCodes.PendingResponseRejected) {
    return new LspgateError('DAEMON_FAILED', `${method}: the lspgate daemon closed the connection before answering`, { reason: 'connection' });
  }
  if (e instanceof ResponseError) {
    const data = e.data as { code?: unknown; details?: Record<string, unknown> } | undefined;
    const code = (ERROR_CODES as readonly string[]).includes(String(data?.code)) ? (data!.code as ErrorCode) : 'INTERNAL';
    return new LspgateError(code, e.message, data?.details);
  }
  return new LspgateError('DAEMON_FAILED', `${method}: the lspgate daemon did not answer (${(e as Error)?.message ?? String(e)})`, { reason: 'connection' });
}

function safeReal(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
