/**
 * Changes on disk after the first build: the directory watcher's batches become catalog updates
 * (removed, re-cataloged, newly walked directories) and a list of file changes for whoever keeps
 * the language servers in step with the disk (the broker's notifier, wired by the gateway).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileChange } from '../core/catalog.js';
import type { Logger } from '../util/logger.js';
import { toRelative } from '../util/paths.js';
import type { FileFilter } from './file-filter.js';
import type { SymbolIndex } from './symbol-index.js';
import { DirectoryWatcher } from './watcher.js';

export interface DiskChangeHost {
  readonly root: string;
  readonly index: SymbolIndex;
  readonly maxFileBytes: number;
  filter(): FileFilter;
  /** False before the first build: changes are passed on but not cataloged. */
  cataloged(): boolean;
  removeFile(rel: string): void;
  refreshFile(f: { abs: string; rel: string }): Promise<unknown>;
  recordError(rel: string, e: unknown): void;
  notify(changes: FileChange[]): void;
}

export class DiskChanges {
  private watcher: DirectoryWatcher | undefined;

  constructor(
    private readonly host: DiskChangeHost,
    private readonly logger: Logger,
  ) {}

  get watching(): boolean {
    return this.watcher !== undefined;
  }

  start(directories: string[]): void {
    if (this.watcher) return;
    this.watcher = new DirectoryWatcher(this.host.root, this.host.filter(), (changes) => this.apply(changes), this.logger);
    for (const d of directories) this.watcher.add(d);
  }

  /** Resolves once every change seen so far is applied. */
  async settled(): Promise<void> {
    await this.watcher?.settled();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private async apply(abs: string[]): Promise<void> {
    const notes: FileChange[] = [];
    for (const file of abs) {
      const note = await this.applyOne(file);
      if (note) notes.push(note);
    }
    this.host.notify(notes);
  }

  private async applyOne(file: string): Promise<FileChange | undefined> {
    const { host } = this;
    const rel = toRelative(host.root, file);
    if (path.basename(file) === '.gitignore') host.filter().invalidate(path.dirname(rel) === '.' ? '' : path.dirname(rel));
    const st = await stat(file).catch(() => undefined);
    if (!st) {
      this.watcher?.remove(file);
      if (!host.index.files.has(rel)) return undefined;
      host.removeFile(rel);
      return { path: file, type: 'deleted' };
    }
    if (st.isDirectory()) {
      if (rel !== '' && !host.filter().path(rel, true)) this.watcher?.add(file, true);
      return undefined;
    }
    if (host.filter().path(rel) || st.size > host.maxFileBytes) return undefined;
    const note: FileChange = { path: file, type: host.index.files.has(rel) ? 'changed' : 'created' };
    if (host.cataloged()) await host.refreshFile({ abs: file, rel }).catch((e: unknown) => host.recordError(rel, e));
    return note;
  }
}
