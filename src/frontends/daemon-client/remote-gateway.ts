/**
 * The front-ends' gateway when attached to `lspgate daemon`: every operation is forwarded over
 * the daemon's socket as the sidecar's JSON-RPC; `$/progress` notifications come back to the
 * caller's progress callback by token; an aborted signal sends `$/cancelRequest` for that call
 * only. Operations are listed from this process's own registry (the daemon runs the same
 * version: attach refuses another).
 *
 * When the daemon dies (killed, crashed, stopped by someone else), the calls in flight answer
 * DAEMON_FAILED (reason connection) at once; with a dialer (`reconnectWith`, what attachToDaemon
 * sets) the next call dials the daemon again — starting one if none answers — and re-attaches
 * under the same front-end name before it is sent.
 */
import { realpathSync } from 'node:fs';
import type net from 'node:net';

import {
  CancellationTokenSource,
  createMessageConnection,
  ErrorCodes,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

import { ERROR_CODES, type ErrorCode, LspgateError, toLspgateError } from '../../errors/errors.js';
import type { AttachEnvironment } from '../../link/config-env.js';
import { describeJournals, journalSummaries } from '../../link/journals.js';
import { operations as registry } from '../../operations/registry.js';
import type { RunOptions, RunResult } from '../../operations/runner.js';
import type { Operation, ProgressUpdate } from '../../operations/types.js';
import type { Logger } from '../../util/logger.js';
import type { FrontendGateway } from '../host.js';
import { PROGRESS_TOKEN_PARAM } from '../sidecar/sidecar.js';
import { packageVersion } from '../version.js';
import { ATTACH, type AttachResult, type DaemonStatus, STATUS, STOP } from './protocol.js';
import { FILE_CHANGED, type FileChangedNotification, UNWATCH_FILE, WATCH_FILE } from './watch-protocol.js';

/**
 * A call the dying daemon had received may have been an apply: its error says what that daemon's
 * apply journals say was written (the call is never run again; recovery finishes the journals).
 */
function withJournals(e: unknown, cacheDir: string, daemonPid: number): unknown {
  if (!(e instanceof LspgateError) || e.code !== 'DAEMON_FAILED' || e.details?.reason !== 'connection' || e.details.sent === false || !daemonPid) return e;
  const journals = journalSummaries(cacheDir, { pid: daemonPid });
  if (!journals.length) return e;
  return new LspgateError('DAEMON_FAILED', `${e.message}. ${describeJournals(journals)}`, { ...e.details, daemon_pid: daemonPid, journals });
}

/** Connects to the daemon, starting it when none answers (client.ts). */
export type DaemonDialer = () => Promise<net.Socket>;

export class RemoteGateway implements FrontendGateway {
  readonly context: FrontendGateway['context'];
  private readonly progress = new Map<number, (p: ProgressUpdate) => void>();
  private readonly notifications = new Map<string, (params: unknown) => void>();
  /** File watches (watch-protocol.ts) by id: sent again to the daemon after a reconnect. */
  private readonly watches = new Map<number, { workspace: string | undefined; file: string; onChange: () => void }>();
  private nextWatch = 1;
  private nextToken = 1;
  private closed = false;
  private expectClose = false;
  /** The daemon closed the connection unasked: the next call dials again (if it may). */
  private lost = false;
  private relinking: Promise<void> | undefined;
  private dialer: DaemonDialer | undefined;
  private frontend: string | undefined;
  private connection!: MessageConnection;
  private socket!: net.Socket;
  daemonPid = 0;

  private constructor(
    readonly defaultRoot: string,
    socket: net.Socket,
    private readonly logger: Logger,
    cacheDir: string,
  ) {
    this.context = { logger, cacheDir, servers: [], broker: { existing: () => [], info: () => [] } };
    this.bind(socket);
  }

  /** Connects on an open socket (no attach yet). */
  static open(socket: net.Socket, root: string, logger: Logger, cacheDir: string): RemoteGateway {
    return new RemoteGateway(safeReal(root), socket, logger, cacheDir);
  }

  /** A JSON-RPC connection on `socket` becomes the current one. */
  private bind(socket: net.Socket): void {
    const connection = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
    connection.onNotification('$/progress', (p: { token?: unknown; value?: ProgressUpdate }) => {
      if (typeof p?.token === 'number' && p.value) this.progress.get(p.token)?.(p.value);
    });
    for (const [method, handler] of this.notifications) connection.onNotification(method, handler);
    connection.onClose(() => {
      if (!this.closed && !this.expectClose) this.drop(connection);
    });
    connection.listen();
    this.connection = connection;
    this.socket = socket;
    this.lost = false;
  }

  /** The daemon is gone: vscode-jsonrpc leaves the calls in flight pending on close; dispose settles them (DAEMON_FAILED, reason connection). */
  private drop(connection: MessageConnection): void {
    if (connection !== this.connection || this.lost) return;
    this.lost = true;
    this.logger.warn(`the lspgate daemon closed the connection${this.dialer ? '; the next call starts it again' : ''}`);
    connection.dispose();
    this.socket.destroy();
  }

  /** Sent with every attach (src/link/config-env.ts): a daemon whose answers would differ under it refuses (reason env_differs). */
  attachEnv: AttachEnvironment | undefined;

  /** After the daemon is lost, the next call dials it again with `dialer` and re-attaches (attach first). */
  reconnectWith(dialer: DaemonDialer): this {
    this.dialer = dialer;
    return this;
  }

  /** The handshake: throws DAEMON_FAILED (details.reason version_skew, with the daemon's client count) on another version. */
  async attach(frontend: string): Promise<AttachResult> {
    const env = this.attachEnv ? { environment: this.attachEnv } : {};
    const r = await this.send<AttachResult>(ATTACH, { version: packageVersion(), root: this.defaultRoot, frontend, pid: process.pid, ...env });
    this.daemonPid = r.pid;
    this.frontend = frontend;
    return r;
  }

  /** Dials the daemon again (starting it if none answers) and re-attaches; calls arriving meanwhile wait for it. */
  private relink(method: string): Promise<void> {
    if (!this.relinking) {
      const p = this.dialAgain(method);
      this.relinking = p;
      const done = () => {
        if (this.relinking === p) this.relinking = undefined;
      };
      p.then(done, done);
    }
    return this.relinking;
  }

  private async dialAgain(method: string): Promise<void> {
    const { dialer, frontend } = this;
    if (!dialer || frontend === undefined) throw lostConnection(method, 'no reconnect for this connection');
    const before = this.daemonPid;
    try {
      this.bind(await dialer());
      await this.attach(frontend);
      await this.rewatch();
      this.logger.info(`re-attached to the lspgate daemon (pid ${this.daemonPid}; the lost one was pid ${before})`);
    } catch (e) {
      this.lost = true;
      this.connection.dispose();
      this.socket.destroy();
      const err = toLspgateError(e);
      if (err.code === 'DAEMON_FAILED') throw err;
      throw new LspgateError('DAEMON_FAILED', `reconnecting to the lspgate daemon failed: ${err.message}`, { reason: 'reconnect', cause: err.code });
    }
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

  /** A handler for one of the daemon's notifications, kept across reconnects (what it subscribed to is not). */
  onNotification(method: string, handler: (params: unknown) => void): void {
    this.notifications.set(method, handler);
    this.connection.onNotification(method, handler);
  }

  operations(): Operation[] {
    return [...registry];
  }

  async watchFile(workspace: string | undefined, file: string, onChange: () => void): Promise<() => void> {
    if (!this.notifications.has(FILE_CHANGED))
      this.onNotification(FILE_CHANGED, (p) => this.watches.get((p as FileChangedNotification | undefined)?.id ?? -1)?.onChange());
    const id = this.nextWatch++;
    this.watches.set(id, { workspace, file, onChange });
    try {
      await this.request(WATCH_FILE, { id, ...(workspace !== undefined ? { workspace } : {}), file });
    } catch (e) {
      this.watches.delete(id);
      throw e;
    }
    return () => {
      if (!this.watches.delete(id) || this.closed) return;
      this.request(UNWATCH_FILE, { id }).catch((e: unknown) => this.logger.debug('unwatching a file failed', e));
    };
  }

  /** A new daemon knows none of this client's watches: they are asked for again (one it refuses is dropped). */
  private async rewatch(): Promise<void> {
    for (const [id, w] of [...this.watches]) {
      await this.send(WATCH_FILE, { id, ...(w.workspace !== undefined ? { workspace: w.workspace } : {}), file: w.file }).catch((e: unknown) => {
        this.watches.delete(id);
        this.logger.warn(`the file watch on ${w.file} was not renewed after reconnecting: ${(e as Error).message}`);
      });
    }
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
    const pid = this.daemonPid;
    try {
      return await this.request<RunResult>(name, params, opts.signal);
    } catch (e) {
      throw withJournals(e, this.context.cacheDir, pid);
    } finally {
      if (token !== undefined) this.progress.delete(token);
    }
  }

  private async request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    if (this.closed) throw new LspgateError('DAEMON_FAILED', 'detached from the lspgate daemon', { reason: 'closed' });
    for (let attempt = 0; ; attempt++) {
      if (this.relinking) await this.relinking;
      else if (this.lost) await this.relink(method);
      const connection = this.connection;
      try {
        return await this.send<T>(method, params, signal);
      } catch (e) {
        // A daemon that died before this process noticed it: the write failed, so it never saw the
        // call, which goes to the next daemon (once). A call it had received fails (in flight).
        if (attempt > 0 || !(e instanceof LspgateError) || e.details?.sent !== false || !this.dialer) throw e;
        this.drop(connection);
      }
    }
  }

  /** One request on the current connection; a connection lost meanwhile answers DAEMON_FAILED (reason connection). */
  private async send<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    const connection = this.connection;
    const cts = new CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return (await connection.sendRequest(method, params, cts.token)) as T;
    } catch (e) {
      if (e instanceof ResponseError && e.code === ErrorCodes.MessageWriteError) {
        throw new LspgateError('DAEMON_FAILED', `${method}: could not be sent to the lspgate daemon (${e.message})`, { reason: 'connection', sent: false });
      }
      if (this.lost || connection !== this.connection) throw lostConnection(method, 'it exited or was killed');
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

function lostConnection(method: string, why: string): LspgateError {
  return new LspgateError('DAEMON_FAILED', `${method}: the lspgate daemon closed the connection (${why})`, { reason: 'connection' });
}

function safeReal(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
