/**
 * The index's writer and reader (symbol-index.ts's backing): the workspace database (store.ts)
 * holds every file's symbols, the index their stamps. The files the index set or removed since the
 * last write are written every 500 ms after a change, or at once when enough of them wait (in
 * slices of SLICE_MS with a turn of the event loop between them) — during a build too, so a build
 * killed half-way keeps what it cataloged — each write (a slice, or a whole flush) in one transaction
 * (one commit, and no savepoint per file: FTS5 writes its pending terms to disk at each); at the end
 * of a build the head is saved. A write that fails keeps the file's
 * symbols in memory (the answers are unaffected) and is tried again: the log and the next answer
 * say it.
 */
import type { CallEdgeRow } from '../core/catalog.js';
import { toLspgateError } from '../errors/errors.js';
import { SymbolTextsReader } from '../store/symbol-texts-reader.js';
import type { Logger } from '../util/logger.js';
import type { CatalogHead, CatalogStore } from './store.js';
import type { SymbolIndex } from './symbol-index.js';

/** The longest one background write holds the thread (flushSliced). */
const SLICE_MS = 20;

export class CatalogKeeper {
  private timer: NodeJS.Timeout | undefined;
  /** The next slice of a background write (flushSliced). */
  private slice: NodeJS.Immediate | undefined;
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
  ) {
    // a read that fails answers from what the index holds in memory: files it could not write are there
    index.attach({
      symbolsOf: (rel) => this.read(() => store.symbolsOf(rel)),
      fileOfId: (id) => this.read(() => store.fileOfId(id)),
      filesNamed: (key) => this.read(() => store.filesNamed(key)) ?? [],
      // counted into a copy first: a read failing half-way must not leave half its counts added
      countKinds: (of, add) => {
        const counted = this.read(() => {
          const into = new Map<string, number>();
          store.countKinds(of, (kind, n) => into.set(kind, (into.get(kind) ?? 0) + n));
          return into;
        });
        if (!counted) return false;
        for (const [kind, n] of counted) add(kind, n);
        return true;
      },
      // while writes fail, only the timer tries again (not every file set)
      full: () => (this.failing ? this.schedule() : this.slice ? undefined : this.flushSliced()),
    });
  }

  get file(): string {
    return this.store.file;
  }

  /** The stored files' stamps go into the index; the last finished build's head is returned (undefined: none). */
  load(): CatalogHead | undefined {
    return this.guard(() => {
      const loaded = this.store.load((rel, entry, count) => this.index.setStored(rel, entry, count));
      this.tellRebuilt();
      return loaded;
    });
  }

  schedule(): void {
    // closed: a late watcher event must not open the database again (its cache may be gone)
    if (this.closed) return;
    this.timer ??= setTimeout(() => this.flushSliced(), 500).unref();
  }

  /**
   * The background writes (the timer's, a full batch's): SLICE_MS of writing at a time, the rest
   * after a turn of the event loop. Written at once, 256 files of a cold pass held the thread that
   * answers every client for 0.6–1.3 s (load 4–5) while a question waited on a server's messages.
   */
  private flushSliced(): void {
    this.cancel();
    if (this.closed) return;
    const until = performance.now() + SLICE_MS;
    this.guard(() =>
      this.index.flush(
        (rel, entry) => (entry ? this.store.writeFile(rel, entry) : this.store.removeFile(rel)),
        (writeAll) => this.store.batch(writeAll),
        () => performance.now() >= until,
      ),
    );
    if (this.index.unwritten > 0 && !this.failing) this.slice = setImmediate(() => this.flushSliced()).unref();
  }

  get pending(): boolean {
    return this.timer !== undefined || this.slice !== undefined;
  }

  /** Writes the files set or removed since the last write, in one transaction (a failure leaves them all pending). */
  flush(): void {
    this.cancel();
    if (this.closed) return;
    this.guard(() =>
      this.index.flush(
        (rel, entry) => (entry ? this.store.writeFile(rel, entry) : this.store.removeFile(rel)),
        (writeAll) => this.store.batch(writeAll),
      ),
    );
  }

  /** Every pending file, and the head (the end of a build). */
  saveNow(): void {
    this.flush();
    this.guard(() => this.store.saveHead(this.head()));
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
    if (this.failing || this.index.unwritten > 0) return undefined;
    return this.guard(() => {
      const { db } = this.store.db;
      if (this.reader?.db !== db) this.reader = { db, reader: new SymbolTextsReader(db) };
      return this.reader.reader;
    });
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.slice) clearImmediate(this.slice);
    this.timer = undefined;
    this.slice = undefined;
  }

  /** invalidate_cache: the stored catalog goes. */
  delete(): void {
    this.cancel();
    this.guard(() => this.store.clear());
  }

  close(): void {
    if (this.index.unwritten) this.flush();
    this.closed = true;
    this.cancel();
    this.store.close();
  }

  private read<T>(fn: () => T): T | undefined {
    if (this.closed) return undefined;
    try {
      return fn();
    } catch (e) {
      const err = toLspgateError(e);
      this.logger.warn(`the catalog could not be read from ${this.file} (${err.code}: ${err.message}); answering from memory`);
      return undefined;
    }
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
      // the answers are unaffected (unwritten files stay in memory), but a silent failure costs a
      // whole rebuild at the next start with no one told why: the log and the next answer say it
      const err = toLspgateError(e);
      const message = `the catalog could not be saved to ${this.file} (${err.code}: ${err.message}); answers are unaffected, the next start catalogs the workspace again`;
      this.logger.warn(message);
      if (!this.failing) this.notice?.(message);
      this.failing = true;
      return undefined;
    }
  }
}
