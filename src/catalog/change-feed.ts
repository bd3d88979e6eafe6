/**
 * The catalog's one change stream (core/catalog.ts ChangeFeed): every file that entered, changed in
 * or left the catalog's set of admitted files, whoever found out. Changes made while a batch is held
 * (a watcher batch, a refresh, a rebuild) reach the listeners together when the last holder lets go,
 * merged per file (added then changed is added; added then removed is nothing; `entryOnly` only
 * when every change merged said so); otherwise at once.
 * A listener that throws is logged and the others still run: one consumer's bug never stops another
 * from learning of a change.
 */
import type { CatalogChange, CatalogChanges, ChangeFeed as Feed } from '../core/catalog.js';
import type { Logger } from '../util/logger.js';

type Listener = (batch: CatalogChanges) => void;

export class ChangeFeed implements Feed {
  private readonly listeners = new Set<Listener>();
  private holds = 0;
  private pending = new Map<string, CatalogChange>();
  private closed = false;

  constructor(private readonly logger: Logger) {}

  subscribe(listener: Listener): () => void {
    if (this.closed) return () => undefined;
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** How many listen now (status, tests). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  emit(change: CatalogChange): void {
    if (this.closed) return;
    const was = this.pending.get(change.rel);
    const kind = merged(was?.kind, change.kind);
    // only the entry changed only if every change of the batch to this file said so
    const entryOnly = change.entryOnly && (was === undefined || was.entryOnly);
    if (kind === undefined) this.pending.delete(change.rel);
    else this.pending.set(change.rel, { rel: change.rel, path: change.path, kind, ...(entryOnly ? { entryOnly } : {}) });
    if (this.holds === 0) this.flush();
  }

  /** The catalog was dropped: listeners start again from nothing (pending changes are moot). */
  reset(): void {
    this.pending.clear();
    this.deliver({ changes: [], reset: true });
  }

  /** Holds changes until the returned release is called (every hold released: one batch). */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.flush();
    };
  }

  /** Runs `work` with the feed held: what it changes is delivered as one batch when it ends. */
  async batch<T>(work: () => Promise<T>): Promise<T> {
    const release = this.hold();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Stops delivering: the catalog is closed (its listeners are dropped with it). */
  close(): void {
    this.closed = true;
    this.pending.clear();
    this.listeners.clear();
  }

  private flush(): void {
    if (this.pending.size === 0) return;
    const changes = [...this.pending.values()];
    this.pending = new Map();
    this.deliver({ changes });
  }

  private deliver(batch: CatalogChanges): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(batch);
      } catch (e) {
        this.logger.warn('a change-feed listener failed', e);
      }
    }
  }
}

/** One file's kind after two changes in a batch; undefined when they cancel out. */
function merged(was: CatalogChange['kind'] | undefined, now: CatalogChange['kind']): CatalogChange['kind'] | undefined {
  if (was === undefined) return now;
  if (was === 'added') return now === 'removed' ? undefined : 'added';
  if (was === 'removed') return now === 'removed' ? 'removed' : 'changed';
  return now;
}
