/**
 * detect_drift's reference: the catalog as of the last load or build, and what was added, removed
 * and modified (by symbol content hash) since. The symbols are not copied when the baseline is set
 * (the index reads them from the database): the baseline holds the files' paths, and a file's
 * symbols (id → content hash) are kept when the index first replaces or removes it — what the drift
 * compares, file by file, with what the index holds now.
 */
import type { CatalogDrift } from '../core/catalog.js';
import type { SymbolIndex } from './symbol-index.js';

export class DriftBaseline {
  private files = new Set<string>();
  /** The baseline's symbols of the files changed since: id → content hash. */
  private changed = new Map<string, Map<string, string>>();
  at: string | undefined;

  constructor(private readonly index: SymbolIndex) {
    index.beforeRemove((rel, old) => {
      if (this.files.has(rel) && !this.changed.has(rel)) this.changed.set(rel, new Map(old.symbols.map((s) => [s.symbol_id, s.content_hash])));
    });
  }

  get size(): number {
    return this.files.size;
  }

  set(at = new Date().toISOString()): void {
    this.files = new Set(this.index.files.keys());
    this.changed = new Map();
    this.at = at;
  }

  clear(): void {
    this.files = new Set();
    this.changed = new Map();
    this.at = undefined;
  }

  /** Compares the index now with the baseline; `reset` moves the baseline to now. */
  compare(reset: boolean): CatalogDrift {
    const added: string[] = [];
    const modified: string[] = [];
    const removed: string[] = [];
    for (const [rel, entry] of this.index.files) {
      if (this.files.has(rel) && !this.changed.has(rel)) continue;
      const before = this.changed.get(rel) ?? new Map<string, string>();
      const now = new Set<string>();
      for (const s of entry.symbols) {
        now.add(s.symbol_id);
        const hash = before.get(s.symbol_id);
        if (hash === undefined) added.push(s.symbol_id);
        else if (hash !== s.content_hash) modified.push(s.symbol_id);
      }
      for (const id of before.keys()) if (!now.has(id)) removed.push(id);
    }
    for (const [rel, before] of this.changed) if (!this.index.files.has(rel)) removed.push(...before.keys());
    const since = this.at;
    if (reset) this.set();
    return { added: [...new Set(added)].sort(), removed: [...new Set(removed)].sort(), modified: [...new Set(modified)].sort(), since };
  }
}
