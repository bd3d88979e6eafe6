/**
 * A drop-in LspSession that answers repeated read-only requests from the ResponseCache and
 * coalesces identical concurrent ones. The broker hands it out instead of the raw session; every
 * document sync must go through it (or another wrapper over the same cache) so that the epoch
 * sees every change.
 */
import { statSync } from 'node:fs';

import type { ServerCapabilities } from 'vscode-languageserver-protocol';

import type { ServerEntry } from '../config/schema.js';
import type { DiagnosticsFeed } from '../lsp/diagnostics-feed.js';
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
} from '../lsp/types.js';
import { noteFileAccess, noteSessionUse, type StampedSession } from '../util/dependency-scope.js';
import { pathOfUri } from '../util/uri.js';
import { type ResponseCache, responseCacheEnabled } from './response-cache.js';

/** Answers that depend only on the text of the requested document. */
const DOCUMENT_LOCAL = new Set(['textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/selectionRange']);

/** Answers that may depend on any file the server knows: keyed by the workspace epoch too. */
const WORKSPACE_WIDE = new Set([
  'textDocument/definition',
  'textDocument/declaration',
  'textDocument/typeDefinition',
  'textDocument/implementation',
  'textDocument/references',
  'textDocument/hover',
  'textDocument/documentHighlight',
  'textDocument/signatureHelp',
  'textDocument/prepareCallHierarchy',
  'callHierarchy/incomingCalls',
  'callHierarchy/outgoingCalls',
  'textDocument/prepareTypeHierarchy',
  'typeHierarchy/supertypes',
  'typeHierarchy/subtypes',
  'workspace/symbol',
]);

export interface CachedSessionOptions {
  /** Default: LSPGATE_RESPONSE_CACHE is not `off`. Off still coalesces identical in-flight requests. */
  store?: boolean;
}

/** What the file on disk looked like when it was last synced from disk. */
interface DiskStamp {
  mtimeMs: number;
  size: number;
  ino: number;
  version: number;
  generation: number;
}

export class CachedSession implements LspSession, StampedSession {
  private readonly scope: string;
  private readonly store: boolean;
  private readonly stamps = new Map<string, DiskStamp>();
  /** Open documents synced with `widens` since their open: the epoch already counts them. */
  private readonly widened = new Set<string>();

  constructor(
    readonly inner: LspSession,
    readonly cache: ResponseCache,
    opts: CachedSessionOptions = {},
  ) {
    this.scope = `${inner.serverId}\u0000${inner.root}`;
    this.store = opts.store ?? responseCacheEnabled();
  }

  get serverId(): string {
    return this.inner.serverId;
  }
  get entry(): ServerEntry {
    return this.inner.entry;
  }
  get root(): string {
    return this.inner.root;
  }
  get state(): SessionState {
    return this.inner.state;
  }
  get generation(): number {
    return this.inner.generation;
  }
  get capabilities(): ServerCapabilities | undefined {
    return this.inner.capabilities;
  }
  get positionEncoding(): PositionEncoding {
    return this.inner.positionEncoding;
  }
  get pid(): number | undefined {
    return this.inner.pid;
  }
  get diagnostics(): DiagnosticsFeed | undefined {
    return this.inner.diagnostics;
  }

  start(): Promise<void> {
    return this.inner.start();
  }
  waitReady(budgetMs?: number): Promise<'ready' | 'indexing'> {
    return this.inner.waitReady(budgetMs);
  }

  /** The response cache's stamp of this server at this root (the operation cache's freshness proof). */
  cacheStamp(): string {
    return this.cache.stamp(this.scope);
  }

  request<P, R>(type: AnyRequestType<P, R>, params: P, opts?: RequestOptions): Promise<R> {
    // A transient answer (500 documentSymbols of files opened only to catalog them were 5.4 MB of a
    // 500-file workspace's cache) is coalesced with identical requests but not stored.
    return this.ask(type, params, opts, this.store && !opts?.transient);
  }

  private ask<P, R>(type: AnyRequestType<P, R>, params: P, opts: RequestOptions | undefined, store: boolean): Promise<R> {
    noteSessionUse(this);
    const key = this.keyFor(type.method, params);
    if (key === undefined) {
      this.cache.noteBypass();
      return this.inner.request(type, params, opts);
    }
    const generation = this.inner.generation;
    const ready = this.inner.state === 'ready';
    if (!ready) {
      // Not ready (starting, indexing, crashed): the server is asked. A crashed session restarts on
      // this request with a new generation; a stored answer of the old one must not stand in for it.
      this.cache.noteBypass();
      return this.inner.request(type, params, opts);
    }
    if (!store) this.cache.noteBypass();
    // Never cache an answer given while indexing (tsserver answers from its syntax-only server
    // before the project is loaded: 7 same-file references instead of 98).
    const storable = () => store && this.inner.state === 'ready' && this.inner.generation === generation;
    const fetch = (signal: AbortSignal) => this.inner.request(type, params, { ...opts, signal });
    return this.cache.getOrFetch(key, storable, fetch, opts?.signal, opts?.readOnly === true);
  }

  requestRaw(method: string, params: unknown, opts?: RequestOptions): Promise<unknown> {
    // The REPL's escape hatch: always the server, never a cached answer.
    return this.inner.requestRaw(method, params, opts);
  }

  async syncDocument(absPath: string, text?: string, opts?: SyncOptions): Promise<OpenDocument> {
    // Every operation syncs each file it touches; re-reading and re-hashing unchanged files was
    // most of a cached answer's time (bench: ~1 ms per file under load). A file whose mtime, size
    // and inode are those of its last sync from disk is the document the server already has.
    noteSessionUse(this);
    const st = text === undefined ? statSync(absPath, { throwIfNoEntry: false }) : undefined;
    // Given text is not the disk's: the operation cache stats the file itself (a later edit on disk
    // still invalidates what was answered from it).
    noteFileAccess(absPath, st);
    // tsserver loads a file outside its project into an inferred project once open: its references
    // grow (0 → 104 on callers-crowd-ts), whoever opened it (a bulk job opens without `widens`)
    const widens = opts?.widens === true && !(this.widened.has(absPath) && this.inner.getDocument(absPath));
    if (widens) {
      this.widened.add(absPath);
      this.cache.bumpEpoch(this.scope);
    }
    if (st && !opts?.newVersion) {
      const fresh = this.unchangedOnDisk(absPath, st);
      if (fresh) return fresh;
    }
    const before = this.inner.getDocument(absPath);
    const doc = await this.inner.syncDocument(absPath, text, opts);
    const changed = before ? before.version !== doc.version || before.hash !== doc.hash : !this.inner.entry.openInsensitive || text !== undefined;
    // bumped again once open: a request that read the old epoch while the open was on its way is not kept
    if (changed || widens) this.cache.bumpEpoch(this.scope);
    // The stat was taken before the session read the file: if it changed in between, the stamp is
    // older than the text and the next sync reads again (never the other way round).
    if (st?.isFile()) this.stamps.set(absPath, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, version: doc.version, generation: this.inner.generation });
    else this.stamps.delete(absPath);
    return doc;
  }

  private unchangedOnDisk(absPath: string, st: { mtimeMs: number; size: number; ino: number; isFile(): boolean }): OpenDocument | undefined {
    const stamp = this.stamps.get(absPath);
    const doc = this.inner.getDocument(absPath);
    const live = this.inner.state === 'ready' || this.inner.state === 'indexing';
    if (!stamp || !doc || !live || !st.isFile()) return undefined;
    const same = st.mtimeMs === stamp.mtimeMs && st.size === stamp.size && st.ino === stamp.ino;
    return same && doc.version === stamp.version && this.inner.generation === stamp.generation ? doc : undefined;
  }

  backgroundUnit<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.inner.backgroundUnit(work, signal);
  }

  getDocument(absPath: string): OpenDocument | undefined {
    const doc = this.inner.getDocument(absPath);
    // An open document is the file as of its last sync from disk, not as it is now: its stamp is
    // that sync's, so an edit on disk since then makes an answer read from it stale.
    const stamp = doc ? this.stamps.get(absPath) : undefined;
    noteFileAccess(absPath, stamp && stamp.version === doc!.version ? stamp : undefined);
    return doc;
  }

  async closeDocument(absPath: string): Promise<void> {
    this.stamps.delete(absPath);
    this.widened.delete(absPath);
    await this.inner.closeDocument(absPath);
    // After didClose the server reads the file from disk again, which may differ from the text it had.
    this.cache.bumpEpoch(this.scope);
  }

  notifyFilesChanged(changes: { path: string; type: 'created' | 'changed' | 'deleted' }[]): void {
    this.inner.notifyFilesChanged(changes);
    if (changes.length > 0) this.cache.bumpEpoch(this.scope);
  }

  hasCapability(provider: keyof ServerCapabilities): boolean {
    return this.inner.hasCapability(provider);
  }
  info(): SessionInfo {
    return this.inner.info();
  }
  stderrTail(): string[] {
    return this.inner.stderrTail();
  }
  onTrace(listener: ((e: TraceEvent) => void) | undefined): void {
    this.inner.onTrace(listener);
  }
  onStateChange(listener: (state: SessionState, info: SessionInfo) => void): () => void {
    return this.inner.onStateChange(listener);
  }
  stop(): Promise<void> {
    return this.inner.stop();
  }

  /**
   * undefined = not cacheable: a method outside the lists, or a document the server has not been
   * given through syncDocument (its content, hence the answer, is unknown to us).
   */
  private keyFor(method: string, params: unknown): string | undefined {
    const local = DOCUMENT_LOCAL.has(method);
    if (!local && !WORKSPACE_WIDE.has(method)) return undefined;
    const uri = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument?.uri;
    let docHash = '';
    if (typeof uri === 'string') {
      const abs = pathOfUri(uri);
      const doc = abs === undefined ? undefined : this.inner.getDocument(abs);
      if (!doc) return undefined;
      docHash = doc.hash;
    } else if (local) {
      return undefined;
    }
    const epoch = local ? '' : this.cache.epochKey(this.scope);
    return JSON.stringify([this.scope, this.inner.generation, method, docHash, epoch, stripTokens(params)]);
  }
}

/** Progress tokens differ per call and say nothing about the answer. */
function stripTokens(params: unknown): unknown {
  if (!params || typeof params !== 'object') return params;
  const { workDoneToken: _w, partialResultToken: _p, ...rest } = params as Record<string, unknown>;
  return rest;
}

/** The broker's hook: wraps a session (idempotent: a CachedSession is returned as is). */
export function createCachedSession(session: LspSession, cache: ResponseCache, opts?: CachedSessionOptions): LspSession {
  if (session instanceof CachedSession) return session;
  return new CachedSession(session, cache, opts);
}

/** The cache behind a session handed out by the broker, if it is a cached one. */
export function cacheOf(session: LspSession): ResponseCache | undefined {
  return session instanceof CachedSession ? session.cache : undefined;
}
