/**
 * The symbol catalog of one workspace: a pure index and store. The files that pass the
 * file-safety pipeline are handed to a FileCataloger (the service's, which asks the language
 * servers), and their entries are indexed with stable ids, persisted with file hashes so a restart
 * re-asks only changed files, kept fresh by a watcher (disk-changes.ts) and by a stat check on
 * every answer (freshness.ts). The catalog itself never talks to a server.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { Limits } from '../config/schema.js';
import type { Catalog, CatalogDrift, CatalogFileError, CatalogStatus, CatalogSymbol, CatalogWalkOptions, FileCataloger, FileChange, FileEntry, ReadOptions, SymbolFilter } from '../core/catalog.js';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import type { LimitHit } from '../schema/meta.js';
import type { Logger } from '../util/logger.js';
import { resolveInWorkspace, toRelative } from '../util/paths.js';
import { DiskChanges } from './disk-changes.js';
import { DriftBaseline } from './drift-baseline.js';
import { FileFilter, type SkipReason } from './file-filter.js';
import { Freshness } from './freshness.js';
import { SnapshotKeeper } from './snapshot-keeper.js';
import { INDEX_VERSION, snapshotPath } from './store.js';
import { SymbolIndex } from './symbol-index.js';
import { SearchTexts } from './search-texts.js';
import { SyntaxEntries, SyntaxTier } from './syntax-tier.js';
import { walkWorkspace, type WalkedFile } from './walk.js';


/** Everything a catalog is given: nothing is reached through a shared context. */
export interface CatalogDeps {
  root: string;
  id: string;
  cacheDir: string;
  logger: Logger;
  limits: Pick<Limits, 'maxFileBytes' | 'maxFiles' | 'maxQueryLength'>;
  cataloger: FileCataloger;
  /** Told of every change on disk the watcher sees (the servers must learn of them too). */
  onFilesChanged?: (changes: FileChange[]) => void;
}

type FileError = CatalogFileError;

const PROGRESS_EVERY_MS = 2000;
/** Failures that may pass: asked once more at the end of a build. */
const RETRIED_CODES = new Set(['TIMEOUT', 'SERVER_CRASHED', 'CONTENT_MODIFIED', 'SERVER_START_FAILED']);
type BuildOptions = { signal?: AbortSignal; onProgress?: (done: number, total: number) => void };

export class WorkspaceCatalog implements Catalog {
  readonly index = new SymbolIndex();
  readonly tier = new SyntaxTier();
  readonly root: string;
  skipped: Partial<Record<SkipReason, number>> = {};
  limitsHit: LimitHit[] = [];
  private options: CatalogWalkOptions = {};
  private filter: FileFilter;
  private state: CatalogStatus['state'] = 'empty';
  private readonly errors = new Map<string, FileError>();
  private building: Promise<CatalogStatus> | undefined;
  /** all()'s ordered list and the index version it was built at. */
  private orderedList: { version: number; list: CatalogSymbol[] } | undefined;
  /** search_symbols' texts, kept in step with the index file by file (search-texts.ts). */
  private texts: SearchTexts | undefined;
  private indexedAt: string | undefined;
  private gitHead = '';
  private loaded = false;
  private readonly inflight = new Map<string, { promise: Promise<FileEntry>; background: boolean }>();
  private readonly logger: Logger;
  private readonly snapshot: SnapshotKeeper;
  private readonly baseline = new DriftBaseline(this.index);
  private readonly freshness: Freshness;
  private readonly disk: DiskChanges;
  /** The syntax tier's work on this catalog: its pass, early entries, changed files. */
  private readonly syntax: SyntaxEntries;

  constructor(private readonly deps: CatalogDeps) {
    this.root = deps.root;
    this.logger = deps.logger.child(`catalog:${deps.id}`);
    this.filter = this.makeFilter();
    const head = () => ({ indexedAt: this.indexedAt, gitHead: this.gitHead, quiet: this.state === 'building' || (this.state === 'empty' && !this.indexedAt) });
    this.snapshot = new SnapshotKeeper(snapshotPath(deps.cacheDir, deps.id), this.root, this.index, head, this.logger);
    const host = {
      root: this.root,
      index: this.index,
      maxFileBytes: deps.limits.maxFileBytes,
      catalogFile: (abs: string, rel: string, background?: boolean) => this.catalogFile(abs, rel, background),
      catalogEarly: (abs: string, rel: string) => this.syntax.early(abs, rel),
      wantsServer: (rel: string, entry: FileEntry) => this.syntax.wantsServer(rel, entry),
      entryTouched: () => this.snapshot.schedule(),
      removeFile: (rel: string) => this.removeFile(rel),
      recordError: (rel: string, e: unknown) => this.recordError(rel, e),
      filter: () => this.filter,
      cataloged: () => this.state !== 'empty',
      refreshFile: (f: { abs: string; rel: string }) => this.syntax.changed(f),
      notify: (changes: FileChange[]) => this.notify(changes),
    };
    this.freshness = new Freshness(host);
    this.disk = new DiskChanges(host, this.logger);
    this.syntax = new SyntaxEntries({
      index: this.index,
      tier: this.tier,
      syntax: deps.cataloger.syntax,
      logger: this.logger,
      admits: (rel) => this.filter.path(rel) === undefined,
      touched: () => this.snapshot.schedule(),
      recordError: (rel, e) => this.recordError(rel, e),
      catalogFile: (abs, rel) => this.catalogFile(abs, rel),
      refreshFile: (f) => this.freshness.refreshFile(f),
    });
  }

  get snapshotFile(): string {
    return this.snapshot.file;
  }

  /** Bumped whenever a file is re-cataloged or removed. */
  get version(): number {
    return this.index.version;
  }

  /** Whether changes on disk reach the catalog and the servers (after the first build). */
  get watching(): boolean {
    return this.disk.watching;
  }

  /** Changes the walk's options (index_folder); a different walk drops the cataloged set. */
  configure(opts: CatalogWalkOptions): void {
    const same = JSON.stringify(opts.extraIgnore ?? []) === JSON.stringify(this.options.extraIgnore ?? []) && !!opts.followSymlinks === !!this.options.followSymlinks;
    this.options = { ...this.options, ...opts };
    if (!same) this.filter = this.makeFilter();
  }

  /** Patterns index_folder added (search_text walks with them too). */
  get extraIgnore(): string[] {
    return this.options.extraIgnore ?? [];
  }

  /** What the walk keeps: files some enabled server catalogs, and files the syntax tier parses. */
  extensions(): Set<string> {
    return new Set([...this.deps.cataloger.extensions(), ...(this.deps.cataloger.syntax?.extensions() ?? [])]);
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
      ...(this.deps.cataloger.syntax ? { tiers: this.tier.status(this.index.files) } : {}),
    };
  }

  build(opts: BuildOptions = {}): Promise<CatalogStatus> {
    this.building ??= this.doBuild(opts).finally(() => (this.building = undefined));
    return this.building;
  }

  private async doBuild(opts: BuildOptions): Promise<CatalogStatus> {
    this.state = 'building';
    this.tier.restart(false);
    let saved = false;
    try {
      if (!this.loaded) this.loadFromDisk();
      // `git rev-parse` is a process spawn (~50-100 ms under load): it runs while files are cataloged,
      // not after them (it was a third of catalog.build on the 11-file fixture).
      const head = readGitHead(this.root);
      const directories = await this.catalogWalk(opts);
      this.gitHead = await head;
      this.indexedAt = new Date().toISOString();
      if (this.baseline.size === 0) this.baseline.set();
      this.snapshot.saveNow();
      saved = true;
      if (this.options.watch !== false) this.disk.start(directories);
    } finally {
      this.tier.markReady();
      this.state = this.errors.size ? 'partial' : this.indexedAt ? 'ready' : this.index.files.size ? 'partial' : 'empty';
      // A build that stopped half-way still keeps what it cataloged.
      if (!saved) this.snapshot.schedule();
    }
    return this.status();
  }

  /** Walks the workspace and brings every walked file up to date; the walked directories. */
  private async catalogWalk(opts: BuildOptions): Promise<string[]> {
    const { limits } = this.deps;
    const walk = await walkWorkspace(this.root, { maxFileBytes: limits.maxFileBytes, maxFiles: limits.maxFiles, followSymlinks: !!this.options.followSymlinks, signal: opts.signal }, this.filter);
    this.skipped = walk.skipped;
    this.limitsHit = walk.limitsHit;
    const keep = new Set(walk.files.map((f) => f.rel));
    for (const rel of [...this.index.files.keys()]) if (!keep.has(rel)) this.index.removeFile(rel);
    for (const rel of [...this.errors.keys()]) if (!keep.has(rel)) this.errors.delete(rel);
    let done = 0;
    const total = walk.files.length;
    opts.onProgress?.(0, total);
    // A large cold build is quiet for long stretches (a server loading its project answers nothing):
    // progress is repeated at least every 2 s so a client sees it is alive.
    const heartbeat = setInterval(() => opts.onProgress?.(done, total), PROGRESS_EVERY_MS);
    try {
      // the syntax pass (worker threads) answers early questions while the servers catalog beside it
      const syntaxPass = this.syntax.pass(walk.files, opts.signal);
      await Promise.all(
        walk.files.map(async (f) => {
          if (opts.signal?.aborted) throw new LspgateError('CANCELLED', 'cataloging was cancelled');
          await this.serverFile(f).catch((e: unknown) => this.recordError(f.rel, e));
          opts.onProgress?.(++done, total);
        }),
      );
      await syntaxPass;
      await this.retryFailed(walk.files, opts.signal);
    } finally {
      clearInterval(heartbeat);
    }
    return walk.directories;
  }

  /** One walked file's server entry (kept when fresh); a file no server catalogs keeps its syntax entry. */
  private async serverFile(f: WalkedFile): Promise<unknown> {
    const syntax = this.deps.cataloger.syntax;
    if (syntax && !syntax.hasServer(f.rel)) {
      this.tier.syntaxOnly.set(f.rel, 'NO_SERVER');
      return this.tier.whenReady();
    }
    return this.freshness.refreshFile(f, true);
  }

  /**
   * Files that failed for a passing reason (a timeout, a crashed or busy server) are asked once more,
   * one at a time, after the flood is over; what fails again stays in status().errors.
   */
  private async retryFailed(files: { abs: string; rel: string }[], signal?: AbortSignal): Promise<void> {
    for (const f of files) {
      const err = this.errors.get(f.rel);
      if (!err || !RETRIED_CODES.has(err.code)) continue;
      if (signal?.aborted) throw new LspgateError('CANCELLED', 'cataloging was cancelled');
      this.logger.info(`retrying ${f.rel} after ${err.code}`);
      await this.catalogFile(f.abs, f.rel, true).catch((e: unknown) => this.recordError(f.rel, e));
    }
  }

  private recordError(rel: string, e: unknown): void {
    const err = toLspgateError(e);
    if (err.code === 'CANCELLED') throw err;
    const syntaxEntry = this.index.files.get(rel)?.tier === 'syntax';
    // a language whose server is missing keeps its syntax entries: no failure, the syntax tier's answer
    if (syntaxEntry && (err.code === 'SERVER_NOT_INSTALLED' || err.code === 'UNSUPPORTED_LANGUAGE')) {
      this.tier.syntaxOnly.set(rel, err.code);
      this.errors.delete(rel);
      return;
    }
    this.errors.set(rel, { file: rel, code: err.code, message: err.message });
    // a server that failed a file leaves its syntax entry answering (marked syntax), never nothing
    if (!syntaxEntry) this.index.removeFile(rel);
  }

  private loadFromDisk(): void {
    this.loaded = true;
    const head = this.snapshot.load();
    if (!head) return;
    this.indexedAt = head.indexedAt;
    this.gitHead = head.gitHead;
    this.baseline.set(head.indexedAt);
  }

  /** The file's entry from the cataloger; concurrent callers of the same file share one request. */
  private catalogFile(abs: string, rel: string, background = false): Promise<FileEntry> {
    const running = this.inflight.get(rel);
    // An interactive caller does not join a background request: that one may still be queued
    // behind the rest of a cold build (a find_definition waited 132 s for the whole catalog).
    if (running && (running.background === background || !running.background)) return running.promise;
    const promise = this.deps.cataloger
      .catalogFile(abs, rel, { background })
      .then((entry) => this.store(rel, entry))
      .finally(() => {
        if (this.inflight.get(rel)?.promise === promise) this.inflight.delete(rel);
      });
    this.inflight.set(rel, { promise, background });
    return promise;
  }

  private store(rel: string, entry: FileEntry): FileEntry {
    this.errors.delete(rel);
    this.tier.compare(this.index.files.get(rel), entry);
    this.tier.syntaxOnly.delete(rel);
    // A file the walk leaves out (ignored, skipped directory) is answered when asked for by
    // name, but kept out of the index: outlines, search and the snapshot stay the walk's.
    if (this.filter.path(rel) === undefined) {
      this.index.setFile(rel, entry);
      this.snapshot.schedule();
    }
    return entry;
  }

  /** Waits for the build, or with `early` for its syntax pass only (starting a build if none ran). */
  private async ensureBuilt(early = false): Promise<void> {
    if (early && this.deps.cataloger.syntax) {
      if (!this.building && this.state === 'empty') this.build().catch((e: unknown) => this.logger.warn('catalog build failed', e));
      if (this.building) await this.tier.whenReady();
      return;
    }
    if (this.building) await this.building;
    else if (this.state === 'empty') await this.build();
  }

  removeFile(rel: string): void {
    this.index.removeFile(rel);
    this.errors.delete(rel);
    this.snapshot.schedule();
  }

  async fileSymbols(relPath: string): Promise<CatalogSymbol[]> {
    const abs = resolveInWorkspace(this.root, relPath, { expect: 'file' });
    const rel = toRelative(this.root, abs);
    // One file's symbols never wait for a running build (interactive first, issue 14): the file is
    // brought up to date on its own; a request the build already has in flight for it is shared.
    const entry = this.index.files.get(rel) ? await this.freshness.refreshFile({ abs, rel }) : await this.catalogFile(abs, rel);
    return entry.symbols;
  }

  async lookup(name: string, filter?: SymbolFilter): Promise<CatalogSymbol[]> {
    if (typeof name !== 'string' || name.trim() === '') throw new LspgateError('INVALID_INPUT', 'symbol name must be a non-empty string');
    const max = this.deps.limits.maxQueryLength;
    if (name.length > max) throw new LspgateError('INVALID_INPUT', `symbol name is longer than maxQueryLength ${max}`);
    await this.ensureBuilt();
    await this.disk.settled();
    let hits = this.index.find(name, filter);
    if (hits.length === 0) {
      // "Not found" is the answer a missed watch event would falsify: sweep every file's stat first.
      if (await this.freshness.sweep()) hits = this.index.find(name, filter);
      return hits;
    }
    if (await this.freshness.freshen(hits.map((h) => h.file))) hits = this.index.find(name, filter);
    return hits;
  }

  /** Stats every cataloged file (mtime+size) and re-catalogs the changed ones; true when one was. */
  sweep(): Promise<boolean> {
    return this.freshness.sweep();
  }

  /** Re-catalogs any of `files` that changed on disk; true when one did. */
  freshen(files: Iterable<string>, opts: ReadOptions = {}): Promise<boolean> {
    return this.freshness.freshen(files, opts.early);
  }

  /** One file's entry for an early answer (outlines before the server is ready): never waits for a build. */
  async earlyFile(relPath: string): Promise<FileEntry> {
    const abs = resolveInWorkspace(this.root, relPath, { expect: 'file' });
    const rel = toRelative(this.root, abs);
    if (this.index.files.has(rel)) {
      await this.freshness.refreshFile({ abs, rel }, false, true);
      return this.index.files.get(rel) ?? (await this.syntax.early(abs, rel));
    }
    return this.syntax.early(abs, rel);
  }

  async byId(symbolId: string, opts: ReadOptions = {}): Promise<CatalogSymbol | undefined> {
    if (typeof symbolId !== 'string' || !symbolId.includes('::')) {
      throw new LspgateError('INVALID_INPUT', `not a symbol id (expected path::Qualified.name#kind): ${String(symbolId).slice(0, 200)}`);
    }
    const file = symbolId.slice(0, symbolId.indexOf('::'));
    // The id's path is caller input: it must resolve inside the workspace and not be secret.
    const abs = resolveInWorkspace(this.root, file, { mustExist: false });
    const rel = toRelative(this.root, abs);
    // a symbol id names its file: that file alone is brought up to date, without waiting for a running build
    if (!this.building) await this.ensureBuilt(opts.early);
    if (this.index.files.has(rel)) {
      if (!(await this.freshness.ensureFresh(rel, opts.early))) return undefined;
    } else {
      const exists = await stat(abs).then((s) => s.isFile(), () => false);
      if (!exists || !this.extensions().has(path.extname(rel).toLowerCase())) return undefined;
      await (opts.early ? this.syntax.early(abs, rel) : this.catalogFile(abs, rel));
    }
    return this.index.byId(rel === file ? symbolId : rel + symbolId.slice(file.length));
  }

  /** The cataloged symbol without a freshness check (get_symbol's verify compares it to the disk). */
  async peek(symbolId: string): Promise<CatalogSymbol | undefined> {
    await this.ensureBuilt(true);
    return this.index.byId(symbolId);
  }

  /** Symbols added, removed and modified (by content hash) since the baseline; `reset` moves it. */
  async drift(reset = false): Promise<CatalogDrift> {
    await this.refresh();
    return this.baseline.compare(reset);
  }

  cached(symbolId: string): CatalogSymbol | undefined {
    return this.index.byId(symbolId);
  }

  files(): ReadonlyMap<string, FileEntry> {
    return this.index.files;
  }

  /**
   * Every symbol in file then byte order. The ordered list is kept until the index changes (its
   * version): sorting 500 files' symbols on every search_symbols and get_repo_outline was a third
   * of those answers. Callers get their own copy of the array.
   */
  async all(opts: ReadOptions = {}): Promise<CatalogSymbol[]> {
    return (await this.ordered(opts.early)).list.slice();
  }

  private async ordered(early = false): Promise<{ version: number; list: CatalogSymbol[] }> {
    await this.ensureBuilt(early);
    if (this.orderedList?.version !== this.index.version) {
      const list = [...this.index.files.keys()].sort().flatMap((rel) => [...this.index.files.get(rel)!.symbols].sort((a, b) => a.byte_offset - b.byte_offset));
      this.orderedList = { version: this.index.version, list };
    }
    return this.orderedList;
  }

  /**
   * search_symbols' ranking: the symbols' searched texts lower-cased and indexed, brought up to date
   * with the index at each call — only the files changed since the last one are re-read.
   */
  async searchTexts(opts: ReadOptions = {}): Promise<SearchTexts> {
    await this.ensureBuilt(opts.early);
    this.texts = this.texts ? this.texts.sync(this.index) : SearchTexts.of(this.index);
    return this.texts;
  }

  async refresh(relPaths?: string[]): Promise<{ refreshed: string[]; errors: FileError[] }> {
    if (!relPaths) return this.refreshAll();
    const refreshed: string[] = [];
    const errors: FileError[] = [];
    for (const p of relPaths) {
      let rel = p;
      try {
        const abs = resolveInWorkspace(this.root, p, { mustExist: false });
        rel = toRelative(this.root, abs);
        const exists = await stat(abs).then((s) => s.isFile(), () => false);
        if (!exists) this.removeFile(rel);
        else {
          await this.catalogFile(abs, rel);
          this.notify([{ path: abs, type: 'changed' }]);
        }
        refreshed.push(rel);
      } catch (e) {
        const err = toLspgateError(e);
        errors.push({ file: rel, code: err.code, message: err.message });
      }
    }
    return { refreshed, errors };
  }

  private async refreshAll(): Promise<{ refreshed: string[]; errors: FileError[] }> {
    const refreshed: string[] = [];
    const before = new Map([...this.index.files].map(([rel, e]) => [rel, e.hash]));
    const status = await this.build();
    for (const [rel, e] of this.index.files) if (before.get(rel) !== e.hash) refreshed.push(rel);
    for (const rel of before.keys()) if (!this.index.files.has(rel)) refreshed.push(rel);
    return { refreshed: refreshed.sort(), errors: status.errors };
  }

  /** Drops everything cataloged, in memory and on disk (invalidate_cache). */
  async invalidate(): Promise<void> {
    if (this.building) await this.building.catch(() => undefined);
    this.index.clear();
    this.errors.clear();
    this.baseline.clear();
    this.state = 'empty';
    this.indexedAt = undefined;
    this.snapshot.delete();
  }

  private notify(changes: FileChange[]): void {
    if (changes.length) this.deps.onFilesChanged?.(changes);
  }

  /** Resolves once every file change seen by the watcher so far is cataloged. */
  async settled(): Promise<void> {
    await this.disk.settled();
  }

  async close(): Promise<void> {
    this.disk.close();
    if (this.building) await this.building.catch(() => undefined);
    if (this.snapshot.pending) this.snapshot.saveNow();
  }
}

async function readGitHead(root: string): Promise<string> {
  const r = await execa('git', ['rev-parse', 'HEAD'], { cwd: root, reject: false, timeout: 5000 });
  return r.exitCode === 0 ? String(r.stdout).trim() : '';
}
