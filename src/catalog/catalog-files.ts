/**
 * The catalog's files: the one place a file enters, changes in or leaves the index. A file enters
 * only through the gate (file-gate.ts) — unless the caller just passed it there — and every change
 * is told to the change feed after the index holds it. The first build's walk is the starting state,
 * not a change: what it catalogs or drops is not fed (the servers read the disk themselves, and
 * nothing derived exists before a build). Syntax-tier entries (syntax-tier.ts) enter here too, on the
 * bytes the gate admitted, and are fed like any entry; a server's entry that takes the place of a
 * syntax entry of the same bytes is fed as `entryOnly` (nothing on disk changed, only the symbols).
 */
import path from 'node:path';

import type { CatalogFileError, FileCataloger, FileEntry } from '../core/catalog.js';
import { type LspgateError, toLspgateError } from '../errors/errors.js';
import type { ChangeFeed } from './change-feed.js';
import { type FileGate, type GateAnswer, refusalOf, WALKED } from './file-gate.js';
import type { SymbolIndex } from './symbol-index.js';

export interface CatalogFilesDeps {
  root: string;
  index: SymbolIndex;
  feed: ChangeFeed;
  cataloger: FileCataloger;
  /** The gate for the walk's options when the catalog is made (CatalogFiles.gate). */
  gate: FileGate;
  /** What the catalog knows of its syntax tier (syntax-tier.ts: which files stay at it, how the tiers disagree). */
  tier: { compare(before: FileEntry | undefined, after: FileEntry): void; readonly syntaxOnly: Map<string, string> };
  /** The snapshot's keeper (catalog-keeper.ts): told when an entry changed, it saves again. */
  snapshot: { schedule(): void };
}

export class CatalogFiles {
  readonly root: string;
  readonly index: SymbolIndex;
  readonly errors = new Map<string, CatalogFileError>();
  /** False until the first build's walk is done: until then its changes are the starting state. */
  live = false;
  private readonly inflight = new Map<string, { promise: Promise<FileEntry>; background: boolean }>();

  /**
   * The gate every file passes to enter, for the walk's options now: index_folder's options replace it
   * (WorkspaceCatalog.configure), and every stage asks this one.
   */
  gate: FileGate;

  constructor(private readonly deps: CatalogFilesDeps) {
    this.root = deps.root;
    this.index = deps.index;
    this.gate = deps.gate;
  }

  /** An entry's stamps moved but its bytes did not (freshness.ts): the snapshot is saved again. */
  touched(): void {
    this.deps.snapshot.schedule();
  }

  /** Whether the file is cataloged or failed (recorded in errors). */
  knows(rel: string): boolean {
    return this.deps.index.files.has(rel) || this.errors.has(rel);
  }

  /** Known files at `rel` or below it (a directory that went). */
  knownUnder(rel: string): string[] {
    // a file that went (the common case) is named by itself: no scan of every known file
    if (this.knows(rel)) return [rel];
    const prefix = rel === '' ? '' : rel + '/';
    return [...new Set([...this.deps.index.files.keys(), ...this.errors.keys()])].filter((f) => f === rel || f.startsWith(prefix));
  }

  /**
   * The file's entry from the cataloger, through the gate unless the caller just passed it there
   * (`admission`: the walk's mark, the watcher's answer); concurrent callers of the same file share
   * one request. A file the gate refuses (a symlink out of the root, a secret, a private key, binary,
   * too large) leaves the index and is answered with its coded error; one it only leaves out (ignore
   * rules, a skipped directory) is answered when asked for by name, and not indexed.
   */
  catalogFile(abs: string, rel: string, background = false, admission?: GateAnswer): Promise<FileEntry> {
    const running = this.inflight.get(rel);
    // An interactive caller does not join a background request: that one may still be queued
    // behind the rest of a cold build (a find_definition waited 132 s for the whole catalog).
    if (running && (running.background === background || !running.background)) return running.promise;
    const promise = this.gated(abs, rel, background, admission).finally(() => {
      if (this.inflight.get(rel)?.promise === promise) this.inflight.delete(rel);
    });
    this.inflight.set(rel, { promise, background });
    return promise;
  }

  private async gated(abs: string, rel: string, background: boolean, given?: GateAnswer): Promise<FileEntry> {
    const a = given ?? (await this.gate.admit(abs));
    if (a !== WALKED && !a.admitted) {
      const refused = refusalOf(a);
      if (refused) {
        this.removeFile(rel);
        throw refused;
      }
      // left out by the walk's rules (ignored since, a skipped directory): answered, not indexed —
      // and no longer indexed if it was, as the next walk would leave it out
      if (this.knows(rel)) this.removeFile(rel);
      return this.deps.cataloger.catalogFile(abs, rel, { background });
    }
    const { abs: at, rel: as } = a === WALKED ? { abs, rel } : a;
    const content = a === WALKED ? undefined : { bytes: a.bytes, size: a.size, mtimeMs: a.mtimeMs };
    const entry = await this.deps.cataloger.catalogFile(at, as, { background, ...(content ? { content } : {}) });
    this.store(as, entry, a === WALKED);
    return entry;
  }

  private store(rel: string, entry: FileEntry, walked: boolean): void {
    const before = this.deps.index.files.get(rel);
    const known = before !== undefined || this.errors.has(rel);
    this.errors.delete(rel);
    if (entry.tier !== 'syntax') {
      this.deps.tier.compare(before, entry);
      this.deps.tier.syntaxOnly.delete(rel);
    }
    this.deps.index.setFile(rel, entry);
    this.touched();
    if (before?.hash !== entry.hash) this.feed(rel, known ? 'changed' : 'added', walked);
    else if (before.tier !== entry.tier) this.feed(rel, 'changed', walked, true);
  }

  /**
   * A syntax-tier entry of a file the gate admitted (the caller passed it there: the walk, the
   * watcher, an early reader): stored unless the server's entry of the same bytes is there already
   * (then the two are compared, and the server's stays).
   */
  storeSyntax(rel: string, entry: FileEntry, walked: boolean): void {
    const current = this.deps.index.files.get(rel);
    if (current && current.tier !== 'syntax' && current.hash === entry.hash) {
      this.deps.tier.compare(entry, current);
      return;
    }
    this.store(rel, entry, walked);
  }

  /** Out of the index (gone from disk, refused now, or not walked any more). */
  removeFile(rel: string, walked = false): void {
    const known = this.knows(rel);
    this.deps.index.removeFile(rel);
    this.errors.delete(rel);
    this.touched();
    if (known) this.feed(rel, 'removed', walked);
  }

  /**
   * A file that could not be cataloged: recorded with its code, out of the index. Fed when its entry
   * went (what was derived from it is stale) or the file is new (the servers must learn of it).
   */
  recordError(rel: string, e: unknown, walked = false): void {
    const err = toLspgateError(e);
    if (err.code === 'CANCELLED') throw err;
    if (this.deps.index.files.get(rel)?.tier === 'syntax') return this.serverFailed(rel, err);
    const had = this.deps.index.files.has(rel);
    const known = had || this.errors.has(rel);
    this.errors.set(rel, { file: rel, code: err.code, message: err.message });
    this.deps.index.removeFile(rel);
    if (had || !known) this.feed(rel, had ? 'changed' : 'added', walked);
  }

  /** A file whose syntax entry answers failed at its server: the entry stays (marked syntax), never nothing. */
  private serverFailed(rel: string, err: LspgateError): void {
    // a language whose server is missing keeps its syntax entries: no failure, the syntax tier's answer
    if (err.code === 'SERVER_NOT_INSTALLED' || err.code === 'UNSUPPORTED_LANGUAGE') {
      this.deps.tier.syntaxOnly.set(rel, err.code);
      this.errors.delete(rel);
    } else this.errors.set(rel, { file: rel, code: err.code, message: err.message });
  }

  /** Drops every entry and error (invalidate_cache); the feed says reset. */
  clear(): void {
    this.deps.index.clear();
    this.errors.clear();
    this.live = false;
    this.deps.feed.reset();
  }

  private feed(rel: string, kind: 'added' | 'changed' | 'removed', walked: boolean, entryOnly = false): void {
    if (walked && !this.live) return;
    this.deps.feed.emit({ rel, path: path.join(this.deps.root, rel), kind, ...(entryOnly ? { entryOnly: true as const } : {}) });
  }
}
