/**
 * The indexes and caches derived from one workspace's catalog (core/catalog.ts DerivedState): the
 * import graph, the chunk index, the vector store, outlines, answered hashes... each kept in one slot
 * made on first use and dropped with the catalog — `close` when the workspace is released, `clear`
 * when invalidate_cache drops what was cataloged — so that nothing derived from a workspace lives
 * on in a module-level map after it is gone.
 */
import type { Derived, DerivedKey, DerivedState as State } from '../core/catalog.js';
import type { Logger } from '../util/logger.js';

export class DerivedState implements State {
  private readonly slots = new Map<string, Derived>();
  private closed = false;

  constructor(private readonly logger: Logger) {}

  get<T extends Derived>(key: DerivedKey<T>, make: () => T): T {
    let v = this.slots.get(key.name) as T | undefined;
    if (!v) {
      v = make();
      // A closed workspace still answers a call that was running when it closed, but keeps nothing.
      if (!this.closed) this.slots.set(key.name, v);
    }
    return v;
  }

  peek<T extends Derived>(key: DerivedKey<T>): T | undefined {
    return this.slots.get(key.name) as T | undefined;
  }

  sizes(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, v] of [...this.slots].sort(([a], [b]) => (a < b ? -1 : 1))) out[name] = v.bytes();
    return out;
  }

  /** Drops every slot (each disposed); later gets make them again. */
  clear(): void {
    const all = [...this.slots.values()];
    this.slots.clear();
    for (const v of all) {
      try {
        v.dispose?.();
      } catch (e) {
        this.logger.warn('disposing derived state failed', e);
      }
    }
  }

  /** Drops every slot for good: the workspace is closed. */
  close(): void {
    this.closed = true;
    this.clear();
  }
}
