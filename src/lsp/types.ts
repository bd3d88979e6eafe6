/**
 * The contract of one language-server session. Implemented in session.ts; everything above the
 * broker talks to a server only through this interface.
 */
import type { RequestType } from 'vscode-jsonrpc';
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type { ProtocolRequestType } from 'vscode-languageserver-protocol';

import type { ServerEntry } from '../config/schema.js';
import type { DiagnosticsFeed } from './diagnostics-feed.js';

/**
 * idle → starting → indexing → ready; any → crashed (process died; the broker may restart it);
 * crashed too often → failed (final); stop() → stopping → stopped. `evicted` is never a session's
 * own state: the broker reports it for a session it shut down under the memory budget (the next
 * request starts a new one).
 */
export type SessionState = 'idle' | 'starting' | 'indexing' | 'ready' | 'stopping' | 'stopped' | 'crashed' | 'failed' | 'evicted';

export type PositionEncoding = 'utf-16' | 'utf-8' | 'utf-32';

export interface OpenDocument {
  /** Absolute real path on disk. */
  path: string;
  uri: string;
  languageId: string;
  /** Increases with every didChange sent, and across a close and re-open: never reused. */
  version: number;
  /** The version the document was last opened with (didOpen): every server publishes on open. */
  openedVersion?: number;
  text: string;
  /** sha256 of `text` (hex). */
  hash: string;
}

export interface SyncOptions {
  newVersion?: boolean;
  /**
   * The file may lie outside the server's project (a callers walk opening the files that spell a
   * name): open, it can add to the server's workspace-wide answers even where merely opening a
   * project file cannot (`openInsensitive`), so answers cached before no longer hold.
   */
  widens?: boolean;
}

export interface RequestOptions {
  /** Overrides the entry's `timeouts.requestMs`. */
  timeoutMs?: number;
  /** Aborting sends `$/cancelRequest` and rejects with CANCELLED. */
  signal?: AbortSignal;
  /**
   * Nobody will ask for this answer again (the catalog's documentSymbol of a file it opened only to
   * catalog it): caches in front of the session may coalesce it but do not keep it.
   */
  transient?: boolean;
  /**
   * Bulk work nobody waits for (the catalog build): its timeouts do not count toward declaring the
   * server hung — a flood of our own requests slowing a cold server is not the server's failure.
   * Default: whether the request is made under `asBackground` (src/util/work-class.ts: import-graph
   * and call-edge building, chunking, embedding).
   */
  background?: boolean;
  /**
   * The caller never changes the answer: a cache in front of the session may hand out the answer
   * it keeps (deep-frozen) instead of a copy of it.
   */
  readOnly?: boolean;
}

export interface TraceEvent {
  direction: 'send' | 'receive';
  kind: 'request' | 'response' | 'notification' | 'error';
  method?: string;
  id?: number | string;
  /** ms from send to response, on responses. */
  durationMs?: number;
  payload?: unknown;
}

export interface SessionInfo {
  serverId: string;
  root: string;
  state: SessionState;
  pid?: number;
  generation: number;
  crashes: number;
  openDocuments: number;
  /** Titles of `$/progress` operations still open (indexing). */
  progress: string[];
  lastError?: string;
  startedAt?: string;
  readyAt?: string;
  /** Resident memory of the server's whole process tree, when the broker measured it. */
  rssBytes?: number;
  /** Why this session (re)started, when not simply for a first request (e.g. after an eviction). */
  startReason?: string;
  /** Why the broker stopped it by itself (unused for its idle time, over the memory budget). */
  stopReason?: string;
}

/** Any typed request from vscode-languageserver-protocol (`XxxRequest.type`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRequestType<P, R> = RequestType<P, R, any> | ProtocolRequestType<P, R, any, any, any>;

export interface LspSession {
  readonly serverId: string;
  readonly entry: ServerEntry;
  /** Absolute real path of the project root this server was started at. */
  readonly root: string;
  readonly state: SessionState;
  /** 1 for the first process; +1 on every restart. Caches key on it. */
  readonly generation: number;
  readonly capabilities: ServerCapabilities | undefined;
  readonly positionEncoding: PositionEncoding;
  readonly pid: number | undefined;
  /** Diagnostics the server pushed (publishDiagnostics), per document version; absent in test doubles. */
  readonly diagnostics?: DiagnosticsFeed;

  /** Spawns and initializes (idempotent; concurrent callers share one start). */
  start(): Promise<void>;
  /** 'ready' once indexing ended; 'indexing' if `budgetMs` (default: entry readyMs) ran out first. */
  waitReady(budgetMs?: number): Promise<'ready' | 'indexing'>;
  /**
   * A typed request. Rejects with LspgateError: TIMEOUT (after sending $/cancelRequest),
   * CANCELLED, SERVER_CRASHED (process exited while pending), CONTENT_MODIFIED
   * (ContentModified / ServerCancelled), NOT_SUPPORTED (MethodNotFound), INTERNAL (other RPC errors,
   * with the LSP error code in details.lspCode).
   */
  request<P, R>(type: AnyRequestType<P, R>, params: P, opts?: RequestOptions): Promise<R>;
  /** A raw request by method name, for the REPL's `.raw` only. */
  requestRaw(method: string, params: unknown, opts?: RequestOptions): Promise<unknown>;
  /**
   * Opens the file (didOpen) or, when its content on disk (or `text`) differs from what the server
   * has, sends didChange with the next version. Returns the document as the server now sees it.
   * `newVersion`: an open document whose content is the same is sent again as the next version
   * (didChange with the same text), so that a push server publishes for the state it has now.
   */
  syncDocument(absPath: string, text?: string, opts?: SyncOptions): Promise<OpenDocument>;
  /**
   * Runs one unit of bulk work (open → request → close of a file) once background work may start:
   * held while interactive requests run, wait or ended a moment ago, except one unit at a time
   * (src/lsp/semaphore.ts).
   */
  backgroundUnit<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** The document as last synced, if open. */
  getDocument(absPath: string): OpenDocument | undefined;
  closeDocument(absPath: string): Promise<void>;
  /** Sends workspace/didChangeWatchedFiles for files changed on disk (created/changed/deleted). */
  notifyFilesChanged(changes: { path: string; type: 'created' | 'changed' | 'deleted' }[]): void;
  /** True when the server advertises the provider and servers.json does not disable it. */
  hasCapability(provider: keyof ServerCapabilities): boolean;
  info(): SessionInfo;
  /** Last lines of the server's stderr (bounded). */
  stderrTail(): string[];
  onTrace(listener: ((e: TraceEvent) => void) | undefined): void;
  onStateChange(listener: (state: SessionState, info: SessionInfo) => void): () => void;
  /** shutdown + exit raced against timeouts.shutdownMs, then the process tree is killed. */
  stop(): Promise<void>;
}
