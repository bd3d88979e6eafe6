/**
 * One server process and its connection (a session's "generation"). When the process exits,
 * `die()` settles every pending request at once with the crash error.
 */
import {
  CancellationTokenSource,
  createMessageConnection,
  type MessageConnection,
  type RequestType,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import type { ServerCapabilities, WorkspaceFolder } from 'vscode-languageserver-protocol';

import type { ServerEntry } from '../config/schema.js';
import { LspgateError } from '../errors/errors.js';
import type { Logger } from '../util/logger.js';
import { registerClientHandlers } from './client-handlers.js';
import { fileUri } from './documents.js';
import { FrameGuard } from './frame-guard.js';
import { MessageTap } from './message-tap.js';
import { ReadinessTracker } from './readiness.js';
import { fromResponseError, isResponseError, isTransportError } from './rpc-errors.js';
import type { ServerProcess } from './spawn.js';
import type { PositionEncoding, TraceEvent } from './types.js';
import { stoppedInGroup, VitalChildren } from './vital-children.js';
import { WorkspaceScan } from './workspace-scan.js';

export interface ProtocolOptions {
  /** Largest Content-Length accepted from a server (default 64 MiB). */
  maxMessageBytes?: number;
  /** A message body incomplete for this long resets the server (default 30 s). */
  partialFrameMs?: number;
  /** Notifications per second above which further ones are dropped (default 2000). */
  maxNotificationsPerSec?: number;
}

/** Diagnostics for tests and `.servers`: the live generation's counters. */
export interface ProtocolStats {
  droppedNotifications: number;
  receivedMessages: number;
  readErrors: number;
  serverRequests: Record<string, number>;
}

export function protocolStats(g: Generation | undefined): ProtocolStats {
  return {
    droppedNotifications: g?.tap.dropped ?? 0,
    receivedMessages: g?.tap.received ?? 0,
    readErrors: g?.readErrors ?? 0,
    serverRequests: Object.fromEntries(g?.serverRequests ?? []),
  };
}

export interface GenerationContext {
  logger: Logger;
  settings: Record<string, unknown>;
  root: string;
  protocol: ProtocolOptions | undefined;
  trace: () => ((e: TraceEvent) => void) | undefined;
  onReadyChange: (ready: boolean) => void;
  onViolation: (reason: string) => void;
}

export class Generation {
  readonly conn: MessageConnection;
  readonly tap: MessageTap;
  readonly readiness: ReadinessTracker;
  /** Whether the server has found its project's files (workspace-scan.ts). */
  readonly scan: WorkspaceScan;
  capabilities: ServerCapabilities | undefined;
  positionEncoding: PositionEncoding = 'utf-16';
  alive = true;
  crashReason: string | undefined;
  crashError: LspgateError | undefined;
  readErrors = 0;
  readonly serverRequests = new Map<string, number>();
  readonly vital: VitalChildren;
  private readonly onLost: (reason: string) => void;
  /**
   * Whoever waits for this process's death: each request while it runs, and only then. Not one
   * promise every request races against: Promise.race leaves a reaction on each input that holds the
   * race's resolving functions, so a promise settling only at the process's death kept every answer
   * the server ever gave alive until then (the DocumentSymbol trees of a whole catalog, ~4 MB of
   * heap on 493 files, and more with every call).
   */
  private readonly deathWaiters = new Set<(e: LspgateError) => void>();

  constructor(
    readonly n: number,
    readonly proc: ServerProcess,
    private readonly entry: ServerEntry,
    ctx: GenerationContext,
  ) {
    this.vital = new VitalChildren(proc.pid, entry.vitalChildren);
    this.onLost = ctx.onViolation;
    this.readiness = new ReadinessTracker(entry.readiness, ctx.onReadyChange);
    this.scan = new WorkspaceScan(entry.workspaceScan?.logPattern);
    const guard = new FrameGuard({
      maxMessageBytes: ctx.protocol?.maxMessageBytes ?? 64 * 1024 * 1024,
      partialFrameMs: ctx.protocol?.partialFrameMs ?? 30_000,
      onViolation: (reason) => ctx.onViolation(`protocol violation on stdout: ${reason}`),
    });
    proc.stdout.pipe(guard);
    const readinessMethods = new Set<string>();
    if (entry.readiness.kind === 'notification') {
      readinessMethods.add(entry.readiness.method);
      if (entry.readiness.startMethod) readinessMethods.add(entry.readiness.startMethod);
    }
    this.tap = new MessageTap({
      trace: ctx.trace,
      maxNotificationsPerSec: ctx.protocol?.maxNotificationsPerSec ?? 2000,
      // progress "end" and readiness notifications decide readiness: never dropped
      keep: (m) =>
        readinessMethods.has(m.method) ||
        (m.method === '$/progress' && (m.params as { value?: { kind?: string } })?.value?.kind !== 'report') ||
        (m.method === 'window/logMessage' && this.scan.matches(String((m.params as { message?: unknown })?.message ?? ''))),
    });
    const log = ctx.logger;
    this.conn = createMessageConnection(this.tap.reader(new StreamMessageReader(guard)), this.tap.writer(new StreamMessageWriter(proc.stdin)), {
      error: (m) => log.debug(`jsonrpc: ${m}`),
      warn: (m) => log.debug(`jsonrpc: ${m}`),
      info: (m) => log.debug(`jsonrpc: ${m}`),
      log: (m) => log.debug(`jsonrpc: ${m}`),
    });
    const folders: WorkspaceFolder[] = [{ uri: fileUri(ctx.root), name: ctx.root.split('/').pop() || ctx.root }];
    registerClientHandlers(this.conn, {
      settings: ctx.settings,
      folders,
      logger: log,
      onServerRequest: (m) => this.serverRequests.set(m, (this.serverRequests.get(m) ?? 0) + 1),
      onLog: (message) => this.scan.log(message),
    });
    // $/progress never reaches generic onNotification handlers in vscode-jsonrpc.
    this.conn.onUnhandledProgress((p) => this.readiness.progress(p.token, p.value));
    for (const m of readinessMethods) this.conn.onNotification(m, () => this.readiness.notification(m));
    // A framed message that is not JSON: the framing is intact (FrameGuard checked it), so the
    // message is dropped and counted; whatever request it answered runs into its timeout.
    this.conn.onError(([err]) => {
      this.readErrors++;
      log.debug(`unreadable message from ${entry.id}: ${err.message}`);
    });
    this.conn.listen();
  }

  /** Once ready, the server's vital children are known; their death resets (kills) the server. */
  watchVital(): void {
    const missing = this.vital.capture();
    if (missing) return this.onLost(`no child process matching ${missing.pattern} once ready`);
    this.vital.watch(() => this.checkVital());
  }

  /** True when a vital child is gone (the generation is then reset through onViolation). */
  checkVital(): boolean {
    const d = this.alive ? this.vital.firstDead() : undefined;
    if (d) this.onLost(`its child process ${d.pid} (${d.pattern}) exited`);
    return d !== undefined;
  }

  /** Why the live generation cannot answer when one of its processes is stopped (vital-children.ts), else undefined. */
  stoppedReason(): string | undefined {
    if (!this.alive || !(this.proc.pid > 0)) return undefined;
    const s = stoppedInGroup(this.proc.pid);
    return s ? `its process ${s.pid} (${s.cmd.slice(0, 120) || 'exited'}) is stopped (state T): it answers nothing` : undefined;
  }

  /** Settles every pending request with `err` and releases the connection. */
  die(err: LspgateError): void {
    if (!this.alive && this.crashError) return;
    this.alive = false;
    this.crashError = err;
    this.vital.stop();
    for (const fail of this.deathWaiters) fail(err);
    this.deathWaiters.clear();
    this.readiness.dispose();
    this.scan.dispose();
    try {
      this.conn.dispose();
    } catch {
      // disposing a connection whose stream already failed may throw; it is gone either way
    }
  }

  /** A notification; a closed connection (the process is exiting) is SERVER_CRASHED. */
  async notify<P>(type: { readonly method: string }, params?: P): Promise<void> {
    try {
      // by method name: the protocol's NotificationType0/1 classes do not unify under one generic
      await (params === undefined ? this.conn.sendNotification(type.method) : this.conn.sendNotification(type.method, params));
    } catch (e) {
      throw this.lost(e);
    }
  }

  /**
   * The stream to the server failed (EPIPE, a destroyed stream): nothing more can be said to this
   * process, so it is reset (killed, counted as a crash) and the caller gets SERVER_CRASHED — the
   * exit event may come a moment later, and until then the error was INTERNAL.
   */
  private lost(e: unknown): LspgateError {
    if (this.alive) this.onLost(`connection to the server lost (${(e as Error).message})`);
    return this.lostError(e);
  }

  /**
   * vscode-jsonrpc throws "Connection is closed" once the server's stdout ended, which can be a
   * moment before the process's exit is reported: that is the crash, not an internal error.
   */
  lostError(e: unknown): LspgateError {
    if (this.crashError) return this.crashError;
    return new LspgateError('SERVER_CRASHED', `${this.entry.id} closed its connection (${(e as Error).message})`, {
      server: this.entry.id,
      reason: 'connection closed',
      generation: this.n,
    });
  }

  /** Rejects with the crash when the process dies (at once if it has); `release` once no longer waiting. */
  private untilDead(): { dead: Promise<never>; release: () => void } {
    let fail!: (e: LspgateError) => void;
    const dead = new Promise<never>((_, reject) => (fail = reject));
    dead.catch(() => undefined); // observed through the caller's race; never unhandled
    if (!this.alive && this.crashError) fail(this.crashError);
    else this.deathWaiters.add(fail);
    return { dead, release: () => this.deathWaiters.delete(fail) };
  }

  /** `p` raced against the process's death and a deadline. */
  race<T>(p: Promise<T>, ms: number, onTimeout: () => LspgateError): Promise<T> {
    p.catch(() => undefined); // settled through the race below
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), ms);
    });
    const { dead, release } = this.untilDead();
    return Promise.race([p, dead, timeout]).finally(() => {
      clearTimeout(timer);
      release();
    });
  }

  /** A request with deadline and abort; both send `$/cancelRequest` through the token. */
  async send<R>(
    method: string,
    type: RequestType<unknown, R, unknown> | undefined,
    params: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
    /** The caller's full timeout, for the message (timeoutMs is what is left of it). */
    configuredMs = timeoutMs,
  ): Promise<R> {
    const cts = new CancellationTokenSource();
    let sent: Promise<R>;
    try {
      sent = type ? this.conn.sendRequest(type, params, cts.token) : this.conn.sendRequest<R>(method, params, cts.token);
    } catch (e) {
      cts.dispose();
      throw this.lost(e);
    }
    sent.catch(() => undefined); // settled through the race below
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cts.cancel();
        reject(
          new LspgateError('TIMEOUT', `${this.entry.id} did not answer ${method} within ${configuredMs} ms ($/cancelRequest sent)`, {
            server: this.entry.id,
            method,
            timeoutMs: configuredMs,
          }),
        );
      }, timeoutMs);
    });
    const aborted = new Promise<never>((_, reject) => {
      if (!signal) return;
      onAbort = () => {
        cts.cancel();
        reject(new LspgateError('CANCELLED', `${method} cancelled`, { server: this.entry.id, method }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const { dead, release } = this.untilDead();
    try {
      return await Promise.race([sent, timeout, aborted, dead]);
    } catch (e) {
      if (e instanceof LspgateError) throw e;
      // a write to a dead pipe or a disposed connection: the exit handler has (or will have) the real cause
      if (this.crashError) throw this.crashError;
      if (isResponseError(e) && !isTransportError(e)) throw fromResponseError(e, this.entry.id, method);
      throw this.lost(e);
    } finally {
      clearTimeout(timer);
      release();
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}
