/**
 * Changes on disk seen by the directory watcher become catalog updates, each file through the
 * catalog's gate (file-gate.ts) exactly as the first walk judged it: a file the gate admits is
 * cataloged again, one it refuses now (turned into a symlink out of the root, a private key written
 * into it) or that is gone leaves the catalog, a new directory is watched only if the gate would
 * have entered it (never a symlinked one, so nothing outside the root is watched). The catalog's
 * change feed tells everyone else; a watcher batch reaches its listeners as one batch.
 */
import { statSync } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';

import type { Logger } from '../util/logger.js';
import { toRelative } from '../util/paths.js';
import type { ChangeFeed } from './change-feed.js';
import type { Admission, FileGate } from './file-gate.js';
import { DirectoryWatcher } from './watcher.js';

export interface DiskChangeHost {
  readonly root: string;
  readonly feed: ChangeFeed;
  gate(): FileGate;
  /** False before the first build (or after invalidate_cache): changes are passed on but not cataloged. */
  cataloged(): boolean;
  /** Whether the catalog has the file (cataloged, or failed and recorded). */
  knows(rel: string): boolean;
  /** Known files at or below `rel`. */
  knownUnder(rel: string): string[];
  removeFile(rel: string): void;
  refreshFile(f: Admission & { admitted: true }): Promise<unknown>;
  recordError(rel: string, e: unknown): void;
}

export class DiskChanges {
  private watcher: DirectoryWatcher | undefined;
  /** The root directory the watcher watches (device and inode): a root made anew is another directory. */
  private rootId: string | undefined;

  constructor(
    private readonly host: DiskChangeHost,
    private readonly logger: Logger,
  ) {}

  get watching(): boolean {
    return this.watcher !== undefined;
  }

  /** Watches `directories` (the walk's: each one the gate entered); more are added to a running watcher. */
  start(directories: string[]): void {
    if (!this.watcher) this.rootId = directoryId(this.host.root);
    this.watcher ??= new DirectoryWatcher(this.host.root, this.host.gate().filter, (changes) => this.apply(changes), this.logger);
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
    return this.watcher !== undefined && directoryId(this.host.root) === undefined;
  }

  /**
   * Whether the root now is another directory than the one watched: deleted and created again
   * (`rm -rf` + `cp -r`). The watches hang on the old directory, which is gone: they saw every file
   * go and will never see the new ones come, so the catalog would answer "0 files" until restarted.
   * A root that is missing now is not "replaced" (answers say FILE_NOT_FOUND).
   */
  rootReplaced(): boolean {
    if (!this.watcher || this.rootId === undefined) return false;
    const now = directoryId(this.host.root);
    return now !== undefined && now !== this.rootId;
  }

  private async apply(abs: string[]): Promise<void> {
    await this.host.feed.batch(async () => {
      for (const file of abs) await this.applyOne(file);
    });
  }

  private async applyOne(file: string): Promise<void> {
    const { host } = this;
    const rel = toRelative(host.root, file);
    const gate = host.gate();
    const base = path.basename(file);
    if (base === '.gitignore' || gate.filter.isManifest(base)) gate.filter.invalidate(path.dirname(rel) === '.' ? '' : path.dirname(rel));
    const st = await lstat(file).catch(() => undefined);
    if (!st) {
      this.watcher?.remove(file);
      for (const known of host.knownUnder(rel)) host.removeFile(known);
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
      if (host.knows(rel)) host.removeFile(rel);
      return;
    }
    if (!host.cataloged()) {
      host.feed.emit({ rel: a.rel, path: a.abs, kind: host.knows(a.rel) ? 'changed' : 'added' });
      return;
    }
    await host.refreshFile(a).catch((e: unknown) => host.recordError(a.rel, e));
  }
}

function directoryId(dir: string): string | undefined {
  try {
    const st = statSync(dir, { bigint: true });
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}
