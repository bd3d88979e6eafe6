/**
 * A process-wide memo of a pure function, bounded in bytes: each entry is counted by `size` (an
 * estimate of the memory it holds: strings at two bytes a character, plus a share for the map's
 * own entry), and when the next one would pass `maxBytes` the memo starts again empty. Clearing
 * beats least-recently-used bookkeeping for memos asked thousands of times per call (a hit is one
 * Map lookup), and a pure memo loses nothing but time. An entry larger than the whole bound is not
 * kept. The table of caches in docs/architecture.md names every one of these with its bound.
 *
 * A string key or value is kept as a string of its own (ownString): one cut from a file's text (a
 * term matched in it) would otherwise hold that whole text for as long as the entry lives.
 */
export class BoundedMemo<K, V> {
  private readonly map = new Map<K, V>();
  private used = 0;

  constructor(
    readonly maxBytes: number,
    private readonly size: (key: K, value: V) => number,
  ) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    const n = this.size(key, value);
    if (n > this.maxBytes) return;
    const old = this.map.get(key);
    if (old !== undefined || this.map.has(key)) this.used -= this.size(key, old as V);
    if (this.used + n > this.maxBytes) this.clear();
    this.map.set(ownString(key), ownString(value));
    this.used += n;
  }

  /** The bytes counted now (never above maxBytes). */
  get bytes(): number {
    return this.used;
  }

  get entries(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.used = 0;
  }
}

/**
 * `value` itself, or for a string of 13 characters or more (V8 cuts shorter ones by copying) a copy
 * that holds no other string: a substring, a match or a split part of a longer string is a slice of
 * it in V8 and keeps all of it alive. Measured: search_code over 2,940 node_modules files left 20 MB
 * of file texts in the heap, held by TERM_MEMO's keys (terms matched in them).
 */
export function ownString<T>(value: T): T {
  // the concatenation is flattened into a new string by the slice, which then refers to that one alone
  return typeof value === 'string' && value.length >= 13 ? ((' ' + value).slice(1) as T) : value;
}

/** The bytes a string holds in memory (UTF-16), for size estimates. */
export function stringBytes(s: string | undefined | null): number {
  return s ? 2 * s.length : 0;
}

/** What a Map entry costs beside its key and value (hash slot, entry object), rounded up. */
export const ENTRY_OVERHEAD = 64;
