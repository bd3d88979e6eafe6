/**
 * detect_drift's reference: the symbols (id → content hash) as of the last load or build, and
 * what was added, removed and modified since.
 */
import type { CatalogDrift } from '../core/catalog.js';
import type { SymbolIndex } from './symbol-index.js';

export class DriftBaseline {
  private hashes = new Map<string, string>();
  at: string | undefined;

  constructor(private readonly index: SymbolIndex) {}

  get size(): number {
    return this.hashes.size;
  }

  set(at = new Date().toISOString()): void {
    this.hashes = this.current();
    this.at = at;
  }

  clear(): void {
    this.hashes = new Map();
    this.at = undefined;
  }

  /** Compares the index now with the baseline; `reset` moves the baseline to now. */
  compare(reset: boolean): CatalogDrift {
    const now = this.current();
    const added: string[] = [];
    const modified: string[] = [];
    for (const [id, hash] of now) {
      const before = this.hashes.get(id);
      if (before === undefined) added.push(id);
      else if (before !== hash) modified.push(id);
    }
    const removed = [...this.hashes.keys()].filter((id) => !now.has(id));
    const since = this.at;
    if (reset) this.set();
    return { added: added.sort(), removed: removed.sort(), modified: modified.sort(), since };
  }

  private current(): Map<string, string> {
    const m = new Map<string, string>();
    for (const s of this.index.all()) m.set(s.symbol_id, s.content_hash);
    return m;
  }
}
