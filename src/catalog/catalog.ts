/**
 * The symbol catalog of one workspace. The files the gate admits (file-gate.ts) are handed to a
 * FileCataloger (the service's) and the syntax tier (syntax-tier.ts); their entries are indexed with
 * stable ids in the workspace database (symbol-index.ts, catalog-keeper.ts) so a restart re-asks
 * only changed files, kept fresh by a watcher (disk-changes.ts) and a stat check on every answer
 * (freshness.ts). Every change reaches one feed (change-feed.ts); what is derived from the catalog
 * lives in its DerivedState. The catalog never talks to a server.
 */
import { stat } from 'node:fs/promises';

import type { Limits } from '../config/schema.js';
import type { CallEdgeRow, Catalog, CatalogDrift, CatalogFileError, CatalogStatus, CatalogSymbol, CatalogWalkOptions, SymbolRanker } from '../core/catalog.js';
import type { FileCataloger, FileEntry, LookupOptions, PublishedTake, ReadOptions, SymbolFilter, SymbolTally } from '../core/catalog.js';
import { LspgateError } from '../errors/errors.js';
import type { LimitHit } from '../schema/meta.js';
import { headCommit } from '../util/git.js';
import type { Logger } from '../util/logger.js';
import { fileExtension, resolveInWorkspace, toRelative } from '../util/paths.js';
import { type BuildOptions, buildWalk } from './build-walk.js';
import { CatalogFiles } from './catalog-files.js';
import { catalogGate } from './catalog-gate.js';
import { CatalogKeeper } from './catalog-keeper.js';
import { catalogStatus } from './catalog-status.js';
import { ChangeFeed } from './change-feed.js';
import { DerivedState } from './derived-state.js';
import { DiskChanges } from './disk-changes.js';
import { DriftBaseline } from './drift-baseline.js';
import type { SkipReason } from './file-filter.js';
import type { FileGate } from './file-gate.js';
import { Freshness } from './freshness.js';
import type { PublishedSource } from './published/source.js';
import { checkName, idFile } from './query-input.js';
import { refreshAll, refreshPaths } from './refresh-paths.js';
import { SearchRankers } from './search-rankers.js';
import { CatalogStore } from './store.js';
import { SymbolIndex } from './symbol-index.js';
import { SyntaxEntries, SyntaxTier } from './syntax-tier.js';
import { walkWorkspace } from './walk.js';

/** Everything a catalog is given: nothing is reached through a shared context. */
export interface CatalogDeps {
  root: string;
  id: string;
  cacheDir: string;
  logger: Logger;
  limits: Pick<Limits, 'maxFileBytes' | 'maxFiles' | 'maxQueryLength'>;
  cataloger: FileCataloger;
  /** A warning for the workspace's next answer (`_meta.warnings`): a snapshot that could not be saved. */
  notice?: (message: string) => void;
  /** After each build that walked the workspace: the cataloged files (the service starts the servers they need). */
  afterBuild?: (files: ReadonlyMap<string, FileEntry>) => void;
  /** `--index`: the published entries of the files whose bytes match, taken before the first build's walk as a snapshot's are (published/source.ts). */
  published?: PublishedSource;
}

export class WorkspaceCatalog implements Catalog {
  readonly index = new SymbolIndex();
  readonly tier = new SyntaxTier();
  readonly root: string;
  readonly derived: DerivedState;
  skipped: Partial<Record<SkipReason, number>> = {};
  limitsHit: LimitHit[] = [];
  private options: CatalogWalkOptions = {};
  /** The gate every stage asks, held by CatalogFiles: a new one when configure changes the walk's options. */
  private get gate(): FileGate {
    return this.entries.gate;
  }
  private set gate(gate: FileGate) {
    this.entries.gate = gate;
  }
  private state: CatalogStatus['state'] = 'empty';
  private building: Promise<CatalogStatus> | undefined;
  /** The rebuild after the root was deleted and created again, while it runs. */
  private replacing: Promise<void> | undefined;
  /** search_symbols' ranking (search-rankers.ts). */
  private readonly rankers: SearchRankers;
  private indexedAt: string | undefined;
  private gitHead = '';
  private loaded = false;
  /** Loaded from the database, the first build not done yet. */
  private warm = false;
  /** The warm start's stored files stat'd against the disk (once, before the first ranking over all of them). */
  private storedChecked: Promise<boolean> | undefined;
  private readonly logger: Logger;
  private readonly feed: ChangeFeed;
  private readonly entries: CatalogFiles;
  /** The catalog in the workspace database (store.ts), written file by file. */
  private readonly snapshot: CatalogKeeper;
  private readonly baseline = new DriftBaseline(this.index);
  private readonly freshness: Freshness;
  private readonly disk: DiskChanges;
  /** The syntax tier's work on this catalog: its pass, early entries, changed files. */
  private readonly syntax: SyntaxEntries;

  /**
   * The pipeline, built bottom up: each stage is given the stages below it and calls them. A file goes
   * walk (build-walk.ts) or watcher (disk-changes.ts) → gate → parse (syntax-tier.ts; freshness.ts keeps
   * an entry whose bytes match) → entry (catalog-files.ts) → index → feed.
   */
  constructor(private readonly deps: CatalogDeps) {
    this.root = deps.root;
    this.logger = deps.logger.child(`catalog:${deps.id}`);
    this.feed = new ChangeFeed(this.logger);
    this.derived = new DerivedState(this.logger);
    const head = () => ({ indexedAt: this.indexedAt, gitHead: this.gitHead });
    this.snapshot = new CatalogKeeper(
      new CatalogStore(deps.cacheDir, deps.id, this.root, deps.cataloger.searchKeys?.bind(deps.cataloger)),
      this.index,
      head,
      this.logger,
      deps.notice,
    );
    this.rankers = new SearchRankers(this.index, this.snapshot);
    const entries = new CatalogFiles({
      root: this.root,
      index: this.index,
      feed: this.feed,
      cataloger: deps.cataloger,
      gate: this.makeGate(),
      tier: this.tier,
      snapshot: this.snapshot,
    });
    this.entries = entries;
    this.syntax = new SyntaxEntries(this.entries, { tier: this.tier, syntax: deps.cataloger.syntax, logger: this.logger });
    this.freshness = new Freshness(this.entries, this.syntax);
    this.disk = new DiskChanges(
      { files: this.entries, syntax: this.syntax, freshness: this.freshness, feed: this.feed, cataloged: () => this.state !== 'empty' },
      this.logger,
    );
  }

  /** Bumped whenever a file is re-cataloged or removed. */
  get version(): number {
    return this.index.version;
  }

  /** Whether changes on disk reach the catalog and the servers (after the first build). */
  get watching(): boolean {
    return this.disk.watching;
  }

  /** The one change stream: every file added, changed or removed, after the gate. */
  get changes(): ChangeFeed {
    return this.feed;
  }

  configure(opts: CatalogWalkOptions): void {
    const same =
      JSON.stringify(opts.extraIgnore ?? []) === JSON.stringify(this.options.extraIgnore ?? []) && !!opts.followSymlinks === !!this.options.followSymlinks;
    this.options = { ...this.options, ...opts };
    if (!same) this.gate = this.makeGate();
  }

  get extraIgnore(): string[] {
    return this.options.extraIgnore ?? [];
  }

  /** What the walk keeps: files some enabled server catalogs, and files the syntax tier parses. */
  extensions(): Set<string> {
    return new Set([...this.deps.cataloger.extensions(), ...(this.deps.cataloger.syntax?.extensions() ?? [])]);
  }

  /** The gate every file passes to enter this catalog (file-gate.ts), for the walk's options now. */
  private makeGate(): FileGate {
    return catalogGate(this.root, this.deps.cataloger, this.deps.limits.maxFileBytes, this.options, this.extensions());
  }

  status(): CatalogStatus {
    const { index, state, skipped, indexedAt, gitHead } = this;
    const tiers = this.deps.cataloger.syntax ? () => this.tier.status(index.files, this.hasServer) : undefined;
    return catalogStatus({ index, state, skipped, indexedAt, gitHead, tiers, errors: this.entries.errors, passError: this.tier.passError });
  }

  build(opts: BuildOptions = {}): Promise<CatalogStatus> {
    this.building ??= this.doBuild(opts).finally(() => (this.building = undefined));
    return this.building;
  }

  private async doBuild(opts: BuildOptions): Promise<CatalogStatus> {
    this.state = 'building';
    this.tier.restart(false);
    // a rebuild's changes reach the feed's listeners as one batch
    const release = this.feed.hold();
    try {
      if (!this.loaded) this.loadFromDisk();
      for (const [rel, entry] of (await this.deps.published?.()) ?? []) this.index.setFile(rel, entry);
      // `git rev-parse` is a process spawn (~50-100 ms under load): it runs while files are cataloged,
      // not after them (it was a third of catalog.build on the 11-file fixture).
      const head = headCommit(this.root);
      const { entries: files, freshness, syntax, logger, options } = this;
      const disk = options.watch !== false ? this.disk : undefined;
      const walk = await buildWalk({ files, syntax, freshness, disk, logger, limits: this.deps.limits, options }, opts);
      this.skipped = walk.skipped;
      this.limitsHit = walk.limitsHit;
      this.gitHead = await head;
      this.indexedAt = new Date().toISOString();
      if (this.baseline.size === 0) this.baseline.set();
      this.snapshot.saveNow();
      this.entries.live = true;
      this.deps.afterBuild?.(this.index.files);
    } finally {
      this.tier.markReady();
      this.warm = false;
      this.state = this.entries.errors.size ? 'partial' : this.indexedAt ? 'ready' : this.index.files.size ? 'partial' : 'empty';
      // a build that stopped half-way still keeps what it cataloged
      this.snapshot.schedule();
      release();
    }
    return this.status();
  }

  /** Changes on disk reach the feed (subscriptions) before any build: passed on, not cataloged, until the first. */
  async watch(): Promise<void> {
    if (this.disk.watching || this.options.watch === false) return;
    const { maxFileBytes, maxFiles } = this.deps.limits;
    const walk = await walkWorkspace(this.root, { maxFileBytes, maxFiles, followSymlinks: !!this.options.followSymlinks, directoriesOnly: true }, this.gate);
    this.disk.start(walk.directories);
  }

  private loadFromDisk(): void {
    this.loaded = true;
    const head = this.snapshot.load();
    if (!head) return;
    this.warm = true;
    this.storedChecked = undefined;
    this.indexedAt = head.indexedAt;
    this.gitHead = head.gitHead;
    this.baseline.set(head.indexedAt);
  }

  hasStored(): boolean {
    if (!this.loaded && !this.building) this.loadFromDisk();
    return this.warm;
  }

  /**
   * Waits for the build, or with `early` for its syntax pass (starting a build if none ran). A warm
   * start waits for neither: the database answers while the build runs, each answer checking its files.
   */
  private async ensureBuilt(early = false): Promise<void> {
    if (!this.loaded && !this.building) this.loadFromDisk();
    if (this.warm && (await this.started())) return;
    if (early && this.deps.cataloger.syntax) {
      if (await this.started()) await this.tier.whenReady();
      return;
    }
    await this.checkRoot();
    if (this.building) await this.building;
    else if (this.state === 'empty') await this.build();
  }

  /** Starts a build if none ran yet (the root checked first); whether one is running. */
  private async started(): Promise<boolean> {
    await this.checkRoot();
    if (!this.building && this.state === 'empty') this.build().catch((e: unknown) => this.logger.warn('catalog build failed', e));
    return this.building !== undefined;
  }

  removeFile(rel: string): void {
    this.entries.removeFile(rel);
  }

  async fileSymbols(relPath: string): Promise<CatalogSymbol[]> {
    const abs = resolveInWorkspace(this.root, relPath, { expect: 'file' });
    const rel = toRelative(this.root, abs);
    // The stored entry answers once checked fresh (no server for an unchanged file), without
    // waiting for a running build: a request the build has in flight for the file is shared.
    if (!this.loaded && !this.building) this.loadFromDisk();
    const entry = this.index.files.get(rel) ? await this.freshness.refreshFile({ abs, rel }) : await this.entries.catalogFile(abs, rel);
    return entry.symbols;
  }

  async lookup(name: string, filter?: SymbolFilter, opts: LookupOptions = {}): Promise<CatalogSymbol[]> {
    checkName(name, this.deps.limits.maxQueryLength);
    // while the pass runs, the unparsed files that can declare the name are parsed first (early-names.ts)
    const find = () => this.index.find(name, filter);
    const early =
      this.deps.cataloger.syntax && !this.tier.ready && !this.warm && (await this.started()) ? await this.syntax.namesFirst(name, find, opts) : undefined;
    if (early) return early;
    // A name waits for the syntax pass, not for servers cataloging languages without a grammar (a
    // server may still be loading its project); only a name the parse trees lack waits for the build.
    await this.ensureBuilt(true);
    await this.disk.settled();
    let hits = find();
    if (hits.length === 0 && this.building) {
      await this.building;
      hits = this.index.find(name, filter);
    }
    if (hits.length === 0) {
      // "Not found" is the answer a missed watch event would falsify: sweep every file's stat first.
      if (await this.freshness.sweep()) hits = this.index.find(name, filter);
      return hits;
    }
    if (await this.freshness.freshen(hits.map((h) => h.file))) hits = this.index.find(name, filter);
    return hits;
  }

  sweep(): Promise<boolean> {
    return this.freshness.sweep();
  }

  freshen(files: Iterable<string>, opts: ReadOptions = {}): Promise<boolean> {
    return this.freshness.freshen(files, opts.early);
  }

  /** One file's entry for an early answer (outlines before the server is ready): never waits for a build. */
  async earlyFile(relPath: string): Promise<FileEntry> {
    const abs = resolveInWorkspace(this.root, relPath, { expect: 'file' });
    const rel = toRelative(this.root, abs);
    if (this.index.files.has(rel)) {
      await this.freshness.refreshFile({ abs, rel }, false, undefined, true);
      return this.index.files.get(rel) ?? (await this.syntax.early(abs, rel));
    }
    return this.syntax.early(abs, rel);
  }

  async byId(symbolId: string, opts: ReadOptions = {}): Promise<CatalogSymbol | undefined> {
    const file = idFile(symbolId);
    // The id's path is caller input: it must resolve inside the workspace and not be secret.
    const abs = resolveInWorkspace(this.root, file, { mustExist: false });
    const rel = toRelative(this.root, abs);
    // a symbol id names its file: that file alone is brought up to date, without waiting for a running build
    if (!this.building) await this.ensureBuilt(opts.early);
    const id = rel === file ? symbolId : rel + symbolId.slice(file.length);
    if (this.index.files.has(rel)) {
      if (!(await this.freshness.ensureFresh(rel, opts.early))) return undefined;
    } else {
      const exists = await stat(abs).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!exists || !this.extensions().has(fileExtension(rel))) return undefined;
      const entry = await (opts.early ? this.syntax.early(abs, rel) : this.entries.catalogFile(abs, rel));
      // a file the walk leaves out (a skipped directory, ignore rules) is answered by path, not indexed:
      // its ids are the ones its outline gave
      return this.index.byId(id) ?? entry.symbols.find((s) => s.symbol_id === id);
    }
    return this.index.byId(id);
  }

  async peek(symbolId: string): Promise<CatalogSymbol | undefined> {
    await this.ensureBuilt(true);
    return this.index.byId(symbolId);
  }

  async drift(reset = false): Promise<CatalogDrift> {
    await this.refresh();
    return this.baseline.compare(reset);
  }

  cached(symbolId: string): CatalogSymbol | undefined {
    return this.index.byId(symbolId);
  }

  /** Whether an enabled server handles the file (semantic questions); its catalog entry is the syntax tier's either way. */
  private readonly hasServer = (rel: string): boolean => this.deps.cataloger.syntax?.hasServer(rel) ?? true;

  serverless(rel: string): string | undefined {
    return this.tier.serverless(rel, this.index.files.get(rel), this.hasServer);
  }

  files(): ReadonlyMap<string, FileEntry> {
    return this.index.files;
  }

  symbolTally(): SymbolTally {
    return { count: (rel) => this.index.countOf(rel), kinds: () => this.index.kindCounts() };
  }

  publishedChunks(want: ReadonlyMap<string, string>, take: PublishedTake): Promise<number | undefined> {
    return this.deps.published?.chunks(want, take) ?? Promise.resolve(undefined);
  }

  ready(opts: ReadOptions = {}): Promise<void> {
    return this.ensureBuilt(opts.early);
  }

  /** Every symbol in file then byte order, read file by file from the index (not kept: the heap holds stamps). */
  async all(opts: ReadOptions = {}): Promise<CatalogSymbol[]> {
    await this.ensureBuilt(opts.early);
    return [...this.index.files.keys()].sort().flatMap((rel) => [...this.index.files.get(rel)!.symbols].sort((a, b) => a.byte_offset - b.byte_offset));
  }

  /**
   * search_symbols' ranking: from the workspace database once it holds every change of the index,
   * else the texts in the heap (search-rankers.ts).
   */
  async searchTexts(opts: ReadOptions = {}): Promise<SymbolRanker> {
    await this.ensureBuilt(opts.early);
    // a warm start ranks the stored catalog while its build runs: no hit may come from a file edited while lspgate was down
    if (this.warm) await (this.storedChecked ??= this.freshness.sweep());
    return this.rankers.now();
  }

  async refresh(relPaths?: string[]): Promise<{ refreshed: string[]; errors: CatalogFileError[] }> {
    if (!relPaths) return refreshAll(this.index, () => this.build());
    return this.feed.batch(() => refreshPaths(this.root, this.entries, this.syntax, relPaths));
  }

  async invalidate(): Promise<void> {
    if (this.building) await this.building.catch(() => undefined);
    this.entries.clear();
    this.derived.clear();
    this.baseline.clear();
    this.state = 'empty';
    this.warm = false;
    this.indexedAt = undefined;
    this.snapshot.delete();
  }

  /**
   * Resolves once every file change seen by the watcher so far is cataloged — and, when the root was
   * deleted and created again under the watcher, once the catalog is built anew from the new root.
   */
  async settled(): Promise<void> {
    await this.disk.settled();
    await this.checkRoot();
  }

  async complete(opts: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.building) await this.building;
    if (!this.watching || this.state === 'empty') await this.build(opts.signal ? { signal: opts.signal } : {});
    await this.settled();
  }

  /**
   * Before an answer from a watched catalog: a root that is gone is FILE_NOT_FOUND (the watcher saw
   * every file go: the catalog is empty, which is not the answer), and a root deleted and created
   * again is cataloged anew first.
   */
  private async checkRoot(): Promise<void> {
    if (this.disk.rootMissing()) throw new LspgateError('FILE_NOT_FOUND', `workspace root does not exist: ${this.root}`, { path: this.root });
    if (this.disk.rootReplaced()) await this.rebuildReplacedRoot();
  }

  /** One rebuild for every caller that finds the root replaced: a new walk, new watches. */
  private rebuildReplacedRoot(): Promise<void> {
    this.replacing ??= (async () => {
      this.logger.info(`${this.root} was deleted and created again: cataloging it anew`);
      this.disk.close();
      await this.build();
    })().finally(() => (this.replacing = undefined));
    return this.replacing;
  }

  /** Stops the watcher, drops what was derived and the feed's listeners, and flushes the snapshot. */
  async close(): Promise<void> {
    this.disk.close();
    if (this.building) await this.building.catch(() => undefined);
    this.derived.close();
    this.feed.close();
    this.snapshot.close();
  }

  /** Call edges lspgate computed (find_callers / find_callees), kept in the database's call_graph. */
  readonly recordCalls = (edges: readonly CallEdgeRow[]): number => this.snapshot.recordCalls(edges);
}
