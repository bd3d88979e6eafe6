/**
 * Watches exactly the directories the walk entered, one non-recursive `fs.watch` each (Node's
 * recursive mode on Linux walks into node_modules and every other skipped tree). Events are
 * debounced and delivered in batches, one batch at a time. A directory created later is watched
 * and its entries reported, so files written before its watcher existed are not missed.
 *
 * A watch hangs on the directory it was given, not on its path: a directory deleted and made again
 * (`rm -rf src && cp -r … src`) is another directory, often with the same inode number on ext4, and
 * its old watch sees nothing more. Each watch keeps its directory's identity (device, inode, birth
 * time) and the event a directory sends of itself going (a rename named as the directory): a
 * directory reported again whose identity changed, or that sent it, is watched anew.
 */
import { type FSWatcher, lstatSync, statSync, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

import type { Logger } from '../util/logger.js';
import { isInside, toRelative } from '../util/paths.js';
import type { FileFilter } from './file-filter.js';

const DEBOUNCE_MS = 150;
const MAX_WATCHERS = 8192;

export class DirectoryWatcher {
  private readonly watchers = new Map<string, { readonly w: FSWatcher; readonly id: string | undefined }>();
  /** Watched directories that sent the event of their own deletion or move: their watch is dead. */
  private readonly gone = new Set<string>();
  private rootSentGone = false;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private warned = false;

  constructor(
    private readonly root: string,
    private readonly filter: FileFilter,
    private readonly onChanges: (absPaths: string[]) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  add(dir: string, reportEntries = false): void {
    if (this.closed || !isInside(this.root, dir)) return;
    const known = this.watchers.get(dir);
    if (known) {
      if (!this.gone.has(dir) && known.id === directoryId(dir)) return;
      // the same path, another directory: its old watch (and those below it) see nothing more
      this.remove(dir);
      reportEntries = true;
    }
    if (this.watchers.size >= MAX_WATCHERS) {
      if (!this.warned) this.logger.warn(`watching ${MAX_WATCHERS} directories already; changes below ${dir} are seen only by the stat check`);
      this.warned = true;
      return;
    }
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: false }, (event, name) => this.event(dir, event, name?.toString()));
    } catch (e) {
      this.logger.debug(`cannot watch ${dir}`, e);
      return;
    }
    w.on('error', () => this.remove(dir));
    this.watchers.set(dir, { w, id: directoryId(dir) });
    if (reportEntries) void this.reportEntries(dir);
  }

  /** A directory that appeared after the walk: its existing entries count as created. */
  private async reportEntries(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) this.push(path.join(dir, e.name));
  }

  remove(dir: string): void {
    for (const [d, { w }] of this.watchers) {
      if (isInside(dir, d)) {
        w.close();
        this.watchers.delete(d);
        this.gone.delete(d);
      }
    }
  }

  /** Whether the root sent the event of its own deletion or move: every watch below it is dead. */
  get rootGone(): boolean {
    return this.rootSentGone;
  }

  /**
   * An event of a watched directory. Inotify names the directory itself when it is deleted or moved
   * (a rename whose name is the directory's own): that is the directory changing, not an entry of it —
   * unless an entry of that name is there.
   */
  private event(dir: string, event: string, name: string | undefined): void {
    if (!name) return this.push(dir);
    const entry = path.join(dir, name);
    if (event === 'rename' && name === path.basename(dir) && !exists(entry)) {
      this.gone.add(dir);
      if (dir === this.root) this.rootSentGone = true;
      return this.push(dir);
    }
    this.push(entry);
  }

  watchedCount(): number {
    return this.watchers.size;
  }

  private push(abs: string): void {
    if (this.closed) return;
    const rel = toRelative(this.root, abs);
    // Skipped trees (node_modules, .git...) are never reported, even from a watched parent.
    if (rel !== '' && this.filter.directory(rel) === 'skip_pattern') return;
    this.pending.add(abs);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), DEBOUNCE_MS);
    this.timer.unref();
  }

  private flush(): void {
    this.timer = undefined;
    const batch = [...this.pending];
    this.pending = new Set();
    this.chain = this.chain.then(() => this.onChanges(batch)).catch((e: unknown) => this.logger.warn('handling file changes failed', e));
  }

  /** Resolves when every change seen so far has been handled (tests, refresh). */
  async settled(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.flush();
    }
    await this.chain;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const { w } of this.watchers.values()) w.close();
    this.watchers.clear();
    this.gone.clear();
  }
}

/** A directory's identity: device, inode and birth time (an inode number is reused at once on ext4). */
export function directoryId(dir: string): string | undefined {
  try {
    const st = statSync(dir, { bigint: true });
    return `${st.dev}:${st.ino}:${st.birthtimeNs}`;
  } catch {
    return undefined;
  }
}

function exists(p: string): boolean {
  return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
}
