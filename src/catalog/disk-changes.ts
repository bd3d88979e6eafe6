/**
 * Changes on disk seen by the directory watcher become catalog updates, each file through the
 * catalog's gate (file-gate.ts) exactly as the first walk judged it: a file the gate admits is
 * cataloged again, one it refuses now (turned into a symlink out of the root, a private key written
 * into it) or that is gone leaves the catalog, a new directory is watched only if the gate would
 * have entered it (never a symlinked one, so nothing outside the root is watched). The catalog's
 * change feed tells everyone else; a watcher batch reaches its listeners as one batch.
 */
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';

import type { Logger } from '../util/logger.js';
import { toRelative } from '../util/paths.js';
import type { CatalogFiles } from './catalog-files.js';
import type { ChangeFeed } from './change-feed.js';
import type { Admission } from './file-gate.js';
import type { Freshness } from './freshness.js';
import type { SyntaxEntries } from './syntax-tier.js';
import { directoryId, DirectoryWatcher } from './watcher.js';

/** The stages a change goes through after the watcher, and what the catalog says of its state. */
export interface DiskChangeStages {
  /** Where entries enter and leave (catalog-files.ts); its gate judges every changed path. */
  readonly files: CatalogFiles;
  /** Parses a changed file first (syntax-tier.ts): early answers see the edit at once. */
  readonly syntax: SyntaxEntries;
  /** Then its server's entry, for a file the syntax tier has none for (freshness.ts). */
  readonly freshness: Freshness;
  readonly feed: ChangeFeed;
  /** False before the first build (or after invalidate_cache): changes are passed on but not cataloged. */
  cataloged(): boolean;
}

/** The watcher's end of the pipeline: a changed path → the gate → parse (syntax, then server) → entry → feed. */
export class DiskChanges {
  private watcher: DirectoryWatcher | undefined;
  /** The root directory the watcher watches (device, inode, birth time): a root made anew is another directory. */
  private rootId: string | undefined;
  private readonly root: string;

  constructor(
    private readonly stages: DiskChangeStages,
    private readonly logger: Logger,
  ) {
    this.root = stages.files.root;
  }

  get watching(): boolean {
    return this.watcher !== undefined;
  }

  /** Watches `directories` (the walk's: each one the gate entered); more are added to a running watcher. */
  start(directories: string[]): void {
    if (!this.watcher) this.rootId = directoryId(this.root);
    this.watcher ??= new DirectoryWatcher(this.root, this.stages.files.gate.filter, (changes) => this.apply(changes), this.logger);
    for (const d of directories) this.watcher.add(d);
  }

  /** Resolves once every change seen so far is applied. */
  async settled(): Promise<void> {
    await this.watcher?.settled();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.rootId = undefined;
  }

  /** Whether the watched root is gone (deleted or renamed away). */
  rootMissing(): boolean {
    return this.watcher !== undefined && directoryId(this.root) === undefined;
  }

  /**
   * Whether the root now is another directory than the one watched: deleted and created again
   * (`rm -rf` + `cp -r`). The watches hang on the old directory, which is gone: they saw every file
   * go and will never see the new ones come, so the catalog would answer "0 files" until restarted.
   * A root that is missing now is not "replaced" (answers say FILE_NOT_FOUND). The inode number is
   * often the old one (ext4 reuses it at once) and a file system may keep no birth time: the event
   * the root sent of its own going says it too.
   */
  rootReplaced(): boolean {
    if (!this.watcher || this.rootId === undefined) return false;
    const now = directoryId(this.root);
    return now !== undefined && (now !== this.rootId || this.watcher.rootGone);
  }

  private async apply(abs: string[]): Promise<void> {
    await this.stages.feed.batch(async () => {
      for (const file of abs) await this.applyOne(file);
    });
  }

  private async applyOne(file: string): Promise<void> {
    const { files, feed } = this.stages;
    const rel = toRelative(this.root, file);
    const { gate } = files;
    const base = path.basename(file);
    if (base === '.gitignore' || gate.filter.isManifest(base)) gate.filter.invalidate(path.dirname(rel) === '.' ? '' : path.dirname(rel));
    const st = await lstat(file).catch(() => undefined);
    if (!st) {
      this.watcher?.remove(file);
      for (const known of files.knownUnder(rel)) files.removeFile(known);
      return;
    }
    if (
      st.isDirectory() ||
      (st.isSymbolicLink() &&
        (await stat(file).then(
          (t) => t.isDirectory(),
          () => false,
        )))
    ) {
      if (rel === '') return;
      const entered = await gate.enterDirectory(file);
      if (typeof entered !== 'string') this.watcher?.add(entered.abs, true);
      return;
    }
    const a = await gate.admit(file);
    if (!a.admitted) {
      if (files.knows(rel)) files.removeFile(rel);
      return;
    }
    if (!this.stages.cataloged()) {
      feed.emit({ rel: a.rel, path: a.abs, kind: files.knows(a.rel) ? 'changed' : 'added' });
      return;
    }
    await this.recatalog(a).catch((e: unknown) => files.recordError(a.rel, e));
  }

  /** Its syntax entry first (early answers see the edit at once), else its server's, on the bytes the gate admitted. */
  private async recatalog(a: Admission & { admitted: true }): Promise<void> {
    if (await this.stages.syntax.changed(a)) return;
    await this.stages.freshness.refreshFile(a, false, a);
  }
}
