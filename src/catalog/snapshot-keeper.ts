/**
 * When the catalog's snapshot is written: once at the end of a build, and at most every 500 ms
 * after single-file changes. A save while a build runs would serialize the whole catalog-so-far
 * (dozens of times on a 500-file workspace, ~17 MB each at the end).
 */
import { toLspgateError } from '../errors/errors.js';
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
    private readonly notice?: (message: string) => void,
  ) {}

  /** A save failed since the last one that worked: the warning is given once per such streak. */
  private failing = false;

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
      this.failing = false;
    } catch (e) {
      // the answers are unaffected (the catalog is in memory), but a silent failure costs a whole
      // rebuild at the next start with no one told why: the log and the next answer say it
      const err = toLspgateError(e);
      const message = `the catalog could not be saved to ${this.file} (${err.code}: ${err.message}); answers are unaffected, the next start catalogs the workspace again`;
      this.logger.warn(message);
      if (!this.failing) this.notice?.(message);
      this.failing = true;
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
