/**
 * Watches exactly the directories the walk entered, one non-recursive `fs.watch` each (Node's
 * recursive mode on Linux walks into node_modules and every other skipped tree). Events are
 * debounced and delivered in batches, one batch at a time. A directory created later is watched
 * and its entries reported, so files written before its watcher existed are not missed.
 */
import { type FSWatcher, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

import type { Logger } from '../util/logger.js';
import { isInside, toRelative } from '../util/paths.js';
import type { FileFilter } from './file-filter.js';

const DEBOUNCE_MS = 150;
const MAX_WATCHERS = 8192;

export class DirectoryWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
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
    if (this.closed || this.watchers.has(dir) || !isInside(this.root, dir)) return;
    if (this.watchers.size >= MAX_WATCHERS) {
      if (!this.warned) this.logger.warn(`watching ${MAX_WATCHERS} directories already; changes below ${dir} are seen only by the stat check`);
      this.warned = true;
      return;
    }
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: false }, (_event, name) => this.push(name ? path.join(dir, name.toString()) : dir));
    } catch (e) {
      this.logger.debug(`cannot watch ${dir}`, e);
      return;
    }
    w.on('error', () => this.remove(dir));
    this.watchers.set(dir, w);
    if (reportEntries) void this.reportEntries(dir);
  }

  /** A directory that appeared after the walk: its existing entries count as created. */
  private async reportEntries(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) this.push(path.join(dir, e.name));
  }

  remove(dir: string): void {
    for (const [d, w] of this.watchers) {
      if (isInside(dir, d)) {
        w.close();
        this.watchers.delete(d);
      }
    }
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
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
