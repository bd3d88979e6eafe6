/**
 * In-memory indexes over the cataloged files: by id, by last name segment, with the filters of
 * `SymbolFilter`. Pure data; catalog.ts keeps it in step with the files.
 */
import type { FileEntry } from '../core/catalog.js';
import type { CatalogSymbol, SymbolFilter } from '../core/catalog.js';
import { globMatcher } from './glob.js';
import { matchesQuery, splitQualified } from './name-match.js';
import { shareStrings } from './shared-strings.js';

const JOURNAL_MAX = 4096;

export class SymbolIndex {
  readonly files = new Map<string, FileEntry>();
  private readonly ids = new Map<string, CatalogSymbol>();
  /**
   * Symbols by last name segment. Sets, not arrays: every file of a cold build is set twice (its
   * syntax entry, then its server's), and filtering an array per removed symbol was quadratic in
   * a common name's count (a generated 3,500-file repository: 17 minutes of catalog instead of 75 s).
   * Insertion order is kept, so lookups answer in the order the files were set.
   */
  private readonly names = new Map<string, Set<CatalogSymbol>>();
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
    this.files.set(rel, entry);
    for (const s of entry.symbols) {
      this.ids.set(s.symbol_id, s);
      const key = lastSegment(s.qualified_name);
      const set = this.names.get(key);
      if (set) set.add(s);
      else this.names.set(key, new Set([s]));
    }
  }

  removeFile(rel: string): void {
    const old = this.files.get(rel);
    if (!old) return;
    this.version++;
    this.note(rel);
    this.files.delete(rel);
    for (const s of old.symbols) {
      this.ids.delete(s.symbol_id);
      const key = lastSegment(s.qualified_name);
      const set = this.names.get(key);
      set?.delete(s);
      if (set?.size === 0) this.names.delete(key);
    }
  }

  clear(): void {
    this.version++;
    this.journal = [];
    this.journalFrom = this.version;
    this.files.clear();
    this.ids.clear();
    this.names.clear();
  }

  byId(id: string): CatalogSymbol | undefined {
    return this.ids.get(id);
  }

  symbolCount(): number {
    return this.ids.size;
  }

  *all(): Iterable<CatalogSymbol> {
    for (const entry of this.files.values()) yield* entry.symbols;
  }

  find(name: string, filter?: SymbolFilter): CatalogSymbol[] {
    const query = splitQualified(name);
    if (query.length === 0) return [];
    const hits = [...(this.names.get(query[query.length - 1]!) ?? [])].filter((s) => matchesQuery(s, query));
    return filter ? hits.filter(symbolFilter(filter, (id) => this.ids.get(id))) : hits;
  }
}

function lastSegment(qualified: string): string {
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
