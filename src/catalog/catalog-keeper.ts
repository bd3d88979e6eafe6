/**
 * Keeps the workspace database (store.ts) in step with the in-memory index: the files the index
 * changed (its journal) are written every 500 ms after a change — during a build too, so a build
 * killed half-way keeps what it cataloged — each file in its own transaction; at the end of a build
 * every file whose stamps differ from the stored ones is written and the head is saved. A write
 * that fails costs nothing but the next start's work: the log and the next answer say it.
 */
import type { FileEntry } from '../core/catalog.js';
import type { CallEdgeRow } from '../core/catalog.js';
import { toLspgateError } from '../errors/errors.js';
import { SymbolTextsReader } from '../store/symbol-texts-reader.js';
import type { Logger } from '../util/logger.js';
import { type CatalogHead, CatalogStore } from './store.js';
import type { SymbolIndex } from './symbol-index.js';

export class CatalogKeeper {
  private timer: NodeJS.Timeout | undefined;
  /** The index version the database holds every change up to. */
  private written = 0;
  /** A save failed since the last one that worked: the warning is given once per such streak. */
  private failing = false;
  /** Why the database was rebuilt at open, for the next answer (once). */
  private rebuiltTold = false;
  private closed = false;
  private reader: { db: unknown; reader: SymbolTextsReader } | undefined;

  constructor(
    readonly store: CatalogStore,
    private readonly index: SymbolIndex,
    private readonly head: () => CatalogHead,
    private readonly logger: Logger,
    private readonly notice?: (message: string) => void,
  ) {}

  get file(): string {
    return this.store.file;
  }

  /** The stored files go into the index; the last finished build's head is returned (undefined: none). */
  load(): CatalogHead | undefined {
    return this.guard(() => {
      // files cataloged before the load (an outline asked before the first build) are not stored yet
      const before = this.index.changedSince(this.written);
      const loaded = this.store.load((rel, entry) => this.index.setFile(rel, entry));
      this.tellRebuilt();
      // so many that the journal no longer names them: the next flush compares every file's stamps
      this.written = before ? this.index.version : -1;
      for (const rel of new Set(before)) this.writeOne(rel, this.index.files.get(rel));
      return loaded;
    });
  }

  schedule(): void {
    // closed: a late watcher event must not open the database again (its cache may be gone)
    if (this.closed) return;
    this.timer ??= setTimeout(() => this.flush(), 500).unref();
  }

  get pending(): boolean {
    return this.timer !== undefined;
  }

  /** Writes the files changed since the last write; all of them (by stamps) when the journal no longer reaches back. */
  flush(): void {
    this.cancel();
    const changed = this.index.changedSince(this.written);
    if (!changed) return this.saveNow();
    this.guard(() => {
      const version = this.index.version;
      for (const rel of new Set(changed)) this.writeOne(rel, this.index.files.get(rel));
      this.written = version;
    });
  }

  /** Every file whose stamps differ from the stored ones, files the index no longer has removed, and the head. */
  saveNow(): void {
    this.cancel();
    this.guard(() => {
      const version = this.index.version;
      const stored = this.store.stamps();
      for (const [rel, entry] of this.index.files) {
        if (stored.get(rel) !== CatalogStore.stampOf(entry)) this.writeOne(rel, entry);
        stored.delete(rel);
      }
      for (const rel of stored.keys()) this.store.removeFile(rel);
      this.store.saveHead(this.head());
      this.written = version;
    });
  }

  /** Call edges between symbols the database holds: the files changed since the last write are written first. */
  recordCalls(edges: readonly CallEdgeRow[]): number {
    this.flush();
    return this.guard(() => this.store.recordCalls(edges)) ?? 0;
  }

  /**
   * search_symbols' reads (store/symbol-texts-reader.ts) once the database holds every change of the index
   * (pending writes are made first); undefined when it cannot (closed, or a write failed).
   */
  searchReader(): SymbolTextsReader | undefined {
    if (this.closed) return undefined;
    this.flush();
    if (this.failing || this.written !== this.index.version) return undefined;
    return this.guard(() => {
      const { db } = this.store.db;
      if (this.reader?.db !== db) this.reader = { db, reader: new SymbolTextsReader(db) };
      return this.reader.reader;
    });
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** invalidate_cache: the stored catalog goes. */
  delete(): void {
    this.cancel();
    this.guard(() => this.store.clear());
    this.written = this.index.version;
  }

  close(): void {
    this.closed = true;
    this.cancel();
    this.store.close();
  }

  private writeOne(rel: string, entry: FileEntry | undefined): void {
    if (entry) this.store.writeFile(rel, entry);
    else this.store.removeFile(rel);
  }

  private tellRebuilt(): void {
    const why = this.store.db.rebuilt;
    if (!why || this.rebuiltTold) return;
    this.rebuiltTold = true;
    this.logger.warn(why);
    this.notice?.(why);
  }

  private guard<T>(fn: () => T): T | undefined {
    try {
      const r = fn();
      this.failing = false;
      return r;
    } catch (e) {
      // the answers are unaffected (the catalog is in memory), but a silent failure costs a whole
      // rebuild at the next start with no one told why: the log and the next answer say it
      const err = toLspgateError(e);
      const message = `the catalog could not be saved to ${this.file} (${err.code}: ${err.message}); answers are unaffected, the next start catalogs the workspace again`;
      this.logger.warn(message);
      if (!this.failing) this.notice?.(message);
      this.failing = true;
      return undefined;
    }
  }
}
