/**
 * When the catalog's snapshot is written: once at the end of a build, and at most every 500 ms
 * after single-file changes. A save while a build runs would serialize the whole catalog-so-far
 * (dozens of times on a 500-file workspace, ~17 MB each at the end).
 */
import type { Logger } from '../util/logger.js';
import { deleteSnapshot, INDEX_VERSION, loadSnapshot, saveSnapshot, type Snapshot } from './store.js';
import type { SymbolIndex } from './symbol-index.js';

export interface SnapshotHead {
  indexedAt: string | undefined;
  gitHead: string;
  /** True while a build runs or before anything was cataloged: no periodic save then. */
  quiet: boolean;
}

export class SnapshotKeeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly root: string,
    private readonly index: SymbolIndex,
    private readonly head: () => SnapshotHead,
    private readonly logger: Logger,
  ) {}

  /** The snapshot's files go into the index; its head is returned (undefined: none usable). */
  load(): { indexedAt: string; gitHead: string } | undefined {
    const snap = loadSnapshot(this.file, this.root);
    if (!snap) return undefined;
    for (const [rel, entry] of Object.entries(snap.files)) this.index.setFile(rel, entry);
    return { indexedAt: snap.indexed_at, gitHead: snap.git_head };
  }

  schedule(): void {
    if (this.head().quiet) return;
    this.timer ??= setTimeout(() => this.saveNow(), 500).unref();
  }

  get pending(): boolean {
    return this.timer !== undefined;
  }

  saveNow(): void {
    this.cancel();
    const { indexedAt, gitHead } = this.head();
    const snap: Snapshot = {
      index_version: INDEX_VERSION,
      root: this.root,
      indexed_at: indexedAt ?? new Date().toISOString(),
      git_head: gitHead,
      files: Object.fromEntries(this.index.files),
    };
    try {
      saveSnapshot(this.file, snap);
    } catch (e) {
      this.logger.warn(`could not write ${this.file}`, e);
    }
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  delete(): void {
    this.cancel();
    deleteSnapshot(this.file);
  }
}
