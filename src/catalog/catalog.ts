/**
 * The symbol catalog of one workspace (issue 4 part 3): documentSymbol of every file that passes
 * the file-safety pipeline, flattened with stable ids, persisted with file hashes so a restart
 * re-asks only changed files, kept fresh by a watcher and by a stat check on every answer.
 */
import { statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { DocumentSymbolRequest } from 'vscode-languageserver-protocol';
import { CachedSession } from '../cache/cached-session.js';
import { noteFileAccess } from '../cache/operation-cache.js';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import type { GatewayContext, Workspace } from '../gateway/types.js';
import type { LimitHit } from '../schema/meta.js';
import type { Logger } from '../util/logger.js';
import { isInside, resolveInWorkspace, toRelative } from '../util/paths.js';
import { declarationsOnly, interpretFile } from './adapter-bridge.js';
import { FileFilter, type SkipReason } from './file-filter.js';
import { flattenSymbols, sha256, toDocumentSymbols } from './flatten.js';
import { Limiter } from './limiter.js';
import { decodeUtf8 } from '../util/utf8-text.js';
import { SourceText } from './source-text.js';
import { deleteSnapshot, INDEX_VERSION, loadSnapshot, saveSnapshot, snapshotPath, type FileEntry, type Snapshot } from './store.js';
import { SymbolIndex } from './symbol-index.js';
import type { Catalog, CatalogStatus, CatalogSymbol, SymbolFilter } from './types.js';
import { walkWorkspace, type WalkedFile } from './walk.js';
import { DirectoryWatcher } from './watcher.js';

export interface CatalogOptions {
  extraIgnore?: string[];
  followSymlinks?: boolean;
  /** Watch the workspace for changes (default true). */
  watch?: boolean;
}

type FileError = { file: string; code: string; message: string };

export class WorkspaceCatalog implements Catalog {
  readonly index = new SymbolIndex();
  readonly snapshotFile: string;
  /** Symbols (id → content hash) as of the last load or build: detect_drift's reference. */
  baseline = new Map<string, string>();
  baselineAt: string | undefined;
  skipped: Partial<Record<SkipReason, number>> = {};
  limitsHit: LimitHit[] = [];
  private options: CatalogOptions = {};
  private filter: FileFilter;
  private state: CatalogStatus['state'] = 'empty';
  private readonly errors = new Map<string, FileError>();
  private building: Promise<CatalogStatus> | undefined;
  private indexedAt: string | undefined;
  private gitHead = '';
  private loaded = false;
  private saveTimer: NodeJS.Timeout | undefined;
  private readonly limiters = new Map<string, Limiter>();
  private readonly inflight = new Map<string, Promise<FileEntry>>();
  private watcher: DirectoryWatcher | undefined;
  private readonly logger: Logger;
  private readonly workspace: Workspace;

  constructor(readonly base: { root: string; id: string; gateway: GatewayContext }) {
    this.snapshotFile = snapshotPath(base.gateway.cacheDir, base.id);
    this.logger = base.gateway.logger.child(`catalog:${base.id}`);
    this.filter = this.makeFilter();
    this.workspace = { ...base, catalog: this };
  }

  get root(): string {
    return this.base.root;
  }

  /** Bumped whenever a file is re-cataloged or removed. */
  get version(): number {
    return this.index.version;
  }

  /** Whether changes on disk reach the catalog and the servers (after the first build). */
  get watching(): boolean {
    return this.watcher !== undefined;
  }

  /** Changes the walk's options (index_folder); a different walk drops the cataloged set. */
  configure(opts: CatalogOptions): void {
    const same = JSON.stringify(opts.extraIgnore ?? []) === JSON.stringify(this.options.extraIgnore ?? []) && !!opts.followSymlinks === !!this.options.followSymlinks;
    this.options = { ...this.options, ...opts };
    if (!same) this.filter = this.makeFilter();
  }

  /** Patterns index_folder added (search_text walks with them too). */
  get extraIgnore(): string[] {
    return this.options.extraIgnore ?? [];
  }

  extensions(): Set<string> {
    return new Set(this.base.gateway.servers.filter((s) => s.enabled).flatMap((s) => s.extensions.map((e) => e.toLowerCase())));
  }

  private makeFilter(): FileFilter {
    return new FileFilter(this.root, { extensions: this.extensions(), extraIgnore: this.options.extraIgnore ?? [] });
  }

  status(): CatalogStatus {
    return {
      state: this.state,
      files: this.index.files.size,
      symbols: this.index.symbolCount(),
      ...(this.indexedAt ? { indexed_at: this.indexedAt } : {}),
      git_head: this.gitHead,
      index_version: INDEX_VERSION,
      errors: [...this.errors.values()].sort((a, b) => a.file.localeCompare(b.file)),
    };
  }

  build(opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {}): Promise<CatalogStatus> {
    this.building ??= this.doBuild(opts).finally(() => (this.building = undefined));
    return this.building;
  }

  private async doBuild(opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void }): Promise<CatalogStatus> {
    this.state = 'building';
    let saved = false;
    try {
      if (!this.loaded) this.loadFromDisk();
      const limits = this.base.gateway.limits;
      // `git rev-parse` is a process spawn (~50-100 ms under load): it runs while files are cataloged,
      // not after them (it was a third of catalog.build on the 11-file fixture).
      const head = readGitHead(this.root);
      const walk = await walkWorkspace(this.root, { maxFileBytes: limits.maxFileBytes, maxFiles: limits.maxFiles, followSymlinks: !!this.options.followSymlinks, signal: opts.signal }, this.filter);
      this.skipped = walk.skipped;
      this.limitsHit = walk.limitsHit;
      const keep = new Set(walk.files.map((f) => f.rel));
      for (const rel of [...this.index.files.keys()]) if (!keep.has(rel)) this.index.removeFile(rel);
      for (const rel of [...this.errors.keys()]) if (!keep.has(rel)) this.errors.delete(rel);
      let done = 0;
      const total = walk.files.length;
      opts.onProgress?.(0, total);
      await Promise.all(
        walk.files.map(async (f) => {
          if (opts.signal?.aborted) throw new LspgateError('CANCELLED', 'cataloging was cancelled');
          await this.refreshFile(f).catch((e: unknown) => this.recordError(f.rel, e));
          opts.onProgress?.(++done, total);
        }),
      );
      this.gitHead = await head;
      this.indexedAt = new Date().toISOString();
      if (this.baseline.size === 0) this.setBaseline();
      this.saveNow();
      saved = true;
      if (this.options.watch !== false) this.startWatching(walk.directories);
    } finally {
      this.state = this.errors.size ? 'partial' : this.indexedAt ? 'ready' : this.index.files.size ? 'partial' : 'empty';
      // A build that stopped half-way still keeps what it cataloged.
      if (!saved) this.scheduleSave();
    }
    return this.status();
  }

  private recordError(rel: string, e: unknown): void {
    const err = toLspgateError(e);
    if (err.code === 'CANCELLED') throw err;
    this.errors.set(rel, { file: rel, code: err.code, message: err.message });
    this.index.removeFile(rel);
  }

  private loadFromDisk(): void {
    this.loaded = true;
    const snap = loadSnapshot(this.snapshotFile, this.root);
    if (!snap) return;
    for (const [rel, entry] of Object.entries(snap.files)) this.index.setFile(rel, entry);
    this.indexedAt = snap.indexed_at;
    this.gitHead = snap.git_head;
    this.setBaseline(snap.indexed_at);
  }

  setBaseline(at = new Date().toISOString()): void {
    this.baseline = this.currentHashes();
    this.baselineAt = at;
  }

  currentHashes(): Map<string, string> {
    const m = new Map<string, string>();
    for (const s of this.index.all()) m.set(s.symbol_id, s.content_hash);
    return m;
  }

  /** Keeps a file's entry if its bytes did not change (mtime+size first, then hash), else re-asks. */
  private async refreshFile(f: { abs: string; rel: string; size?: number; mtimeMs?: number }, force = false): Promise<FileEntry> {
    const entry = this.index.files.get(f.rel);
    if (entry && !force) {
      // Synchronous: this runs on every answer that names a cataloged file (containers of each
      // reference, symbol ids), one after the other; an async stat waits for a thread-pool round
      // trip each time, which under load cost more than the server's own answer (bench profile).
      const st = f.size !== undefined && f.mtimeMs !== undefined ? { size: f.size, mtimeMs: f.mtimeMs } : statSync(f.abs);
      noteFileAccess(f.abs, 'ino' in st ? st : undefined);
      if (st.size === entry.size && st.mtimeMs === entry.mtimeMs) return entry;
      const bytes = await readFile(f.abs);
      if (sha256(bytes) === entry.hash) {
        entry.mtimeMs = st.mtimeMs;
        entry.size = st.size;
        this.scheduleSave();
        return entry;
      }
    }
    return this.catalogFile(f.abs, f.rel);
  }

  /** documentSymbol for one file; concurrent callers of the same file share one request. */
  private catalogFile(abs: string, rel: string): Promise<FileEntry> {
    let p = this.inflight.get(rel);
    if (!p) {
      p = this.askServer(abs, rel).finally(() => this.inflight.delete(rel));
      this.inflight.set(rel, p);
    }
    return p;
  }

  private async askServer(abs: string, rel: string): Promise<FileEntry> {
    const broker = this.base.gateway.broker;
    const route = broker.route(abs, this.root);
    if (!route) throw new LspgateError('UNSUPPORTED_LANGUAGE', `no enabled language server handles ${rel}`, { file: rel });
    const session = await broker.sessionFor(abs, this.root);
    const key = `${session.serverId}@${session.root}`;
    let limiter = this.limiters.get(key);
    if (!limiter) this.limiters.set(key, (limiter = new Limiter(this.base.gateway.limits.perServerConcurrency)));
    return limiter.run(async () => {
      const st = await stat(abs);
      if (st.size > this.base.gateway.limits.maxFileBytes) {
        throw new LspgateError('LIMIT_EXCEEDED', `${rel} is ${st.size} bytes, over maxFileBytes ${this.base.gateway.limits.maxFileBytes}`, { limit: 'maxFileBytes', file: rel });
      }
      const bytes = await readFile(abs);
      decodeUtf8(bytes, rel); // byte offsets must be offsets of the real bytes (utf8-text.ts)
      const source = new SourceText(bytes);
      const wasOpen = session.getDocument(abs) !== undefined;
      const doc = await session.syncDocument(abs, source.text);
      const answer = await this.documentSymbols(session, doc.uri, abs, source.text, !wasOpen);
      // Files opened only to catalog them are closed again: tsserver keeps every open file in memory.
      if (!wasOpen) await session.closeDocument(abs);
      const symbols = declarationsOnly(route.entry.adapter, toDocumentSymbols(answer, source), source.text, session.positionEncoding);
      const info = await interpretFile(
        { absPath: abs, relPath: rel, uri: doc.uri, languageId: route.languageId, adapterName: route.entry.adapter, text: source.text, lines: source.lines, symbols, session, workspace: this.workspace },
        this.logger,
      );
      const entry: FileEntry = {
        hash: sha256(bytes),
        size: st.size,
        mtimeMs: st.mtimeMs,
        language: info.language,
        server: session.serverId,
        symbols: flattenSymbols({ file: rel, language: info.language, server: session.serverId, encoding: session.positionEncoding, source, symbols, kindOf: info.kindOf, ...info.pkg }),
      };
      this.errors.delete(rel);
      // A file the walk leaves out (ignored, skipped directory) is answered when asked for by
      // name, but kept out of the index: outlines, search and the snapshot stay the walk's.
      if (this.filter.path(rel) === undefined) {
        this.index.setFile(rel, entry);
        this.scheduleSave();
      }
      return entry;
    });
  }

  /** ContentModified (the file changed while the server answered): re-sync and ask once more. */
  private async documentSymbols(session: Awaited<ReturnType<GatewayContext['broker']['sessionFor']>>, uri: string, abs: string, text: string, transient: boolean) {
    const params = { textDocument: { uri } };
    // A file opened only to catalog it is not kept in the response cache (every file of the
    // workspace would be, for answers an operation may never ask for again).
    const ask = () =>
      transient && session instanceof CachedSession ? session.requestTransient(DocumentSymbolRequest.type, params) : session.request(DocumentSymbolRequest.type, params);
    try {
      return await ask();
    } catch (e) {
      if (!(e instanceof LspgateError) || e.code !== 'CONTENT_MODIFIED') throw e;
      await session.syncDocument(abs, text);
      return ask();
    }
  }

  private async ensureBuilt(): Promise<void> {
    if (this.building) await this.building;
    else if (this.state === 'empty') await this.build();
  }

  /** Makes sure the cataloged answer for `rel` matches the disk; false when the file is gone. */
  private async ensureFresh(rel: string): Promise<boolean> {
    const abs = path.join(this.root, rel);
    try {
      await this.refreshFile({ abs, rel });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        this.removeFile(rel);
        return false;
      }
      this.recordError(rel, e);
      throw toLspgateError(e);
    }
  }

  removeFile(rel: string): void {
    this.index.removeFile(rel);
    this.errors.delete(rel);
    this.scheduleSave();
  }

  async fileSymbols(relPath: string): Promise<CatalogSymbol[]> {
    const abs = resolveInWorkspace(this.root, relPath, { expect: 'file' });
    const rel = toRelative(this.root, abs);
    if (this.building) await this.building;
    const entry = this.index.files.get(rel) ? await this.refreshFile({ abs, rel }) : await this.catalogFile(abs, rel);
    return entry.symbols;
  }

  async lookup(name: string, filter?: SymbolFilter): Promise<CatalogSymbol[]> {
    if (typeof name !== 'string' || name.trim() === '') throw new LspgateError('INVALID_INPUT', 'symbol name must be a non-empty string');
    if (name.length > this.base.gateway.limits.maxQueryLength) {
      throw new LspgateError('INVALID_INPUT', `symbol name is longer than maxQueryLength ${this.base.gateway.limits.maxQueryLength}`);
    }
    await this.ensureBuilt();
    await this.watcher?.settled();
    let hits = this.index.find(name, filter);
    if (hits.length === 0) {
      // "Not found" is the answer a missed watch event would falsify: sweep every file's stat first.
      if (await this.sweep()) hits = this.index.find(name, filter);
      return hits;
    }
    if (await this.freshen(hits.map((h) => h.file))) hits = this.index.find(name, filter);
    return hits;
  }

  /** Stats every cataloged file (mtime+size) and re-catalogs the changed ones; true when one was. */
  async sweep(): Promise<boolean> {
    const rels = [...this.index.files.keys()];
    let changed = false;
    for (let i = 0; i < rels.length; i += 64) {
      const batch = rels.slice(i, i + 64);
      const before = batch.map((r) => this.index.files.get(r));
      // A file that fails is recorded in status().errors by ensureFresh; the sweep goes on.
      await Promise.all(batch.map((r) => this.ensureFresh(r).catch(() => undefined)));
      if (batch.some((r, k) => this.index.files.get(r) !== before[k])) changed = true;
    }
    return changed;
  }

  async byId(symbolId: string): Promise<CatalogSymbol | undefined> {
    if (typeof symbolId !== 'string' || !symbolId.includes('::')) {
      throw new LspgateError('INVALID_INPUT', `not a symbol id (expected path::Qualified.name#kind): ${String(symbolId).slice(0, 200)}`);
    }
    const file = symbolId.slice(0, symbolId.indexOf('::'));
    // The id's path is caller input: it must resolve inside the workspace and not be secret.
    const abs = resolveInWorkspace(this.root, file, { mustExist: false });
    const rel = toRelative(this.root, abs);
    await this.ensureBuilt();
    if (this.index.files.has(rel)) {
      if (!(await this.ensureFresh(rel))) return undefined;
    } else {
      const exists = await stat(abs).then((s) => s.isFile(), () => false);
      if (!exists || !this.extensions().has(path.extname(rel).toLowerCase())) return undefined;
      await this.catalogFile(abs, rel);
    }
    return this.index.byId(rel === file ? symbolId : rel + symbolId.slice(file.length));
  }

  /** The cataloged symbol without a freshness check (get_symbol's verify compares it to the disk). */
  async peek(symbolId: string): Promise<CatalogSymbol | undefined> {
    await this.ensureBuilt();
    return this.index.byId(symbolId);
  }

  /** Re-catalogs any of `files` that changed on disk; true when one did. */
  async freshen(files: Iterable<string>): Promise<boolean> {
    let changed = false;
    for (const rel of new Set(files)) {
      const before = this.index.files.get(rel);
      await this.ensureFresh(rel);
      if (this.index.files.get(rel) !== before) changed = true;
    }
    return changed;
  }

  /** Symbols added, removed and modified (by content hash) since the baseline; `reset` moves it. */
  async drift(reset = false): Promise<{ added: string[]; removed: string[]; modified: string[]; since: string | undefined }> {
    await this.refresh();
    const now = this.currentHashes();
    const added: string[] = [];
    const modified: string[] = [];
    for (const [id, hash] of now) {
      const before = this.baseline.get(id);
      if (before === undefined) added.push(id);
      else if (before !== hash) modified.push(id);
    }
    const removed = [...this.baseline.keys()].filter((id) => !now.has(id));
    const since = this.baselineAt;
    if (reset) this.setBaseline();
    return { added: added.sort(), removed: removed.sort(), modified: modified.sort(), since };
  }

  async all(): Promise<CatalogSymbol[]> {
    await this.ensureBuilt();
    return [...this.index.files.keys()].sort().flatMap((rel) => [...this.index.files.get(rel)!.symbols].sort((a, b) => a.byte_offset - b.byte_offset));
  }

  async refresh(relPaths?: string[]): Promise<{ refreshed: string[]; errors: FileError[] }> {
    const refreshed: string[] = [];
    const errors: FileError[] = [];
    if (!relPaths) {
      const before = new Map([...this.index.files].map(([rel, e]) => [rel, e.hash]));
      const status = await this.build();
      for (const [rel, e] of this.index.files) if (before.get(rel) !== e.hash) refreshed.push(rel);
      for (const rel of before.keys()) if (!this.index.files.has(rel)) refreshed.push(rel);
      return { refreshed: refreshed.sort(), errors: status.errors };
    }
    for (const p of relPaths) {
      let rel = p;
      try {
        const abs = resolveInWorkspace(this.root, p, { mustExist: false });
        rel = toRelative(this.root, abs);
        const exists = await stat(abs).then((s) => s.isFile(), () => false);
        if (!exists) this.removeFile(rel);
        else {
          await this.catalogFile(abs, rel);
          this.notifyServers([{ path: abs, type: 'changed' }]);
        }
        refreshed.push(rel);
      } catch (e) {
        const err = toLspgateError(e);
        errors.push({ file: rel, code: err.code, message: err.message });
      }
    }
    return { refreshed, errors };
  }

  /** Drops everything cataloged, in memory and on disk (invalidate_cache). */
  async invalidate(): Promise<void> {
    if (this.building) await this.building.catch(() => undefined);
    this.index.clear();
    this.errors.clear();
    this.baseline = new Map();
    this.baselineAt = undefined;
    this.state = 'empty';
    this.indexedAt = undefined;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    deleteSnapshot(this.snapshotFile);
  }

  private notifyServers(changes: { path: string; type: 'created' | 'changed' | 'deleted' }[]): void {
    for (const session of this.base.gateway.broker.existing()) {
      const mine = changes.filter((c) => isInside(session.root, c.path) && session.entry.extensions.includes(path.extname(c.path)));
      if (!mine.length) continue;
      session.notifyFilesChanged(mine);
      // didChangeWatchedFiles does not reach a document the server has open: it keeps answering from
      // the text it was given (tsserver kept a definition's old line after the file was edited on
      // disk, until an operation happened to re-sync that file). Open documents are re-synced.
      for (const c of mine) {
        if (!session.getDocument(c.path)) continue;
        const sync = c.type === 'deleted' ? session.closeDocument(c.path) : session.syncDocument(c.path).then(() => undefined);
        sync.catch((e: unknown) => this.logger.debug(`could not re-sync ${c.path} after a change on disk: ${(e as Error).message}`));
      }
    }
  }

  private startWatching(directories: string[]): void {
    if (this.watcher) return;
    this.watcher = new DirectoryWatcher(this.root, this.filter, (changes) => this.onDiskChanges(changes), this.logger);
    for (const d of directories) this.watcher.add(d);
  }

  private async onDiskChanges(abs: string[]): Promise<void> {
    const notes: { path: string; type: 'created' | 'changed' | 'deleted' }[] = [];
    for (const file of abs) {
      const rel = toRelative(this.root, file);
      if (path.basename(file) === '.gitignore') this.filter.invalidate(path.dirname(rel) === '.' ? '' : path.dirname(rel));
      const st = await stat(file).catch(() => undefined);
      if (!st) {
        this.watcher?.remove(file);
        if (this.index.files.has(rel)) {
          this.removeFile(rel);
          notes.push({ path: file, type: 'deleted' });
        }
        continue;
      }
      if (st.isDirectory()) {
        if (rel !== '' && !this.filter.path(rel, true)) this.watcher?.add(file, true);
        continue;
      }
      if (this.filter.path(rel) || st.size > this.base.gateway.limits.maxFileBytes) continue;
      notes.push({ path: file, type: this.index.files.has(rel) ? 'changed' : 'created' });
      if (this.state === 'empty') continue;
      await this.refreshFile({ abs: file, rel }).catch((e: unknown) => this.recordError(rel, e));
    }
    this.notifyServers(notes);
  }

  private scheduleSave(): void {
    if (this.state === 'empty' && !this.indexedAt) return;
    // A build saves once at its end: a save every 500 ms while it runs serialized the whole
    // catalog-so-far each time (dozens of times on a 500-file workspace, ~17 MB each at the end).
    if (this.state === 'building') return;
    this.saveTimer ??= setTimeout(() => this.saveNow(), 500).unref();
  }

  saveNow(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const snap: Snapshot = {
      index_version: INDEX_VERSION,
      root: this.root,
      indexed_at: this.indexedAt ?? new Date().toISOString(),
      git_head: this.gitHead,
      files: Object.fromEntries(this.index.files),
    };
    try {
      saveSnapshot(this.snapshotFile, snap);
    } catch (e) {
      this.logger.warn(`could not write ${this.snapshotFile}`, e);
    }
  }

  /** Resolves once every file change seen by the watcher so far is cataloged. */
  async settled(): Promise<void> {
    await this.watcher?.settled();
  }

  async close(): Promise<void> {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.building) await this.building.catch(() => undefined);
    if (this.saveTimer) this.saveNow();
  }
}

async function readGitHead(root: string): Promise<string> {
  const r = await execa('git', ['rev-parse', 'HEAD'], { cwd: root, reject: false, timeout: 5000 });
  return r.exitCode === 0 ? String(r.stdout).trim() : '';
}

export function createCatalog(base: { root: string; id: string; gateway: GatewayContext }): Catalog {
  return new WorkspaceCatalog(base);
}

/** The concrete catalog behind a workspace (repository operations need more than the contract). */
export function catalogOf(ws: Workspace): WorkspaceCatalog {
  if (!(ws.catalog instanceof WorkspaceCatalog)) throw new LspgateError('INTERNAL', 'workspace catalog is not a WorkspaceCatalog');
  return ws.catalog;
}

export type { WalkedFile };
