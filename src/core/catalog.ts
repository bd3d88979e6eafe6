/**
 * The symbol catalog contract (the service resolves names through it).
 * A CatalogSymbol is one documentSymbol of one file, flattened, with a stable id
 * `relative/path::Qualified.name#kind` (stable: clients keep ids between calls).
 */
import type { SymbolKind } from '../schema/descriptors.js';
import type { LimitHit } from '../schema/meta.js';

/**
 * How an answer names one cataloged declaration (a search hit, a dead-code candidate, a changed
 * symbol): its id, its names, its kind and the 1-based line it starts on, in the catalog's terms.
 */
export interface SymbolRef {
  symbol_id: string;
  name: string;
  qualified_name: string;
  kind: string;
  /** Workspace-relative path with `/`. */
  file: string;
  line: number;
}

export interface CatalogSymbol {
  symbol_id: string;
  /** Workspace-relative path with `/`. */
  file: string;
  name: string;
  /** Dot-joined names of the enclosing symbols and this one: `Router.ServeHTTP`. */
  qualified_name: string;
  kind: SymbolKind;
  /** LSP SymbolKind number as the server sent it. */
  lsp_kind: number;
  language: string;
  /** Server id that produced it. */
  server: string;
  signature: string;
  summary: string;
  docstring?: string;
  /** symbol_id of the enclosing symbol. */
  parent?: string;
  /** Package (Go, Python module path, TS module) or namespace (PHP) of the file. */
  package?: string;
  namespace?: string;
  /** 1-based, inclusive: the full range of the declaration. */
  line: number;
  end_line: number;
  /** 1-based position of the name (selectionRange start), in characters of the line. */
  selection_line: number;
  selection_column: number;
  byte_offset: number;
  byte_length: number;
  /** sha256 (hex) of the source bytes [byte_offset, byte_offset + byte_length). */
  content_hash: string;
}

/** One cataloged file: its symbols and the stamps that tell whether the disk still matches them. */
export interface FileEntry {
  /** sha256 of the file's bytes. */
  hash: string;
  size: number;
  mtimeMs: number;
  language: string;
  server: string;
  symbols: CatalogSymbol[];
  /**
   * `syntax`: read from the file's syntax tree (tree-sitter and its language profile's declarations
   * hook), as every file with a grammar is; absent: from the server's documentSymbol (a language a
   * user added with a server and no grammar).
   */
  tier?: 'syntax';
}

/** A file's bytes with the stamps of the same open (fstat before the read). */
export interface FileContent {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
}

/**
 * What turns one file into a FileEntry: the service's cataloger (the same FileContext pipeline
 * the operations use). The catalog only indexes and stores what it is given.
 */
export interface FileCataloger {
  /**
   * Throws a coded error (UNSUPPORTED_LANGUAGE, LIMIT_EXCEEDED, SERVER_*) when the file cannot be
   * cataloged. `content`: the file's bytes and stamps as the catalog's gate read and judged them
   * (then the file is not read again, so what is cataloged is what was admitted).
   */
  catalogFile(absPath: string, relPath: string, opts?: { background?: boolean; content?: FileContent }): Promise<FileEntry>;
  /** The lower-cased extensions some enabled server handles (the walk keeps these and the syntax tier's). */
  extensions(): Set<string>;
  /** File names that make their directory a project (build output beside one is skipped): the language profiles' manifests. */
  projectManifests?(): ReadonlySet<string>;
  /** The syntax tier: the entries of every file whose language has a grammar, read from its syntax tree. */
  readonly syntax?: SyntaxCataloger;
  /**
   * search_symbols' fixed key of each of a file's symbols (entry order), stored with the file so a
   * search ranks without reading symbols (resolution-policy.ts fixedPolicyKeys).
   */
  searchKeys?(symbols: readonly CatalogSymbol[]): ArrayLike<number>;
}

/** One file the syntax tier is asked to catalog. */
export interface SyntaxFileJob {
  abs: string;
  rel: string;
}

export interface SyntaxCataloger {
  /** The lower-cased extensions it parses. */
  extensions(): Set<string>;
  /** Whether an enabled language server handles this file (for semantic questions; its catalog entry is the syntax tier's either way). */
  hasServer(relPath: string): boolean;
  /** Whether a file without an extension is a script it parses, by its first bytes (the `#!` line). */
  isScript?(head: Buffer): boolean;
  /**
   * Entries for many files (worker threads); each answered as it comes, entry or coded error — a
   * file over the parse deadline or the workers' heap cap with TIMEOUT or LIMIT_EXCEEDED.
   */
  catalogMany(
    files: SyntaxFileJob[],
    onEntry: (rel: string, entry: FileEntry | undefined, error?: { code: string; message: string }) => void,
    signal?: AbortSignal,
  ): Promise<void>;
  /**
   * One file's entry, parsed on the worker pool ahead of any bulk pass (a changed file, an early question) from `content`: the
   * bytes the catalog's gate admitted (a file the gate refuses is never parsed); undefined: no
   * syntax for it.
   */
  catalogOne(absPath: string, relPath: string, content: FileContent): Promise<FileEntry | undefined>;
}

/**
 * One file that entered (`added`), changed in (`changed`) or left (`removed`) the catalog's set of
 * admitted files — after the gate, whoever found out (the watcher, refresh, a freshness check, a
 * lookup by name, a rebuild).
 */
export interface CatalogChange {
  /** Workspace-relative with `/`. */
  rel: string;
  /** Absolute. */
  path: string;
  kind: 'added' | 'changed' | 'removed';
  /**
   * `changed` with the same bytes: only the file's catalog entry changed (its server's entry took
   * the place of its syntax-tier entry, with the server's symbols, ranges and kinds). Listeners
   * that work from the bytes (the servers, the import graph) have nothing to redo; those that work
   * from the entries (chunks, outlines, cached answers, subscriptions) do. A batch that also
   * changed the bytes of the file says so (no `entryOnly`).
   */
  entryOnly?: true;
}

/** What the feed delivers at once: the changes of one batch (a watcher batch, a refresh, a build). */
export interface CatalogChanges {
  readonly changes: readonly CatalogChange[];
  /** The catalog was dropped (invalidate_cache): whatever was derived from it starts again. */
  readonly reset?: boolean;
}

/**
 * The catalog's one change stream: the servers, MCP resource subscriptions, the import graph, the
 * chunk index and the operation cache learn of changes here. Listeners run synchronously after the
 * catalog changed (they read its new state); they record what changed and schedule their work.
 */
export interface ChangeFeed {
  /** Calls `listener` with every batch from now on; returns the function that stops it. */
  subscribe(listener: (batch: CatalogChanges) => void): () => void;
}

/** A value derived from one workspace's catalog, kept in its DerivedState (see there). */
export interface Derived {
  /** An estimate of the memory it holds (status answers, the table of caches in docs/architecture.md). */
  bytes(): number;
  /** Releases what it holds beyond memory (open files, listeners); called when dropped. */
  dispose?(): void;
}

/** The slot a derived value is kept under: one per kind of index (import graph, chunks, vectors...). */
export interface DerivedKey<T extends Derived> {
  readonly name: string;
  /** Phantom: the slot's value type. */
  readonly type?: T;
}

/**
 * The indexes and caches derived from one workspace's catalog (import graph, chunk index, vectors,
 * outlines...): made on first use, listening to the catalog's feed, dropped with the catalog
 * (close, invalidate_cache) so that nothing derived from a closed workspace outlives it.
 */
export interface DerivedState {
  /** The value kept under `key`, made by `make` the first time. */
  get<T extends Derived>(key: DerivedKey<T>, make: () => T): T;
  /** The value kept under `key`, if any (never makes one). */
  peek<T extends Derived>(key: DerivedKey<T>): T | undefined;
  /** What is kept now, by slot name, with each one's size estimate in bytes. */
  sizes(): Record<string, number>;
}

export interface SymbolFilter {
  kind?: string | string[];
  language?: string;
  package?: string;
  namespace?: string;
  /** Enclosing class/struct/trait name for members. */
  class_name?: string;
  /** Glob over the relative file path. */
  file_pattern?: string;
}

export interface CatalogStatus {
  /** `empty`: not built yet, or built and nothing was cataloged (then `empty_reason` says why). */
  state: 'empty' | 'building' | 'ready' | 'partial';
  /** Why a built catalog holds no file: what the walk left out, per reason, or why the parse pass failed. */
  empty_reason?: string;
  files: number;
  symbols: number;
  indexed_at?: string;
  git_head?: string;
  index_version: number;
  /** Files that failed (with the error code), never silently dropped. */
  errors: { file: string; code: string; message: string }[];
  /** The syntax tier beside the servers' (catalog/syntax-tier.ts). */
  tiers?: TierStatus;
}

export interface TierDisagreement {
  /** Files of the background verification sample asked of their servers (the catalog's entries come from syntax trees). */
  files_sampled: number;
  /** Of those, files whose server entry read the same bytes as the catalog's syntax entry, compared symbol by symbol. */
  files_compared: number;
  /** Of those files: symbols each tier listed. */
  syntax_symbols: number;
  server_symbols: number;
  /** Ids only the syntax tier listed, only the server listed, and listed by both with another range or kind. */
  only_syntax: number;
  only_server: number;
  differing: number;
  /** (only_syntax + only_server + differing) / server_symbols, 0 when nothing was compared. */
  rate: number;
}

export interface TierStatus {
  /** Whether the first syntax pass of the current build is done (early answers need no more). */
  syntax_ready: boolean;
  /** Cataloged files now answered from syntax, and from their servers. */
  syntax_files: number;
  server_files: number;
  /** Files that stay at the syntax tier because their language has no server here, by reason (SERVER_NOT_INSTALLED …). */
  syntax_only: Record<string, number>;
  disagreement: TierDisagreement;
}

/**
 * Early answers (outlines, symbol search, sources, repository structure, chunks) take the catalog
 * as soon as its syntax pass is done, and syntax-tier entries as they are; every other reader waits
 * for the whole build and gets a file's server entry whenever a server catalogs it.
 */
export interface ReadOptions {
  early?: boolean;
}

export interface LookupOptions {
  /**
   * Called when the name was answered while the syntax pass was still running: from every file parsed
   * so far plus the unparsed files that hold the name, parsed first (catalog/early-names.ts).
   */
  onEarly?: (early: { unparsed: number; parsedAhead: number }) => void;
  /** The unparsed files found holding the name, before they are parsed (absolute paths): their server may start meanwhile. */
  onHolders?: (files: string[]) => void;
}

/** Why the walk passed over files, with counts (the file-safety pipeline's reasons). */
export type SkipCounts = Partial<Record<string, number>>;

/** The walk options index_folder sets. */
export interface CatalogWalkOptions {
  extraIgnore?: string[];
  followSymlinks?: boolean;
  /** Watch the workspace for changes (default true). */
  watch?: boolean;
}

export interface CatalogDrift {
  added: string[];
  removed: string[];
  modified: string[];
  since: string | undefined;
}

export type CatalogFileError = { file: string; code: string; message: string };

/** A call between two cataloged symbols (ids), at a call site in `file` (workspace-relative), 1-based `line`. */
export interface CallEdgeRow {
  caller: string;
  callee: string;
  file: string;
  line: number;
}

/** The published vectors of one file's chunks: the embedder's identity checksum, one vector per chunk in order (undefined: none published). */
export interface PublishedVectors {
  embedder: string;
  identity: unknown;
  vectors: (Float32Array | undefined)[];
}

/**
 * Takes one file's published chunks, with their vectors when the commit was published with an
 * embedder, and its idiom counts (`{ counts }`, counts null when none were counted; undefined when
 * the file was published before the index had them).
 */
export type PublishedTake = (path: string, chunks: unknown[], vectors?: PublishedVectors, idioms?: { counts: Record<string, number> | null }) => Promise<void>;

/** The cataloged symbols counted, none read into the heap: per file, and by kind over every file. */
export interface SymbolTally {
  /** What `files().get(rel).symbols.length` answers. */
  count(rel: string): number;
  /** Symbols by kind over every file of `files()`. */
  kinds(): Map<string, number>;
}

export interface Catalog {
  /**
   * `--index`: gives `take` the published chunks (seed-004 Chunks, src/chunks/types.ts) of the files
   * whose local stamp (path → content hash, `:syntax` at the syntax tier) is the published one; the
   * number of files taken, undefined without an index or when it cannot be read.
   */
  publishedChunks?(want: ReadonlyMap<string, string>, take: PublishedTake): Promise<number | undefined>;
  /** Builds (or loads from disk and refreshes) the whole catalog; progress per file. */
  build(opts?: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void }): Promise<CatalogStatus>;
  status(): CatalogStatus;
  /** Symbols of one file (catalogs it if it is not cataloged or changed on disk). */
  fileSymbols(relPath: string): Promise<CatalogSymbol[]>;
  /**
   * One file's entry for an early answer: the cataloged one while the disk still matches it, else
   * its syntax entry (parsed now); the server's when it has no syntax tier. Never waits for a build.
   */
  earlyFile(relPath: string): Promise<FileEntry>;
  /**
   * Every symbol whose name, or qualified name suffix, equals `name` (`ServeHTTP`,
   * `Router.ServeHTTP`, `App\Models\User::posts`, `flask.app.Flask.route`), filtered.
   * Builds the catalog first if needed.
   */
  lookup(name: string, filter?: SymbolFilter, opts?: LookupOptions): Promise<CatalogSymbol[]>;
  byId(symbolId: string, opts?: ReadOptions): Promise<CatalogSymbol | undefined>;
  /** The cataloged symbol without a freshness check (get_symbol's verify compares it to the disk). */
  peek(symbolId: string): Promise<CatalogSymbol | undefined>;
  /** The indexed symbol now, without building or checking the disk (filters over search results). */
  cached(symbolId: string): CatalogSymbol | undefined;
  /** Every cataloged symbol, in file then line order (builds first if needed). */
  all(opts?: ReadOptions): Promise<CatalogSymbol[]>;
  /**
   * Whether this process started from a finished build the database holds and its own build has not
   * finished yet (a warm start; the database is read, nothing built). False once the build is done: status says ready.
   */
  hasStored?(): boolean;
  /** Waits for the catalog as all() does, reading no symbol (they may be in the database). */
  ready(opts?: ReadOptions): Promise<void>;
  /** search_symbols' ranking over all(), its texts prepared once per catalog version. */
  searchTexts(opts?: ReadOptions): Promise<SymbolRanker>;
  /** Why no language server handles this cataloged file here (`NO_SERVER`, `SERVER_NOT_INSTALLED` …), or undefined. */
  serverless(rel: string): string | undefined;
  /** The cataloged files now (relative path → entry); read-only. */
  files(): ReadonlyMap<string, FileEntry>;
  /** The files' symbols counted without reading them (get_repo_outline); absent: count `files()`' symbols. */
  symbolTally?(): SymbolTally;
  /** Re-reads the given files (or every file whose hash changed) and re-catalogs them. */
  refresh(relPaths?: string[]): Promise<{ refreshed: string[]; errors: CatalogFileError[] }>;
  /** Re-catalogs any of `files` that changed on disk; true when one did. */
  freshen(files: Iterable<string>, opts?: ReadOptions): Promise<boolean>;
  /** Symbols added, removed and modified since the baseline; `reset` moves it to now. */
  drift(reset?: boolean): Promise<CatalogDrift>;
  /** Drops everything cataloged, in memory and on disk (invalidate_cache). */
  invalidate(): Promise<void>;
  /** Changes the walk's options (index_folder); a different walk drops the cataloged set. */
  configure(opts: CatalogWalkOptions): void;
  /** Patterns index_folder added (search_text walks with them too). */
  readonly extraIgnore: string[];
  /** What the last walk passed over, and the limits it hit. */
  readonly skipped: SkipCounts;
  readonly limitsHit: LimitHit[];
  /** Keeps call edges lspgate computed in the database's call_graph (those with both ends cataloged); answers how many were stored. */
  recordCalls?(edges: readonly CallEdgeRow[]): number;
  /** Resolves once every file change seen by the watcher so far is cataloged. */
  settled(): Promise<void>;
  /**
   * Every file cataloged: a running build finished (its watcher starts before its files are parsed),
   * a build run when none did (or after invalidate_cache), then the watcher's changes applied. An
   * unwatched catalog is built again (a walk) to see changes on disk.
   */
  complete(opts?: { signal?: AbortSignal }): Promise<void>;
  /** Stops watchers and flushes the on-disk snapshot. */
  close(): Promise<void>;
  /** Monotonic counter, bumped whenever a file is re-cataloged or removed (the operation cache's proof). */
  readonly version: number;
  /** True while a watcher reports disk changes to the catalog and the servers. */
  readonly watching: boolean;
  /** Starts watching the workspace if nothing does yet (without waiting for a build): the feed then reports changes on disk. */
  watch(): Promise<void>;
  /** The one change stream (added / changed / removed, after the gate). */
  readonly changes: ChangeFeed;
  /** What is derived from this catalog, dropped with it. */
  readonly derived: DerivedState;
}

/** Ranks the catalog's symbols for a search_symbols query (catalog/symbol-search.ts). */
export interface SymbolRanker {
  /** The catalog's symbols by position (a slot); undefined at a slot freed since (its file changed). */
  readonly symbols: readonly (CatalogSymbol | undefined)[];
  /** Matching symbols that `keep` lets through with their scores, best first. */
  rank(query: string, keep?: (s: CatalogSymbol) => boolean): { symbol: CatalogSymbol; score: number }[];
  /**
   * The first `k` of rank()'s list, or, given `major` (a key per symbol position, lower first),
   * of that list re-ordered by `major` first (stable); `total` counts every match.
   */
  top(query: string, keep: ((s: CatalogSymbol) => boolean) | undefined, k: number, major?: PolicyKey): RankedPage;
  /** The lower-cased name of the symbol at position `pos`. */
  lowerName(pos: number): string;
  /**
   * False when neither the lower-cased name of the symbol at `pos` has hash `hash` nor its
   * lower-cased qualified name `qualifiedHash` (catalog/symbol-search.ts textHash): then it is
   * named neither text. Reads no symbol object.
   */
  mayBeNamed(pos: number, hash: number, qualifiedHash: number): boolean;
}

/**
 * search_symbols' key before the score, per symbol position (lower first): from the symbol at `pos`,
 * or, given `stored`, from the parts a ranker keeps in the database (no symbol read; `stored` is
 * only valid during the call).
 */
export type PolicyKey = (pos: number, stored?: StoredKeyParts) => number;

/** What a ranker stores of a symbol for PolicyKey (db-symbol-search.ts): its names and the key's fixed part. */
export interface StoredKeyParts {
  /** The part that does not depend on the query (resolution-policy.ts fixedPolicyKey). */
  fixed: number;
  name: string;
  /** The name lower-cased (toLowerCase). */
  lname: string;
  /** The qualified name lower-cased. */
  lqn: string;
  /** The symbol itself, read when the parts cannot decide (its qualified name's exact case). */
  symbol(): CatalogSymbol | undefined;
}

export interface RankedPage {
  top: { symbol: CatalogSymbol; score: number }[];
  total: number;
}
