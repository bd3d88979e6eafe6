/**
 * The response cache: answers of read-only LSP requests, bounded by bytes (lru-cache), keyed so
 * that a stale answer can never be found. A key holds the server id, root and generation (a
 * restarted server is a new server), the method and params, the content hash of the requested
 * document, and — for every answer that can depend on other files — the workspace epoch of that
 * server, which increments on ANY file change synced or notified to it. Invalidation is therefore
 * by construction: a change makes new keys, and the old entries age out of the LRU.
 *
 * Identical requests in flight at the same time share one server round trip (coalescing).
 */
import { LRUCache } from 'lru-cache';

import { LspgateError } from '../errors/errors.js';
import { deepFreeze } from '../util/freeze.js';

export interface ResponseCacheOptions {
  /** Upper bound of the stored answers, in bytes of their JSON (limits.cacheBytes). */
  maxBytes: number;
  /** Largest single answer kept, in bytes; default a quarter of maxBytes. */
  maxEntryBytes?: number;
}

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  /** Requests that joined an identical request already in flight. */
  coalesced: number;
  /** Requests that could not be cached (server indexing, document not synced, method not cacheable). */
  bypassed: number;
  stored: number;
  entries: number;
  bytes: number;
  /** Epoch increments (file changes) seen, all servers together. */
  invalidations: number;
}

interface Stored {
  /** Parsed once when stored, never handed out: every get returns a copy. */
  value: unknown;
  size: number;
}

/**
 * A deep copy of JSON data (what servers answer, what JSON.parse makes). Copying the parsed tree is
 * 2-3x faster than parsing its JSON again, which a warm call paid for every documentSymbol answer
 * it reused (bench/profile-warm: ~0.2-0.4 ms of a warm definition or references call).
 */
export function cloneJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneJson(v[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined) continue;
    // JSON.parse makes "__proto__" an own property; an assignment would set the prototype instead.
    if (k === '__proto__') Object.defineProperty(out, k, { value: cloneJson(x), enumerable: true, writable: true, configurable: true });
    else out[k] = cloneJson(x);
  }
  return out as T;
}

/** Objects in the heap take about three times their JSON text: the bound stays one of memory. */
const OBJECT_FACTOR = 3;

const live = new Set<WeakRef<ResponseCache>>();

/** Every cache alive in this process: the benchmark clears them to measure uncached warm calls. */
export function liveResponseCaches(): ResponseCache[] {
  const out: ResponseCache[] = [];
  for (const ref of live) {
    const c = ref.deref();
    if (c) out.push(c);
    else live.delete(ref);
  }
  return out;
}

/** `LSPGATE_RESPONSE_CACHE=off` turns the cache (not the coalescing) off, for benchmarks and bisecting. */
export function responseCacheEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = (env.LSPGATE_RESPONSE_CACHE ?? '').toLowerCase();
  return !(v === 'off' || v === '0' || v === 'false');
}

export class ResponseCache {
  private readonly lru: LRUCache<string, Stored>;
  private readonly epochs = new Map<string, number>();
  /** Bumped by invalidateWorkspaceAnswers: every server's workspace-wide answers at once. */
  private globalEpoch = 0;
  /** Bumped by clear(): results built on answers that were dropped must go with them. */
  private clears = 0;
  private readonly inflight = new Map<string, InFlight<unknown>>();
  private readonly counters = { hits: 0, misses: 0, coalesced: 0, bypassed: 0, stored: 0, invalidations: 0 };

  constructor(opts: ResponseCacheOptions) {
    this.lru = new LRUCache<string, Stored>({
      maxSize: opts.maxBytes,
      maxEntrySize: opts.maxEntryBytes ?? Math.max(1, Math.floor(opts.maxBytes / 4)),
      sizeCalculation: (v, k) => v.size + Buffer.byteLength(k),
    });
    live.add(new WeakRef(this));
  }

  /** The current epoch of one server at one root (0 until the first change). */
  epoch(scope: string): number {
    return this.epochs.get(scope) ?? 0;
  }

  /** What workspace-wide keys of this scope carry: changes to it and global invalidations. */
  epochKey(scope: string): string {
    return `${this.globalEpoch}.${this.epoch(scope)}`;
  }

  /**
   * One string that changes whenever an answer of this scope could differ from before: a file
   * change synced or notified to the server, a global invalidation, or a clear. The operation
   * cache stores it with each result (cheap: no hashing, no allocation beyond the string).
   */
  stamp(scope: string): string {
    return `${this.clears}.${this.globalEpoch}.${this.epoch(scope)}`;
  }

  /**
   * Makes every workspace-wide answer (references, definitions, hovers, call hierarchy...) of every
   * server unreachable; document-local ones (documentSymbol) stay. For callers that learn of
   * changes the servers were not told about, and for the benchmark's warm-but-not-cached runs.
   */
  invalidateWorkspaceAnswers(): void {
    this.globalEpoch++;
    this.counters.invalidations++;
  }

  /** A file changed for this server: every workspace-wide answer of it becomes unreachable. */
  bumpEpoch(scope: string): void {
    this.epochs.set(scope, this.epoch(scope) + 1);
    this.counters.invalidations++;
  }

  /**
   * A fresh copy of the stored answer (callers may sort or mutate what they get); with `copy`
   * false, the stored answer itself, deep-frozen (for callers that only read it: copying a large
   * file's documentSymbol answer was the largest single cost of a warm find_definition).
   */
  get(key: string, copy = true): { value: unknown } | undefined {
    const hit = this.lru.get(key);
    if (!hit) return undefined;
    this.counters.hits++;
    return { value: copy ? cloneJson(hit.value) : hit.value };
  }

  set(key: string, value: unknown): void {
    // `undefined` (a void answer) has no JSON form; a null answer is a real answer and is kept.
    const json = JSON.stringify(value === undefined ? null : value);
    const stored: unknown = deepFreeze(JSON.parse(json));
    const size = Buffer.byteLength(json) * (stored !== null && typeof stored === 'object' ? OBJECT_FACTOR : 1);
    this.lru.set(key, { value: stored, size });
    if (this.lru.has(key)) this.counters.stored++;
  }

  /**
   * Runs `fetch` once for all concurrent callers of `key`. With `store()` true when it answers, a
   * successful answer is cached (errors never are). Each caller may abort on its own; the shared
   * request is cancelled only when every caller waiting on it has aborted.
   */
  async getOrFetch<T>(key: string, store: () => boolean, fetch: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal, readOnly = false): Promise<T> {
    const hit = this.get(key, !readOnly);
    if (hit) return hit.value as T;
    let flight = this.inflight.get(key) as InFlight<T> | undefined;
    // An aborted flight stays in the map until it settles: a new caller must not join it (it would
    // answer CANCELLED for a request this caller never cancelled), so it starts a fresh one.
    if (flight && !flight.aborted) {
      this.counters.coalesced++;
      const shared = await flight.join(signal);
      return cloneJson(shared);
    }
    this.counters.misses++;
    flight = new InFlight<T>(fetch);
    this.inflight.set(key, flight as InFlight<unknown>);
    flight.promise.then(
      (value) => {
        if (this.inflight.get(key) === flight) this.inflight.delete(key);
        if (store()) this.set(key, value);
      },
      () => {
        if (this.inflight.get(key) === flight) this.inflight.delete(key);
      },
    );
    return flight.join(signal);
  }

  noteBypass(): void {
    this.counters.bypassed++;
  }

  stats(): ResponseCacheStats {
    return { ...this.counters, entries: this.lru.size, bytes: this.lru.calculatedSize ?? 0 };
  }

  /** Drops every stored answer (not the epochs, not the counters). */
  clear(): void {
    this.clears++;
    this.lru.clear();
  }

  resetStats(): void {
    for (const k of Object.keys(this.counters) as (keyof typeof this.counters)[]) this.counters[k] = 0;
  }
}

/** One server round trip shared by every identical concurrent caller. */
class InFlight<T> {
  readonly promise: Promise<T>;
  private readonly controller = new AbortController();
  private waiting = 0;

  constructor(fetch: (signal: AbortSignal) => Promise<T>) {
    this.promise = fetch(this.controller.signal);
    // Callers that abort still leave the shared promise settled; avoid an unhandled rejection.
    this.promise.catch(() => undefined);
  }

  /** Every waiter left and the server request was cancelled. */
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  join(signal?: AbortSignal): Promise<T> {
    this.waiting++;
    if (!signal) return this.promise;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        reject(new LspgateError('CANCELLED', 'request cancelled'));
        // The last caller gone: cancel the server request itself ($/cancelRequest).
        if (--this.waiting === 0) this.controller.abort(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.promise.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }
}
