/**
 * The cataloged files and their symbols: by path, by id, by last name segment, with the filters of
 * `SymbolFilter`. With a backing store (the workspace database, attached by catalog-keeper.ts) the
 * heap holds each file's stamps only — hash, size, mtime, language, server, tier — and a file's
 * symbols are read from the database when asked, a bounded number of files kept (entry-cache.ts);
 * a file set since the last write keeps its symbols in memory until the keeper writes it (a
 * batch every 500 ms, or at once when PENDING_MAX files wait). Without a store (tests, a catalog
 * with no cache) every file's symbols stay in memory.
 *
 * The entry handed to `setFile` is the one `files.get` answers afterwards (identity is how
 * freshness.ts and catalog-files.ts tell that a file changed): its `symbols` becomes a getter.
 */
import type { CatalogSymbol, FileEntry, SymbolFilter } from '../core/catalog.js';
import { EntryCache } from './entry-cache.js';
import { globMatcher } from './glob.js';
import { matchesQuery, splitQualified } from './name-match.js';
import { shareStrings } from './shared-strings.js';

const JOURNAL_MAX = 4096;
/** Files set and not yet written before the index asks its store to write them at once. */
const PENDING_MAX = 256;

/** What the index reads from and writes to (store.ts through catalog-keeper.ts). */
export interface IndexBacking {
  /** The stored symbols of a file, in entry order; undefined when the file is not stored. */
  symbolsOf(rel: string): CatalogSymbol[] | undefined;
  /** The stored file that declares the symbol id. */
  fileOfId(id: string): string | undefined;
  /** The stored files declaring a symbol whose last name segment is `key`. */
  filesNamed(key: string): string[];
  /** Asked when PENDING_MAX files wait to be written: the keeper writes them (`flush`). */
  full(): void;
  /**
   * Counts the stored symbols of the files in `of` by kind into `add`, in the database (no symbol
   * read into the heap); false when the store could not be read.
   */
  countKinds?(of: ReadonlySet<string>, add: (kind: string, n: number) => void): boolean;
}

const META = Symbol('lspgate.fileStamp');

interface Stamp {
  rel: string;
  seq: number;
  count: number;
  /** The file's symbols while they are not in the store (or are no longer the stored ones). */
  held: CatalogSymbol[] | undefined;
  owner: SymbolIndex;
}

type Stamped = FileEntry & { [META]: Stamp };

function symbolsGetter(this: Stamped): CatalogSymbol[] {
  const m = this[META];
  return m.held ?? m.owner.storedSymbols(this);
}

function symbolsSetter(this: Stamped, value: CatalogSymbol[]): void {
  this[META].owner.reheld(this, value);
}

/** The index's files as a read-only map: stamps in memory, symbols read when asked. */
class FilesView implements ReadonlyMap<string, FileEntry> {
  constructor(private readonly stamps: Map<string, Stamped>) {}
  get size(): number {
    return this.stamps.size;
  }
  get(rel: string): FileEntry | undefined {
    return this.stamps.get(rel);
  }
  has(rel: string): boolean {
    return this.stamps.has(rel);
  }
  keys(): MapIterator<string> {
    return this.stamps.keys();
  }
  values(): MapIterator<FileEntry> {
    return this.stamps.values();
  }
  entries(): MapIterator<[string, FileEntry]> {
    return this.stamps.entries();
  }
  [Symbol.iterator](): MapIterator<[string, FileEntry]> {
    return this.stamps.entries();
  }
  forEach(fn: (value: FileEntry, key: string, map: ReadonlyMap<string, FileEntry>) => void): void {
    for (const [k, v] of this.stamps) fn(v, k, this);
  }
}

export class SymbolIndex {
  private readonly stamps = new Map<string, Stamped>();
  readonly files: ReadonlyMap<string, FileEntry> = new FilesView(this.stamps);
  /** Files whose symbols the store does not hold yet (undefined: removed since the last write). */
  private readonly pending = new Map<string, Stamped | undefined>();
  private readonly cache = new EntryCache<CatalogSymbol[]>();
  private backing: IndexBacking | undefined;
  private removing: ((rel: string, old: FileEntry) => void)[] = [];
  private seq = 0;
  private symbols = 0;
  /** Monotonic: bumped whenever a file's symbols are set or removed (the operation cache's proof). */
  version = 0;
  /**
   * Which file changed at which version, the last JOURNAL_MAX of them: what structures derived
   * from the index and kept in step with it at query time (search_symbols' texts) re-read, instead
   * of rebuilding from every file. The change feed tells listeners later, in batches; these must
   * answer from exactly what the index holds when they are asked.
   */
  private journal: { version: number; rel: string }[] = [];
  private journalFrom = 0;

  get sequence(): number {
    return this.version;
  }

  /** Symbols are read from `backing` from now on; files set before stay pending until written. */
  attach(backing: IndexBacking): void {
    this.backing = backing;
  }

  /** `fn` sees a file's entry just before the index replaces or removes it (its symbols still readable). */
  beforeRemove(fn: (rel: string, old: FileEntry) => void): void {
    this.removing.push(fn);
  }

  /** Files set or removed after `version`; undefined when the journal no longer reaches that far back. */
  changedSince(version: number): string[] | undefined {
    if (version < this.journalFrom) return undefined;
    const out: string[] = [];
    for (let i = this.journal.length - 1; i >= 0 && this.journal[i]!.version > version; i--) out.push(this.journal[i]!.rel);
    return out;
  }

  private note(rel: string): void {
    this.journal.push({ version: this.version, rel });
    if (this.journal.length > JOURNAL_MAX) {
      const cut = this.journal.length - JOURNAL_MAX / 2;
      this.journalFrom = this.journal[cut - 1]!.version;
      this.journal = this.journal.slice(cut);
    }
  }

  setFile(rel: string, entry: FileEntry): void {
    this.removeFile(rel);
    this.version++;
    this.note(rel);
    shareStrings(rel, entry);
    const stamped = this.stamp(rel, entry, entry.symbols, entry.symbols.length);
    this.pending.set(rel, stamped);
    if (this.backing && this.pending.size >= PENDING_MAX) this.backing.full();
  }

  /** A file the store holds already (a warm start): its stamps only; its symbols are read when asked. */
  setStored(rel: string, entry: Omit<FileEntry, 'symbols'>, count: number): void {
    // set or removed in this process before the load (an outline before the first build): newer than the row
    if (this.pending.has(rel)) return;
    this.version++;
    const old = this.stamps.get(rel);
    if (old) this.symbols -= old[META].count;
    this.stamp(rel, entry as FileEntry, undefined, count);
  }

  private stamp(rel: string, entry: FileEntry, held: CatalogSymbol[] | undefined, count: number): Stamped {
    const stamped = entry as Stamped;
    Object.defineProperty(stamped, 'symbols', { get: symbolsGetter, set: symbolsSetter, enumerable: true, configurable: true });
    stamped[META] = { rel, seq: ++this.seq, count, held, owner: this };
    this.stamps.set(rel, stamped);
    this.symbols += count;
    return stamped;
  }

  removeFile(rel: string): void {
    const old = this.stamps.get(rel);
    if (!old) return;
    for (const fn of this.removing) fn(rel, old);
    this.version++;
    this.note(rel);
    this.stamps.delete(rel);
    this.symbols -= old[META].count;
    // whoever still holds the old entry keeps its symbols when they are at hand
    old[META].held ??= this.cache.get(rel);
    this.cache.delete(rel);
    this.pending.set(rel, undefined);
  }

  clear(): void {
    this.version++;
    this.journal = [];
    this.journalFrom = this.version;
    for (const s of this.stamps.values()) s[META].held ??= this.cache.get(s[META].rel);
    this.stamps.clear();
    this.pending.clear();
    this.cache.clear();
    this.symbols = 0;
  }

  /**
   * The files set or removed since the last write, each handed to `write`, all inside `batch` (the
   * store's one transaction): they are written when `batch` returns; when it throws (a write or the
   * commit failed, the transaction rolled back) every file stays pending. With `enough`, a slice:
   * the files written before it said so, in that one transaction; the others stay pending.
   */
  flush(write: (rel: string, entry: FileEntry | undefined) => void, batch: (writeAll: () => void) => void = (f) => f(), enough?: () => boolean): void {
    const done: [string, Stamped | undefined][] = [];
    batch(() => {
      for (const [rel, entry] of this.pending) {
        // a slice writes one file at least, then stops when `enough` says so (the rest stay pending)
        if (done.length > 0 && enough?.()) return;
        write(rel, entry);
        done.push([rel, entry]);
      }
    });
    for (const [rel, entry] of done) {
      this.pending.delete(rel);
      if (!entry) continue;
      const symbols = entry[META].held;
      entry[META].held = undefined;
      if (this.stamps.get(rel) === entry) this.cache.set(rel, symbols!);
    }
  }

  get unwritten(): number {
    return this.pending.size;
  }

  /** Files with symbols in memory (pending or cached): what the index holds beyond stamps. */
  get resident(): number {
    return this.pending.size + this.cache.size;
  }

  /** `entry.symbols = value`: the file's symbols are those now, to be written. */
  reheld(entry: Stamped, value: CatalogSymbol[]): void {
    const m = entry[META];
    this.symbols += value.length - m.count;
    m.count = value.length;
    m.held = value;
    if (this.stamps.get(m.rel) === entry) {
      this.cache.delete(m.rel);
      this.pending.set(m.rel, entry);
    }
  }

  /** The stored symbols of `entry` (the getter of a written entry). */
  storedSymbols(entry: Stamped): CatalogSymbol[] {
    const { rel } = entry[META];
    const current = this.stamps.get(rel) === entry;
    const cached = current ? this.cache.get(rel) : undefined;
    if (cached) return cached;
    const symbols = this.backing?.symbolsOf(rel) ?? [];
    if (current) this.cache.set(rel, symbols);
    return symbols;
  }

  byId(id: string): CatalogSymbol | undefined {
    // an id starts with its file's path: that file first, the store's symbol_id index otherwise
    const sep = id.indexOf('::');
    const named = sep > 0 ? this.stamps.get(id.slice(0, sep))?.symbols.findLast((s) => s.symbol_id === id) : undefined;
    if (named) return named;
    const rel = this.backing?.fileOfId(id);
    return rel === undefined ? undefined : this.stamps.get(rel)?.symbols.findLast((s) => s.symbol_id === id);
  }

  symbolCount(): number {
    return this.symbols;
  }

  /** The number of symbols of a file (what `files.get(rel).symbols.length` answers), without reading them. */
  countOf(rel: string): number {
    return this.stamps.get(rel)?.[META].count ?? 0;
  }

  /**
   * Every file's symbols counted by kind, as reading each file's `symbols` would count them: those
   * in memory (pending, cached) from memory, the stored ones in the database (get_repo_outline:
   * reading every stored symbol into the heap to count it grew the process by ~60 MB at 3,500 files).
   */
  kindCounts(): Map<string, number> {
    const kinds = new Map<string, number>();
    const add = (kind: string, n: number) => kinds.set(kind, (kinds.get(kind) ?? 0) + n);
    const stored = new Set<string>();
    for (const [rel, entry] of this.stamps) {
      const m = entry[META];
      const inMemory = m.held ?? this.cache.peek(rel);
      if (inMemory) for (const s of inMemory) add(s.kind, 1);
      else if (m.count > 0) stored.add(rel);
    }
    if (stored.size === 0 || this.backing?.countKinds?.(stored, add)) return kinds;
    for (const rel of stored) for (const s of this.stamps.get(rel)!.symbols) add(s.kind, 1);
    return kinds;
  }

  /** Every symbol, file by file in the index's order; each file's symbols are read as the iteration reaches it. */
  *all(): Iterable<CatalogSymbol> {
    for (const entry of [...this.stamps.values()]) yield* entry.symbols;
  }

  find(name: string, filter?: SymbolFilter): CatalogSymbol[] {
    const query = splitQualified(name);
    if (query.length === 0) return [];
    const key = query[query.length - 1]!;
    const files = new Set(this.backing?.filesNamed(key) ?? []);
    for (const [rel, entry] of this.pending) if (entry) files.add(rel);
    const order = [...files].flatMap((rel) => {
      const entry = this.stamps.get(rel);
      return entry ? [entry] : [];
    });
    order.sort((a, b) => a[META].seq - b[META].seq);
    const hits = order.flatMap((e) => e.symbols.filter((s) => lastSegment(s.qualified_name) === key && matchesQuery(s, query)));
    return filter ? hits.filter(symbolFilter(filter, (id) => this.byId(id))) : hits;
  }
}

export function lastSegment(qualified: string): string {
  const parts = splitQualified(qualified);
  return parts[parts.length - 1] ?? qualified;
}

/** A predicate for SymbolFilter; `class_name` matches the enclosing symbol's name. */
export function symbolFilter(filter: SymbolFilter, byId: (id: string) => CatalogSymbol | undefined): (s: CatalogSymbol) => boolean {
  const kinds = filter.kind === undefined ? undefined : new Set(Array.isArray(filter.kind) ? filter.kind : [filter.kind]);
  const glob = filter.file_pattern ? globMatcher(filter.file_pattern) : undefined;
  return (s) => {
    if (kinds && !kinds.has(s.kind)) return false;
    if (filter.language && s.language !== filter.language) return false;
    if (filter.package && s.package !== filter.package && !s.package?.endsWith(`/${filter.package}`) && !s.package?.endsWith(`.${filter.package}`))
      return false;
    if (filter.namespace && s.namespace !== filter.namespace && s.namespace !== filter.namespace.replace(/^\\/, '')) return false;
    if (filter.class_name) {
      const owner = s.parent ? byId(s.parent)?.name : splitQualified(s.qualified_name).slice(-2, -1)[0];
      if (owner !== filter.class_name) return false;
    }
    if (glob && !glob(s.file)) return false;
    return true;
  };
}
