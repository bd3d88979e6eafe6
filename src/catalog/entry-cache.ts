/**
 * The files' symbols the index keeps in memory after reading them from the store (symbol-index.ts):
 * least recently used first out, bounded by their symbols' count (a file's weight), so the heap
 * holds a few thousand symbols whatever the repository's size. A Map's insertion order is the
 * recency order: a hit is moved to the end. Not lru-cache (used for the process-wide caches): it
 * refuses an entry heavier than its bound, and a file with more symbols than the bound is the one
 * being read, which must stay.
 */
export const CACHED_SYMBOLS = 16_384;

export class EntryCache<T extends readonly unknown[]> {
  private readonly map = new Map<string, T>();
  private weight = 0;

  constructor(private readonly max = CACHED_SYMBOLS) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string): T | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** The value without making it the most recent. */
  peek(key: string): T | undefined {
    return this.map.get(key);
  }

  set(key: string, value: T): void {
    this.delete(key);
    this.map.set(key, value);
    this.weight += value.length;
    // the entry just set stays, whatever its weight
    for (const [k, v] of this.map) {
      if (this.weight <= this.max || k === key) break;
      this.map.delete(k);
      this.weight -= v.length;
    }
  }

  delete(key: string): void {
    const v = this.map.get(key);
    if (v === undefined) return;
    this.map.delete(key);
    this.weight -= v.length;
  }

  clear(): void {
    this.map.clear();
    this.weight = 0;
  }
}
