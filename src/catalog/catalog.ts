/**
 * The symbol catalog of one workspace: a pure index and store. The files the gate admits
 * (file-gate.ts: the file-safety rules, for the first walk and every later path) are handed to a
 * FileCataloger (the service's, which asks the language servers), and their entries are indexed with
 * stable ids, persisted with file hashes so a restart re-asks only changed files, kept fresh by a
 * watcher (disk-changes.ts) and by a stat check on every answer (freshness.ts). Every change reaches
 * one feed (change-feed.ts) that the servers, subscriptions and derived indexes listen to; what is
 * derived from the catalog lives in its DerivedState and goes with it. Beside the servers' entries,
 * the syntax tier's (syntax-tier.ts) answer early readers first and stay for languages no server
 * catalogs; they enter through the same gate and reach the same feed. The catalog never talks to a
 * server.
 */
import { stat } from 'node:fs/promises';

import type { Limits } from '../config/schema.js';
import type { CallEdgeRow, Catalog, CatalogDrift, CatalogFileError, CatalogStatus, CatalogSymbol, CatalogWalkOptions } from '../core/catalog.js';
import type { FileCataloger, FileEntry, LookupOptions, PublishedTake, ReadOptions, SymbolFilter } from '../core/catalog.js';
import { LspgateError } from '../errors/errors.js';
import type { LimitHit } from '../schema/meta.js';
import { headCommit } from '../util/git.js';
import type { Logger } from '../util/logger.js';
import { fileExtension, resolveInWorkspace, toRelative } from '../util/paths.js';
import { type BuildOptions, buildWalk } from './build-walk.js';
import { CatalogFiles } from './catalog-files.js';
import { CatalogKeeper } from './catalog-keeper.js';
import { ChangeFeed } from './change-feed.js';
import { DerivedState } from './derived-state.js';
import { DiskChanges } from './disk-changes.js';
import { DriftBaseline } from './drift-baseline.js';
import { emptyReason } from './empty-reason.js';
import type { SkipReason } from './file-filter.js';
import { FileGate } from './file-gate.js';
import { Freshness } from './freshness.js';
import type { PublishedSource } from './published/source.js';
import { checkName, idFile } from './query-input.js';
import { refreshPaths } from './refresh-paths.js';
import { SearchTexts } from './search-texts.js';
import { CatalogStore, INDEX_VERSION } from './store.js';
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

type FileError = CatalogFileError;

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
  /** all()'s ordered list and the index version it was built at. */
  private orderedList: { version: number; list: CatalogSymbol[] } | undefined;
  /** search_symbols' texts, kept in step with the index file by file (search-texts.ts). */
  private texts: SearchTexts | undefined;
  private indexedAt: string | undefined;
  private gitHead = '';
  private loaded = false;
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
    this.snapshot = new CatalogKeeper(new CatalogStore(deps.cacheDir, deps.id, this.root), this.index, head, this.logger, deps.notice);
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

  /** Changes the walk's options (index_folder); a different walk drops the cataloged set. */
  configure(opts: CatalogWalkOptions): void {
    const same =
      JSON.stringify(opts.extraIgnore ?? []) === JSON.stringify(this.options.extraIgnore ?? []) && !!opts.followSymlinks === !!this.options.followSymlinks;
    this.options = { ...this.options, ...opts };
    if (!same) this.gate = this.makeGate();
  }

  /** Patterns index_folder added (search_text walks with them too). */
  get extraIgnore(): string[] {
    return this.options.extraIgnore ?? [];
  }

  /** What the walk keeps: files some enabled server catalogs, and files the syntax tier parses. */
  extensions(): Set<string> {
    return new Set([...this.deps.cataloger.extensions(), ...(this.deps.cataloger.syntax?.extensions() ?? [])]);
  }

  /** The gate every file passes to enter this catalog (file-gate.ts), for the walk's options now. */
  private makeGate(): FileGate {
    const { maxFileBytes } = this.deps.limits;
    const syntax = this.deps.cataloger.syntax;
    const isScript = syntax?.isScript ? (head: Buffer) => syntax.isScript!(head) : undefined;
    const manifests = this.deps.cataloger.projectManifests?.();
    return new FileGate(this.root, {
      extensions: this.extensions(),
      extraIgnore: this.options.extraIgnore ?? [],
      ...(manifests ? { manifests } : {}),
      followSymlinks: !!this.options.followSymlinks,
      maxFileBytes,
      skipMinified: true,
      ...(isScript ? { isScript } : {}),
    });
  }

  status(): CatalogStatus {
    const empty = this.state === 'ready' && this.index.files.size === 0 && this.entries.errors.size === 0;
    return {
      // a file that failed since the build (a changed file over a parse bound) makes the workspace partial
      state: empty ? 'empty' : this.state === 'ready' && this.entries.errors.size ? 'partial' : this.state,
      ...(empty ? { empty_reason: emptyReason(this.skipped, this.tier.passError) } : {}),
      files: this.index.files.size,
      symbols: this.index.symbolCount(),
      ...(this.indexedAt ? { indexed_at: this.indexedAt } : {}),
      git_head: this.gitHead,
      index_version: INDEX_VERSION,
      errors: [...this.entries.errors.values()].sort((a, b) => a.file.localeCompare(b.file)),
      ...(this.deps.cataloger.syntax ? { tiers: this.tier.status(this.index.files, this.hasServer) } : {}),
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
      saved = true;
      this.entries.live = true;
      this.deps.afterBuild?.(this.index.files);
    } finally {
      this.tier.markReady();
      this.state = this.entries.errors.size ? 'partial' : this.indexedAt ? 'ready' : this.index.files.size ? 'partial' : 'empty';
      // A build that stopped half-way still keeps what it cataloged.
      if (!saved) this.snapshot.schedule();
      release();
    }
    return this.status();
  }

  /**
   * Makes sure changes on disk reach the feed (a resource subscription needs them) without waiting
   * for a build: the directories the gate would enter are watched at once; until the first build,
   * changes are passed on but not cataloged.
   */
  async watch(): Promise<void> {
    if (this.disk.watching || this.options.watch === false) return;
    const walk = await walkWorkspace(
      this.root,
      {
        maxFileBytes: this.deps.limits.maxFileBytes,
        maxFiles: this.deps.limits.maxFiles,
        followSymlinks: !!this.options.followSymlinks,
        directoriesOnly: true,
      },
      this.gate,
    );
    this.disk.start(walk.directories);
  }

  private loadFromDisk(): void {
    this.loaded = true;
    const head = this.snapshot.load();
    if (!head) return;
    this.indexedAt = head.indexedAt;
    this.gitHead = head.gitHead;
    this.baseline.set(head.indexedAt);
  }

  /** Waits for the build, or with `early` for its syntax pass only (starting a build if none ran). */
  private async ensureBuilt(early = false): Promise<void> {
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
    // The entry the snapshot holds answers as soon as it is checked fresh: no server for an
    // unchanged file (an outline must not wait for a server start).
    if (!this.loaded && !this.building) this.loadFromDisk();
    // One file's symbols never wait for a running build (interactive first): the file is
    // brought up to date on its own; a request the build already has in flight for it is shared.
    const entry = this.index.files.get(rel) ? await this.freshness.refreshFile({ abs, rel }) : await this.entries.catalogFile(abs, rel);
    return entry.symbols;
  }

  async lookup(name: string, filter?: SymbolFilter, opts: LookupOptions = {}): Promise<CatalogSymbol[]> {
    checkName(name, this.deps.limits.maxQueryLength);
    // while the pass runs, the unparsed files that can declare the name are parsed first (early-names.ts)
    const find = () => this.index.find(name, filter);
    const early = this.deps.cataloger.syntax && !this.tier.ready && (await this.started()) ? await this.syntax.namesFirst(name, find, opts) : undefined;
    if (early) return early;
    // A name waits for the build's syntax pass, not for the servers' catalog of languages without a
    // grammar: that is a documentSymbol request per file to a server that may still be loading its
    // project. A name the parse trees hold answers at once (a same-named declaration in such a
    // language joins later answers); only a name they lack waits for the whole build.
    await this.ensureBuilt(true);
    await this.disk.settled();
    let hits = find();
    if (hits.length === 0 && this.building) {
      await this.ensureBuilt();
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

  /** Whether an enabled server handles the file (semantic questions); its catalog entry is the syntax tier's either way. */
  private readonly hasServer = (rel: string): boolean => this.deps.cataloger.syntax?.hasServer(rel) ?? true;

  serverless(rel: string): string | undefined {
    return this.tier.serverless(rel, this.index.files.get(rel), this.hasServer);
  }

  files(): ReadonlyMap<string, FileEntry> {
    return this.index.files;
  }

  publishedChunks(want: ReadonlyMap<string, string>, take: PublishedTake): Promise<number | undefined> {
    return this.deps.published?.chunks(want, take) ?? Promise.resolve(undefined);
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
    return this.feed.batch(() => refreshPaths(this.root, this.entries, this.syntax, relPaths));
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
    this.entries.clear();
    this.derived.clear();
    this.baseline.clear();
    this.state = 'empty';
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
    if (this.snapshot.pending) this.snapshot.flush();
    this.snapshot.close();
  }

  /** Call edges lspgate computed (find_callers / find_callees), kept in the database's call_graph. */
  readonly recordCalls = (edges: readonly CallEdgeRow[]): number => this.snapshot.recordCalls(edges);
}
