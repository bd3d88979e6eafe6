/**
 * One language-server session: spawn, initialize, readiness, document sync, typed requests with
 * timeouts/cancellation/concurrency, crash handling and restart (a new generation), shutdown.
 * The LspSession contract is in types.ts.
 */
import type { RequestType } from 'vscode-jsonrpc/node';
import {
  DidChangeConfigurationNotification,
  DocumentSymbolRequest,
  InitializedNotification,
  InitializeRequest,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol';

import { type Limits, LimitsSchema, type ServerEntry } from '../config/schema.js';
import { LspgateError } from '../errors/errors.js';
import { createLogger, type Logger } from '../util/logger.js';
import { inBackground } from '../util/work-class.js';
import { requestDocumentUri, withContentModifiedRetry } from './content-modified-retry.js';
import { DiagnosticsFeed } from './diagnostics-feed.js';
import { DocumentSync } from './document-sync.js';
import { documentText, fileUri, uriToPath } from './documents.js';
import { probeFirstReply } from './first-reply-probe.js';
import { Generation, type ProtocolStats, protocolStats } from './generation.js';
import { stopGeneration } from './generation-stop.js';
import { initializeParams } from './initialize-params.js';
import { RestartPolicy } from './restart-policy.js';
import { Semaphore } from './semaphore.js';
import { makeServerTmp, removeServerTmp, tmpEnv } from './server-tmp.js';
import { crashError, failedError, prepareLaunch, startFailedError, stoppedError } from './session-errors.js';
import { sessionInfo, StateListeners } from './session-info.js';
import type { SessionOptions } from './session-options.js';
import { spawnServer } from './spawn.js';
import { withSymlinkExcludes } from './symlink-excludes.js';
import { TimeoutWatch } from './timeout-watch.js';
import type {
  AnyRequestType,
  LspSession,
  OpenDocument,
  PositionEncoding,
  RequestOptions,
  SessionInfo,
  SessionState,
  SyncOptions,
  TraceEvent,
} from './types.js';
import { awaitScan } from './workspace-scan.js';

export type { SessionOptions } from './session-options.js';

export function createSession(entry: ServerEntry, root: string, opts: SessionOptions): Session {
  return new Session(entry, root, opts);
}

export class Session implements LspSession {
  readonly serverId: string;
  private _state: SessionState = 'idle';
  private _generation = 0;
  private gen: Generation | undefined;
  /** The environment the live server was started with (SessionOptions.explainError reads it). */
  private serverEnv: NodeJS.ProcessEnv = process.env;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly docs: DocumentSync;
  /** publishDiagnostics of every generation, matched to document versions (get_diagnostics). */
  readonly diagnostics = new DiagnosticsFeed();
  private readonly stateListeners: StateListeners;
  private traceListener: ((e: TraceEvent) => void) | undefined;
  private readonly slots: Semaphore;
  private readonly policy: RestartPolicy;
  private readonly logger: Logger;
  private readonly limits: Limits;
  private readonly timeouts: TimeoutWatch;
  private crashCount = 0;
  private lastError: string | undefined;
  private startedAt: string | undefined;
  private readyAt: string | undefined;
  private lastStderr: string[] = [];
  /** Last use (request or sync), for the broker's idle shutdown and memory budget. */
  lastUsed = Date.now();
  /** Why the broker started this session, if not for a first request (shown in progress and info). */
  startReason: string | undefined;

  constructor(
    readonly entry: ServerEntry,
    readonly root: string,
    private readonly opts: SessionOptions,
  ) {
    this.serverId = entry.id;
    this.logger = (opts.logger ?? createLogger()).child(`${entry.id}`);
    this.limits = opts.limits ?? LimitsSchema.parse({});
    this.policy = opts.restartPolicy ?? new RestartPolicy(entry.restart.maxCrashes, entry.restart.windowMs);
    this.docs = new DocumentSync(entry, this.logger);
    this.stateListeners = new StateListeners(this.logger);
    this.timeouts = new TimeoutWatch(entry);
    this.slots = new Semaphore(this.limits.perServerConcurrency, 10_000, entry.id);
  }

  /** Looks at the server's vital children first: a cached answer must not hide their death. */
  get state(): SessionState {
    this.checkVital();
    return this._state;
  }
  get generation(): number {
    return this._generation;
  }
  get capabilities(): ServerCapabilities | undefined {
    return this.gen?.capabilities;
  }
  get positionEncoding(): PositionEncoding {
    return this.gen?.positionEncoding ?? 'utf-16';
  }
  /** True while requests run or wait (idle shutdown skips busy sessions). */
  get busy(): boolean {
    return this.slots.inFlight > 0 || this.slots.waiting > 0;
  }
  /** The server's own pid (not its watchdog's), while it runs. */
  get pid(): number | undefined {
    return this.gen?.alive ? this.gen.proc.serverPid() : undefined;
  }
  /** The process group of the server's tree (its reaper, or itself), while it runs. */
  get processGroup(): number | undefined {
    return this.gen?.alive && this.gen.proc.pid > 0 ? this.gen.proc.pid : undefined;
  }
  /** Diagnostics for tests and `.servers`: the live generation's counters. */
  get protocolStats(): ProtocolStats {
    return protocolStats(this.gen);
  }

  // ---------------------------------------------------------------------------------------------
  // lifecycle

  start(): Promise<void> {
    if (this._state === 'failed') return Promise.reject(this.failedError());
    if (this._state === 'stopping' || this._state === 'stopped') {
      return Promise.reject(new LspgateError('SERVER_FAILED', `${this.serverId} at ${this.root} was stopped`, { server: this.serverId, state: this._state }));
    }
    if (this.starting) return this.starting;
    this.checkVital();
    if (this.gen?.alive && (this._state === 'ready' || this._state === 'indexing')) return Promise.resolve();
    this.starting = this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async doStart(): Promise<void> {
    const launch = prepareLaunch(this.entry, { cacheDir: this.opts.cacheDir, root: this.root });
    const { cmd, initOptions } = launch;
    const settings = withSymlinkExcludes(this.entry, launch.settings, this.root, this.logger);
    this._generation++;
    this.timeouts.answered();
    this.setState('starting');
    this.startedAt = new Date().toISOString();
    this.readyAt = undefined;
    const launchEnv = this.opts.launchEnv ? await this.extraEnv({ ...process.env, ...cmd.env }) : {};
    const tmp = makeServerTmp(this.opts.cacheDir);
    this.serverEnv = { ...process.env, ...cmd.env, ...launchEnv };
    const proc = spawnServer({ ...cmd, env: { ...tmpEnv(tmp), ...cmd.env, ...launchEnv } }, { cwd: this.root, logger: this.logger, reaper: this.opts.reaper });
    // the tree is gone (the exit kills the process group): nothing writes to its temp dir any more
    void proc.exited.then(() => removeServerTmp(tmp));
    const gen = new Generation(this._generation, proc, this.entry, {
      logger: this.logger,
      settings,
      root: this.root,
      protocol: this.opts.protocol,
      trace: () => this.traceListener,
      onReadyChange: (ready) => this.onReadyChange(gen, ready),
      onViolation: (reason) => this.reset(gen, reason),
    });
    this.gen = gen;
    this.diagnostics.attach(gen.conn, gen.n);
    void proc.exited.then((info) => this.onExit(gen, info.code, info.signal));
    const rootUri = fileUri(this.root);
    let result: InitializeResult;
    try {
      result = await gen.race(
        gen.conn.sendRequest(InitializeRequest.type, initializeParams(this.root, rootUri, initOptions, { pullDiagnostics: this.entry.pullDiagnostics })),
        this.entry.timeouts.startMs,
        () => new LspgateError('SERVER_START_FAILED', `${this.serverId} did not answer initialize within ${this.entry.timeouts.startMs} ms`),
      );
    } catch (e) {
      return this.startFailed(gen, e);
    }
    gen.capabilities = result.capabilities;
    const enc = result.capabilities.positionEncoding;
    gen.positionEncoding = enc === 'utf-8' || enc === 'utf-32' ? enc : 'utf-16';
    await gen.notify(InitializedNotification.type, {});
    // pyright and gopls read settings on didChangeConfiguration, then pull them via workspace/configuration
    await gen.notify(DidChangeConfigurationNotification.type, { settings });
    gen.readiness.started();
    if (!gen.alive) return this.startFailed(gen, gen.crashError ?? new Error('exited'));
    this.setState(gen.readiness.isReady ? 'ready' : 'indexing');
    if (gen.readiness.isReady) gen.watchVital();
    this.docs.reopenAll(gen);
  }

  /** An unsorted server error about a document, with SessionOptions.explainError's cause when it names one. */
  private async explained(e: unknown, params: unknown): Promise<unknown> {
    if (!(e instanceof LspgateError) || e.code !== 'INTERNAL') return e;
    const lspMessage = e.details?.lspMessage;
    const uri = requestDocumentUri(params);
    if (!this.opts.explainError || typeof lspMessage !== 'string' || !uri?.startsWith('file:')) return e;
    const why = await this.opts.explainError(lspMessage, uriToPath(uri), this.serverEnv).catch(() => undefined);
    return why ? new LspgateError('SERVER_FAILED', why.message, { ...e.details, ...why.details }, { cause: e }) : e;
  }

  /** SessionOptions.launchEnv's variables; none when it fails (the server starts as configured). */
  private async extraEnv(env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
    if (!this.opts.launchEnv) return {};
    const extra = await this.opts.launchEnv(this.root, env).catch((e: unknown) => {
      this.logger.warn(`${this.serverId} at ${this.root}: starting without its extra environment: ${e instanceof Error ? e.message : String(e)}`);
      return {};
    });
    if (this._state === 'stopping' || this._state === 'stopped') throw new LspgateError('CANCELLED', `${this.serverId} was stopped while starting`);
    return extra;
  }

  private startFailed(gen: Generation, e: unknown): never {
    const stopping = this._state === 'stopping' || this._state === 'stopped';
    gen.proc.killTree();
    if (stopping) throw new LspgateError('CANCELLED', `${this.serverId} was stopped while starting`);
    const err = startFailedError(this.serverId, this.root, e, gen.proc.stderr.tail(20));
    if (gen.alive) {
      // a hung initialize: count the crash now, so a retry cannot overlap the dying process
      gen.crashReason = `start failed: ${e instanceof Error ? e.message : String(e)}`;
      this.crashed(gen, null, 'SIGKILL');
    }
    this.lastError = err.message;
    throw err;
  }

  private onReadyChange(gen: Generation, ready: boolean): void {
    if (gen !== this.gen || !gen.alive || this._state === 'starting') return;
    if (ready && this._state === 'indexing') {
      this.readyAt = new Date().toISOString();
      this.setState('ready');
      gen.watchVital();
    } else if (!ready && this._state === 'ready') {
      this.setState('indexing');
    }
  }

  private onExit(gen: Generation, code: number | null, signal: string | null): void {
    if (gen === this.gen) this.lastStderr = gen.proc.stderr.tail(20);
    if (!gen.alive) return; // a reset or stop has already settled it
    this.crashed(gen, code, signal);
  }

  /** The generation is gone: settle its requests, count the crash, decide crashed or failed. */
  private crashed(gen: Generation, code: number | null, signal: string | null): void {
    const tail = gen.proc.stderr.tail(20);
    this.lastStderr = tail;
    const stopping = this._state === 'stopping' || this._state === 'stopped';
    const reason = gen.crashReason ?? `exited with ${signal ? `signal ${signal}` : `code ${code}`}`;
    const err = stopping ? stoppedError(this.serverId) : crashError(this.serverId, this.root, { code, signal, reason, generation: gen.n, stderr: tail });
    gen.die(err);
    if (gen !== this.gen || stopping) return;
    this.crashCount++;
    this.lastError = err.message;
    this.logger.warn(err.message + (tail.length ? `; stderr: ${tail.slice(-5).join(' | ')}` : ''));
    const give = this.policy.recordCrash(reason);
    this.setState(give ? 'failed' : 'crashed');
  }

  /** Kills a generation whose stream or behaviour cannot be trusted; it then restarts on demand. */
  private reset(gen: Generation, reason: string): void {
    if (!gen.alive) return;
    if (this._state === 'stopping' || this._state === 'stopped') return; // the stop kills it anyway
    this.logger.warn(`${this.serverId}: resetting the server: ${reason}`);
    gen.crashReason = reason;
    gen.proc.killTree();
    // at once, not at the exit event: the next request must already go to a new process
    this.crashed(gen, null, 'SIGKILL');
  }

  /** True when the live generation lost a vital child (vital-children.ts): it is then reset. */
  private checkVital(): boolean {
    return this.gen?.alive ? this.gen.checkVital() : false;
  }

  private failedError(): LspgateError {
    return failedError(this.serverId, this.root, this.policy, this.lastStderr);
  }

  async waitReady(budgetMs: number = this.entry.timeouts.readyMs): Promise<'ready' | 'indexing'> {
    const t0 = Date.now();
    await this.start();
    const gen = this.gen!;
    if (gen.readiness.isReady) return 'ready';
    const left = Math.max(0, budgetMs - (Date.now() - t0));
    if (this.entry.readiness.kind === 'first-reply') {
      return probeFirstReply(this.docs.anyIn(gen)?.uri, (uri) =>
        this.request(DocumentSymbolRequest.type, { textDocument: { uri } }, { timeoutMs: Math.max(1, left) }),
      );
    }
    const ok = await gen.readiness.wait(left);
    if (!gen.alive && gen.crashError) throw gen.crashError;
    return ok ? 'ready' : 'indexing';
  }

  stop(): Promise<void> {
    if (!this.stopping) this.stopping = this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    const prev = this._state;
    this.setState('stopping');
    if (this.gen) await stopGeneration(this.gen, this.entry, prev !== 'starting', this.logger);
    this.setState('stopped');
  }

  // ---------------------------------------------------------------------------------------------
  // requests

  request<P, R>(type: AnyRequestType<P, R>, params: P, opts?: RequestOptions): Promise<R> {
    return withContentModifiedRetry(
      () => this.requestOnce<R>(type.method, type as RequestType<P, R, unknown>, params, opts),
      () => this.resyncFor(params),
    );
  }

  requestRaw(method: string, params: unknown, opts?: RequestOptions): Promise<unknown> {
    return this.requestOnce<unknown>(method, undefined, params, opts);
  }

  private async requestOnce<R>(method: string, type: RequestType<unknown, R, unknown> | undefined, params: unknown, opts?: RequestOptions): Promise<R> {
    const timeoutMs = opts?.timeoutMs ?? this.entry.timeouts.requestMs;
    if (opts?.signal?.aborted) throw new LspgateError('CANCELLED', `${method} cancelled`);
    this.lastUsed = Date.now();
    // a (re)start has its own budget (startMs); the request deadline starts once the server runs
    await this.start();
    const deadline = Date.now() + timeoutMs;
    await awaitScan(this.gen!.scan, { serverId: this.serverId, method, deadline, signal: opts?.signal });
    // interactive requests go ahead of background (bulk) work in both queues (semaphore.ts); bulk
    // work run under asBackground (graph building, chunking) is background without saying so here
    const bg = opts?.background ?? inBackground();
    const releaseGlobal = this.opts.globalSlots ? await this.opts.globalSlots.acquire(deadline - Date.now(), opts?.signal, bg) : undefined;
    let release: () => void;
    try {
      release = await this.slots.acquire(deadline - Date.now(), opts?.signal, bg);
    } catch (e) {
      releaseGlobal?.();
      throw e;
    }
    const gen = this.gen!;
    try {
      if (!gen.alive) throw gen.crashError ?? new LspgateError('SERVER_CRASHED', `${this.serverId} is not running`);
      const result = await gen.send<R>(method, type, params, Math.max(1, deadline - Date.now()), opts?.signal, timeoutMs);
      // an answer given while a vital child died is not an answer (tsserver gone: an empty list)
      if (this.checkVital()) throw gen.crashError!;
      this.timeouts.answered();
      if (method === DocumentSymbolRequest.method) gen.readiness.firstReply();
      return result;
    } catch (e) {
      if (e instanceof LspgateError && e.code === 'TIMEOUT' && !e.details?.queued) this.timeouts.timedOut(gen, bg, (reason) => this.reset(gen, reason));
      throw await this.explained(e, params);
    } finally {
      release();
      releaseGlobal?.();
    }
  }

  private async resyncFor(params: unknown): Promise<void> {
    const uri = requestDocumentUri(params);
    if (!uri) return;
    const file = uriToPath(uri);
    if (this.docs.has(file)) await this.syncDocument(file);
  }

  // ---------------------------------------------------------------------------------------------
  // documents

  async syncDocument(absPath: string, text?: string, opts?: SyncOptions): Promise<OpenDocument> {
    this.lastUsed = Date.now();
    const content = documentText(absPath, text, this.limits.maxFileBytes);
    await this.start();
    const doc = this.docs.sync(this.gen!, absPath, content, opts?.newVersion === true);
    this.diagnostics.noteSynced(doc.uri, doc.version, this._generation);
    return doc;
  }

  backgroundUnit<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.slots.unit(work, signal);
  }

  getDocument(absPath: string): OpenDocument | undefined {
    return this.docs.get(absPath);
  }

  closeDocument(absPath: string): Promise<void> {
    return this.docs.close(this.gen, absPath);
  }

  notifyFilesChanged(changes: { path: string; type: 'created' | 'changed' | 'deleted' }[]): void {
    this.docs.filesChanged(this.gen, changes);
  }

  hasCapability(provider: keyof ServerCapabilities): boolean {
    if (this.entry.disabledCapabilities.includes(provider)) return false;
    // registered dynamically when the client says it may (servers.json pullDiagnostics)
    if (provider === 'diagnosticProvider' && this.entry.pullDiagnostics) return true;
    const v = this.gen?.capabilities?.[provider];
    return v !== undefined && v !== null && v !== false;
  }

  // ---------------------------------------------------------------------------------------------
  // observation

  info(): SessionInfo {
    this.checkVital();
    return sessionInfo({
      serverId: this.serverId,
      root: this.root,
      state: this._state,
      generation: this._generation,
      crashes: this.crashCount,
      openDocuments: this.docs.size,
      progress: this.gen?.alive ? this.gen.readiness.openTitles() : [],
      pid: this.pid,
      lastError: this.lastError !== undefined && this._state === 'failed' ? this.failedError().message : this.lastError,
      startedAt: this.startedAt,
      readyAt: this.readyAt,
      startReason: this.startReason,
    });
  }

  stderrTail(): string[] {
    return this.gen ? this.gen.proc.stderr.tail() : this.lastStderr;
  }

  onTrace(listener: ((e: TraceEvent) => void) | undefined): void {
    this.traceListener = listener;
  }

  onStateChange(listener: (state: SessionState, info: SessionInfo) => void): () => void {
    return this.stateListeners.add(listener);
  }

  private setState(s: SessionState): void {
    if (this._state === s) return;
    if (s === 'ready' && !this.readyAt) this.readyAt = new Date().toISOString();
    this._state = s;
    this.stateListeners.emit(s, this.info());
  }
}
