/**
 * The operation-level result cache: a whole validated answer of a read-only operation, stored with
 * the stamps that prove it is still what the operation would answer now:
 *   - every session it used: the same session object, the same generation (a restarted server is
 *     a new server), still ready, and the response cache's stamp of its scope unchanged (any file
 *     change synced or notified to that server, any invalidation or clear, moves the stamp);
 *   - the version of the workspace's catalog (any file of it re-cataloged or removed);
 *   - (mtime, size, inode) of every file the operation touched, taken when it first touched it,
 *     so that an edit on disk that no watcher reported yet still makes the entry unusable.
 * A hit re-checks all three: a few comparisons and one stat per file. Those checks are the safety
 * net: the cache learns of changes from each workspace's change feed (the catalog's), and drops that
 * workspace's answers at once, and all of them when the workspace is closed (a slot in its catalog's
 * DerivedState listens for it), so no answer outlives the workspace it was made in.
 *
 * Which files and sessions an operation touched is recorded while it runs: the runner runs the
 * handler inside util/dependency-scope's recordDependencies, and CachedSession and the catalog note
 * each access there.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';

import { LRUCache } from 'lru-cache';

import type { ChangeFeed, Derived, DerivedKey, DerivedState } from '../core/catalog.js';
import type { DependencySink, StampedSession } from '../util/dependency-scope.js';

/** What a file looked like when an operation first touched it; ino -1 = it did not exist. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/**
 * The catalog whose version an answer depends on (a workspace's), with its feed and derived state
 * (a catalog without them is proven fresh by its version alone).
 */
export interface VersionedCatalog {
  readonly version: number;
  readonly changes?: ChangeFeed;
  readonly derived?: DerivedState;
}

type FedCatalog = Required<VersionedCatalog>;

interface SessionStamp {
  session: StampedSession;
  generation: number;
  stamp: string;
}

const ABSENT: FileStamp = { mtimeMs: 0, size: 0, ino: -1 };

function stampOf(st: { mtimeMs: number; size: number; ino: number } | undefined): FileStamp {
  return st ? { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino } : ABSENT;
}

function statStamp(absPath: string): FileStamp {
  try {
    return stampOf(statSync(absPath, { throwIfNoEntry: false }));
  } catch {
    return ABSENT;
  }
}

/** The sessions and files one operation call used, with their stamps at first use. */
export class DependencyRecorder implements DependencySink {
  readonly files = new Map<string, FileStamp>();
  readonly sessions = new Map<StampedSession, SessionStamp>();
  /** The catalog's version when the call began. */
  readonly catalogVersion: number;

  constructor(readonly catalog: VersionedCatalog) {
    this.catalogVersion = catalog.version;
  }

  noteFile(absPath: string, st?: { mtimeMs: number; size: number; ino: number }): void {
    if (this.files.has(absPath)) return;
    this.files.set(absPath, st ? stampOf(st) : statStamp(absPath));
  }

  noteSession(session: StampedSession): void {
    if (this.sessions.has(session)) return;
    this.sessions.set(session, { session, generation: session.generation, stamp: session.cacheStamp() });
  }

  /** Whether everything recorded is still as it was (sessions ready, nothing moved). */
  sessionsUnchanged(): boolean {
    for (const s of this.sessions.values()) if (!sessionFresh(s)) return false;
    return true;
  }
}

function sessionFresh(s: SessionStamp): boolean {
  return s.session.state === 'ready' && s.session.generation === s.generation && s.session.cacheStamp() === s.stamp;
}

export interface CachedResult {
  /** The validated result without `_meta`, as JSON (a fresh copy per hit; callers may mutate). */
  bodyJson: string;
  /** `_meta` fields that belong to the answer, not to the call. */
  meta: Record<string, unknown>;
  tokensSaved: number;
  /** The body pretty-printed (JSON.stringify(body, null, 2)), kept after the first json rendering. */
  bodyPretty?: string;
}

interface Entry extends CachedResult {
  sessions: SessionStamp[];
  catalog: VersionedCatalog;
  catalogVersion: number;
  files: [string, FileStamp][];
}

export interface OperationCacheStats {
  hits: number;
  misses: number;
  stale: number;
  stored: number;
  entries: number;
  bytes: number;
}

/** The memory an entry is counted for: its JSON and key (UTF-16) and a share per file stamp. */
function entryBytes(v: Entry, k: string): number {
  return v.bodyJson.length * 2 + k.length * 2 + v.files.length * 120 + 200;
}

/** This cache's part of one workspace: the keys of its answers, dropped on each change and at close. */
class WorkspaceAnswers implements Derived {
  readonly keys = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly cache: OperationCache,
    private readonly catalog: FedCatalog,
  ) {
    this.unsubscribe = catalog.changes.subscribe(() => cache.dropWorkspace(catalog));
  }

  bytes(): number {
    return this.cache.bytesOf(this.keys);
  }

  dispose(): void {
    this.unsubscribe();
    this.cache.dropWorkspace(this.catalog);
  }
}

export class OperationCache {
  private readonly lru: LRUCache<string, Entry>;
  private readonly counters = { hits: 0, misses: 0, stale: 0, stored: 0 };
  /** Each runner's cache has its own slot in a workspace's derived state. */
  private readonly slot: DerivedKey<WorkspaceAnswers> = { name: `operation_cache:${randomUUID().slice(0, 8)}` };
  private readonly byCatalog = new Map<VersionedCatalog, WorkspaceAnswers>();

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, Entry>({
      maxSize: Math.max(1, maxBytes),
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
      sizeCalculation: entryBytes,
      dispose: (v, k) => this.forget(v.catalog, k),
    });
  }

  /** Drops every answer made in the workspace of `catalog` (a change reached its feed, or it closed). */
  dropWorkspace(catalog: VersionedCatalog): void {
    const answers = this.byCatalog.get(catalog);
    if (!answers) return;
    for (const k of [...answers.keys]) this.lru.delete(k);
  }

  /** The bytes counted for `keys` (a workspace's share, for its status). */
  bytesOf(keys: Iterable<string>): number {
    let n = 0;
    for (const k of keys) {
      const v = this.lru.peek(k);
      if (v) n += entryBytes(v, k);
    }
    return n;
  }

  private track(catalog: VersionedCatalog, key: string): void {
    if (!catalog.changes || !catalog.derived) return;
    let answers = this.byCatalog.get(catalog);
    if (!answers) {
      answers = catalog.derived.get(this.slot, () => new WorkspaceAnswers(this, catalog as FedCatalog));
      this.byCatalog.set(catalog, answers);
    }
    answers.keys.add(key);
  }

  private forget(catalog: VersionedCatalog, key: string): void {
    const answers = this.byCatalog.get(catalog);
    if (!answers) return;
    answers.keys.delete(key);
    if (answers.keys.size === 0) this.byCatalog.delete(catalog);
  }

  /** The stored result if every stamp still holds; a stale entry is dropped. */
  get(key: string): CachedResult | undefined {
    const e = this.lru.get(key);
    if (!e) {
      this.counters.misses++;
      return undefined;
    }
    if (!fresh(e)) {
      this.lru.delete(key);
      this.counters.stale++;
      this.counters.misses++;
      return undefined;
    }
    this.counters.hits++;
    return e;
  }

  /**
   * Stores a result computed while `recorder` recorded. Nothing is stored when a session the
   * answer came from moved on while it was computed (not ready, restarted, a file change seen):
   * the answer may predate that change.
   */
  set(key: string, result: CachedResult, recorder: DependencyRecorder): void {
    if (!recorder.sessionsUnchanged() || recorder.catalogVersion !== recorder.catalog.version) return;
    this.lru.set(key, {
      ...result,
      sessions: [...recorder.sessions.values()],
      catalog: recorder.catalog,
      catalogVersion: recorder.catalogVersion,
      files: [...recorder.files],
    });
    if (!this.lru.has(key)) return;
    this.counters.stored++;
    this.track(recorder.catalog, key);
  }

  clear(): void {
    this.lru.clear();
  }

  stats(): OperationCacheStats {
    return { ...this.counters, entries: this.lru.size, bytes: this.lru.calculatedSize ?? 0 };
  }
}

function fresh(e: Entry): boolean {
  if (e.catalogVersion !== e.catalog.version) return false;
  for (const s of e.sessions) if (!sessionFresh(s)) return false;
  for (const [file, was] of e.files) {
    const now = statStamp(file);
    if (now.ino !== was.ino || now.mtimeMs !== was.mtimeMs || now.size !== was.size) return false;
  }
  return true;
}
