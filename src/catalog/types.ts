/**
 * The symbol catalog contract (issue 4 builds it out; the service resolves names through it).
 * A CatalogSymbol is one documentSymbol of one file, flattened, with a stable id
 * `relative/path::Qualified.name#kind` (seed 001).
 */
import type { SymbolKind } from '../schema/descriptors.js';

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
  state: 'empty' | 'building' | 'ready' | 'partial';
  files: number;
  symbols: number;
  indexed_at?: string;
  git_head?: string;
  index_version: number;
  /** Files that failed (with the error code), never silently dropped. */
  errors: { file: string; code: string; message: string }[];
}

export interface Catalog {
  /** Builds (or loads from disk and refreshes) the whole catalog; progress per file. */
  build(opts?: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void }): Promise<CatalogStatus>;
  status(): CatalogStatus;
  /** Symbols of one file (asks the server if the file is not cataloged or changed on disk). */
  fileSymbols(relPath: string): Promise<CatalogSymbol[]>;
  /**
   * Every symbol whose name, or qualified name suffix, equals `name` (`ServeHTTP`,
   * `Router.ServeHTTP`, `App\Models\User::posts`, `flask.app.Flask.route`), filtered.
   * Builds the catalog first if needed.
   */
  lookup(name: string, filter?: SymbolFilter): Promise<CatalogSymbol[]>;
  byId(symbolId: string): Promise<CatalogSymbol | undefined>;
  /** Every cataloged symbol, in file then line order (builds first if needed). */
  all?(): Promise<CatalogSymbol[]>;
  /** Cataloged files (also those without symbols) with the sha256 of their content. */
  files?(): { file: string; hash: string }[];
  /** Re-reads the given files (or every file whose hash changed) and re-catalogs them. */
  refresh(relPaths?: string[]): Promise<{ refreshed: string[]; errors: { file: string; code: string; message: string }[] }>;
  /** Stops watchers and flushes the on-disk snapshot. */
  close?(): Promise<void>;
  /** Monotonic counter, bumped whenever any file is re-cataloged or removed (cheap freshness check). */
  readonly version?: number;
  /** True while a watcher reports disk changes to the catalog and the servers. */
  readonly watching?: boolean;
}
